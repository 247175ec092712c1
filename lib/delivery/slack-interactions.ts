// A click on a Slack button (docs/notifications.md, "Slack"): Slack's signature checked first, then the clicking
// Slack user mapped back to an account user by email, the action applied through the owner's DeliveryOwner.act (the
// registry is passed in, ./port.ts), and the message updated to say what happened (or, when the person cannot act, a
// note only they see).
import { config } from '../config.ts';
import { logger } from '../logger.ts';
import { isMessageAction, type ActOutcome, type DeliveryOwners } from './port.ts';
import { accountUserOfEmail } from './recipients.ts';
import { escapeMrkdwn, SLACK_ACTION_PREFIX, slackButtons, slackCall, verifySlackSignature, type SlackButtonValue } from '../channel-adapters/slack.ts';

export interface SlackRequest {
  /** The raw body exactly as Slack sent it (the signature covers it byte for byte). */
  readonly body: string;
  readonly timestamp: string | undefined;
  readonly signature: string | undefined;
  readonly now: number;
}

/** 200: Slack is answered with an empty body (the message is updated by API call); otherwise the refusal. */
export type SlackAnswer = { readonly status: 200 } | { readonly status: 400 | 401; readonly message: string };

interface BlockActionsPayload {
  type: string;
  user?: { id?: string };
  channel?: { id?: string };
  message?: { ts?: string; blocks?: { type?: string }[] };
  container?: { channel_id?: string; message_ts?: string };
  actions?: { action_id?: string; value?: string }[];
}

const NOT_AN_INTERACTION: SlackAnswer = { status: 400, message: 'payload must be a Slack interaction (a form field holding JSON)' };

function parsePayload(body: string): BlockActionsPayload | undefined {
  try {
    const payload = JSON.parse(new URLSearchParams(body).get('payload') ?? '') as unknown;
    return typeof payload === 'object' && payload !== null && typeof (payload as BlockActionsPayload).type === 'string' ? (payload as BlockActionsPayload) : undefined;
  } catch {
    return undefined;
  }
}

function buttonValue(raw: string | undefined): SlackButtonValue | undefined {
  try {
    const value = JSON.parse(raw ?? '') as Partial<SlackButtonValue>;
    const ok = (value.ownerType === 'alert' || value.ownerType === 'broadcast') && [value.ownerId, value.accountId, value.action].every((v) => typeof v === 'string' && v.length > 0 && v.length <= 64);
    return ok ? (value as SlackButtonValue) : undefined;
  } catch {
    return undefined;
  }
}

/** The clicked message again: its text, who did what, and the buttons still possible (the owner says which). */
function updatedBlocks(payload: BlockActionsPayload, value: SlackButtonValue, outcome: Extract<ActOutcome, { remaining: unknown }>, slackUserId: string) {
  const sections = (payload.message?.blocks ?? []).filter((b) => b.type === 'section');
  const note = { type: 'context', elements: [{ type: 'mrkdwn', text: `${escapeMrkdwn(outcome.text)} (<@${slackUserId}>)` }] };
  const { action: _clicked, ...owner } = value;
  const buttons = slackButtons(owner, outcome.remaining);
  return [...sections, note, ...(buttons.length ? [{ type: 'actions', elements: buttons }] : [])];
}

export async function onSlackInteraction(owners: DeliveryOwners, request: SlackRequest): Promise<SlackAnswer> {
  const { signingSecret, botToken, apiUrl } = config().slack;
  if (!signingSecret || !botToken) return { status: 401, message: 'Slack is not configured here (HARK_SLACK_SIGNING_SECRET and HARK_SLACK_BOT_TOKEN)' };
  const signed = verifySlackSignature({ secret: signingSecret, timestamp: request.timestamp, signature: request.signature, body: request.body, now: request.now });
  if (!signed.ok) return { status: 401, message: signed.message };
  const payload = parsePayload(request.body);
  if (!payload) return NOT_AN_INTERACTION;
  // Other interactions (shortcuts, view submissions) are not Hark's: acknowledged and ignored.
  if (payload.type !== 'block_actions') return { status: 200 };
  const clicked = payload.actions?.find((a) => a.action_id?.startsWith(SLACK_ACTION_PREFIX));
  if (!clicked) return { status: 200 };
  const value = buttonValue(clicked.value);
  const slackUserId = payload.user?.id;
  const channel = payload.channel?.id ?? payload.container?.channel_id;
  const ts = payload.message?.ts ?? payload.container?.message_ts;
  if (!value || !slackUserId || !channel || !ts) return NOT_AN_INTERACTION;

  const call = (method: string, body: Record<string, unknown>) => slackCall(apiUrl, botToken, method, body);
  const tellOnly = async (text: string) => {
    const sent = await call('chat.postEphemeral', { channel, user: slackUserId, text });
    if (!sent.ok) logger.warn('Slack note not posted', { error: sent.error });
    return { status: 200 } as const;
  };

  const owner = owners[value.ownerType];
  if (!owner.act || !isMessageAction(value.action)) return tellOnly('Hark cannot do this from Slack yet; open Hark to answer.');
  const info = await call('users.info', { user: slackUserId });
  const email = info.ok ? (info.body.user as { profile?: { email?: string } } | undefined)?.profile?.email : undefined;
  if (!email) return tellOnly('Hark could not read your email address in Slack, so it cannot tell who you are. Open Hark to act.');
  const accountUserId = await accountUserOfEmail(value.accountId, email);
  if (!accountUserId) return tellOnly(`${email} is not the email of anyone in this Hark account, so the button cannot act for you.`);

  const outcome = await owner.act({ accountId: value.accountId, ownerType: value.ownerType, ownerId: value.ownerId, accountUserId, action: value.action, channel: 'slack' });
  if (!('remaining' in outcome)) return tellOnly(outcome.text);
  const updated = await call('chat.update', { channel, ts, text: outcome.text, blocks: updatedBlocks(payload, value, outcome, slackUserId) });
  if (!updated.ok) logger.warn('Slack message not updated', { error: updated.error });
  return { status: 200 };
}
