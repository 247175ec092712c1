// The broadcast side of the delivery port (lib/delivery/port.ts). Answering from a message: one signed link per response
// option (lib/delivery/links.ts), whose confirmation page asks and whose form records the answer with the message's
// channel, exactly as the API does; and the undelivered check stored with a message that will never arrive.
// Rules: docs/broadcasts.md, "Answers" and "States and every transition".
import { getItem } from '../db/items.ts';
import { broadcastPk, broadcastRecipientSk } from '../db/keys.ts';
import { DomainError } from '../errors.ts';
import { actionLinks, type ActionClaims, type ActionLinkRequest } from '../delivery/links.ts';
import type { DeliveryOwner, LinkPage } from '../delivery/port.ts';
import type { DeliveryChannel, MessageAction } from '../channel-adapters/port.ts';
import { joinedAccountUser } from '../accounts/joined.ts';
import { answerRefusal } from './rules.ts';
import { undeliveredCheckTimer } from './undelivered.ts';
import type { BroadcastItem } from './items.ts';
import { answerBroadcast, findBroadcast } from './service.ts';

/**
 * The links a broadcast's message to one person carries: one per option, in position order (none when no answer
 * is asked for, or when links are not configured). The delivery sender puts them on the outgoing message.
 */
export function broadcastMessageActions(
  broadcast: BroadcastItem,
  accountUserId: string,
  channel: DeliveryChannel,
  now: number,
  signing: Pick<ActionLinkRequest, 'keys' | 'baseUrl'> = {},
): MessageAction[] {
  if (!broadcast.data.response_requested) return [];
  return actionLinks({
    ownerType: 'broadcast',
    ownerId: broadcast.id,
    accountId: broadcast.accountId,
    accountUserId,
    actions: [...broadcast.data.broadcast_response_options].sort((a, b) => a.position - b.position).map((o) => ({ action: o.id, label: o.value })),
    now,
    channel,
    ...signing,
  });
}

const page = (status: number, title: string, text: string, button?: string): LinkPage => ({ status, view: { title, text, ...(button ? { button } : {}) } });
const GONE = page(404, 'Broadcast not found', 'This broadcast was deleted.');
const NOT_RECIPIENT = page(403, 'Not allowed', 'Only the people this broadcast was sent to can answer it.');

/** What the link's checks find: the broadcast and the option, or the page saying why there is nothing to answer. */
async function lookUp(claims: ActionClaims): Promise<{ broadcast: BroadcastItem; value: string } | LinkPage> {
  const [broadcast, member] = await Promise.all([
    findBroadcast(claims.accountId, claims.ownerId),
    joinedAccountUser(claims.accountId, claims.accountUserId),
  ]);
  if (!broadcast) return GONE;
  if (!member) return page(403, 'Not allowed', 'You no longer belong to this account (or have not joined it yet).');
  const recipient = await getItem({ pk: broadcastPk(claims.accountId, broadcast.id), sk: broadcastRecipientSk(claims.accountUserId) });
  if (!recipient) return NOT_RECIPIENT;
  const option = broadcast.data.broadcast_response_options.find((o) => o.id === claims.action);
  if (!option) return page(403, 'Link not valid', 'This link is not valid. Open Hark to answer the broadcast.');
  return { broadcast, value: option.value };
}

/** A broadcast is answered by link only: replies and chat buttons are not offered, so the port's `act` is absent. */
export const broadcastDeliveryOwner: DeliveryOwner = {
  async messageActions({ accountId, ownerId, accountUserId, channel, now }) {
    const broadcast = await findBroadcast(accountId, ownerId);
    return broadcast ? broadcastMessageActions(broadcast, accountUserId, channel, now) : [];
  },
  async confirm(claims) {
    const found = await lookUp(claims);
    if ('view' in found) return found;
    const { broadcast, value } = found;
    const refusal = answerRefusal(broadcast.data, claims.action, Date.now());
    if (refusal) return page(422, broadcast.data.title, `${refusal}.`);
    return page(200, broadcast.data.title, `Answer "${value}" to the broadcast "${broadcast.data.title}"?`, `Answer ${value}`);
  },
  async actOnLink(claims) {
    const found = await lookUp(claims);
    if ('view' in found) return found;
    try {
      await answerBroadcast(
        { accountId: claims.accountId, accountUserId: claims.accountUserId, channel: claims.channel ?? 'link' },
        found.broadcast.id,
        { broadcast_response_option_id: claims.action },
      );
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'invalid') return page(422, found.broadcast.data.title, `${error.messages.join(' ')}.`);
      if (error instanceof DomainError && error.kind === 'not_found') return GONE;
      if (error instanceof DomainError && error.kind === 'forbidden') return NOT_RECIPIENT;
      throw error;
    }
    return page(200, found.broadcast.data.title, `Your answer "${found.value}" is recorded. Answering again replaces it.`);
  },
  // A message that will never arrive: check, in its record's transaction, whether any of the broadcast's did.
  endedWrites({ accountId, about, at }) {
    return { writes: [], timers: [undeliveredCheckTimer(accountId, about.ownerId, at)] };
  },
};
