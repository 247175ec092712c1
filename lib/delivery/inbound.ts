// Inbound replies: an SMS or WhatsApp reply ("4", "6", "4ab") and a call's key press act on the alerts the
// number's reply code stands for, as the person it was issued to, through each owner's DeliveryOwner.act (the registry
// is passed in, ./port.ts). The provider's signature is checked before anything here runs (functions/phone.ts).
// Rules: docs/notifications.md, "Inbound replies".
import { logger } from '../logger.ts';
import { parseInboundTextMessage, sendEndUserMessagingText, type EndUserMessagingSettings } from '../channel-adapters/end-user-messaging.ts';
import type { SendResult } from '../channel-adapters/port.ts';
import type { DeliveryOwners } from './port.ts';
import { findReplyTarget, parseReply, REPLY_DIGITS, type ReplyAction, type ReplyTarget } from './reply-codes.ts';

/** The channels replies arrive on. */
export type ReplyChannel = 'sms' | 'whatsapp' | 'voice';

/** At most this many alerts are listed when a bare "4" is ambiguous: a reply stays one short SMS. */
const LISTED_CHOICES = 5;

/** Acts on every owner of the target that replies can act on (alerts) and words the outcomes in one answer. */
async function actOnTarget(owners: DeliveryOwners, target: ReplyTarget, action: ReplyAction, channel: ReplyChannel): Promise<string> {
  const sentences: string[] = [];
  for (const owner of target.owners) {
    const acting = owners[owner.ownerType];
    if (!acting.act) continue;
    const outcome = await acting.act({ accountId: target.accountId, ownerType: owner.ownerType, ownerId: owner.ownerId, accountUserId: target.accountUserId, action, channel });
    sentences.push(outcome.text);
  }
  logger.info('Reply acted on', { channel, code: target.code, action, alerts: target.owners.length });
  return sentences.join(' ');
}

/** "Reply 4ab (alt_…), 4ac (alt_…) …" for a number with several live codes. Pure. */
function choicesText(choices: readonly ReplyTarget[], digit: string): string {
  const listed = choices.slice(0, LISTED_CHOICES).map((c) => `${digit}${c.code} (${c.owners.map((o) => o.prefixId).join(', ')})`);
  const more = choices.length > LISTED_CHOICES ? ` and ${choices.length - LISTED_CHOICES} more` : '';
  return `Several messages with alerts went to this number: reply with the code, such as ${listed.join(', ')}${more}.`;
}

/** The digit that asks for an action, for wording an answer. */
const digitOf = (action: ReplyAction): string => Object.entries(REPLY_DIGITS).find(([, a]) => a === action)![0];

/**
 * Answers an SMS or WhatsApp message from `phone` (E.164). Returns the text to send back, or undefined to send
 * nothing: a number that holds no live code gets no answer, so Hark never replies to strangers.
 */
export async function answerTextReply(owners: DeliveryOwners, phone: string, body: string, channel: 'sms' | 'whatsapp', now?: number): Promise<string | undefined> {
  const parsed = parseReply(body);
  if (!parsed.ok) {
    const any = await findReplyTarget(phone, undefined, now);
    return any.kind === 'unknown' ? undefined : 'Reply 4 to acknowledge or 6 to resolve, followed by the code the message gave if it gave one (such as 4ab).';
  }
  const lookup = await findReplyTarget(phone, parsed.code, now);
  if (lookup.kind === 'found') return actOnTarget(owners, lookup.target, parsed.action, channel);
  if (lookup.kind === 'ambiguous') return choicesText(lookup.choices, digitOf(parsed.action));
  return parsed.code === undefined ? undefined : `Code ${parsed.code} is not one this number was sent in the last day.`;
}

/** Answers a key press on a page call to `phone` (E.164), with the code from the gather URL. Returns what to say. */
export async function answerKeyPress(owners: DeliveryOwners, phone: string, code: string | undefined, digits: string, now?: number): Promise<string> {
  const action = REPLY_DIGITS[digits as keyof typeof REPLY_DIGITS] as ReplyAction | undefined;
  if (!action) return 'That key does nothing. Goodbye.';
  if (!code || !/^[a-z]{2}$/.test(code)) return 'This call cannot act on the alert any more. Goodbye.';
  const lookup = await findReplyTarget(phone, code, now);
  if (lookup.kind !== 'found') return 'This call cannot act on the alert any more. Goodbye.';
  return `${await actOnTarget(owners, lookup.target, action, 'voice')} Goodbye.`;
}

/**
 * An inbound SMS from End User Messaging's two-way SNS topic: acts like a Twilio reply and texts the answer back
 * from the number that was written to. The topic is the trust boundary: only End User Messaging may publish to it
 * and only this function is subscribed (docs/notifications.md, "Inbound replies").
 */
export async function answerEndUserMessagingInbound(
  owners: DeliveryOwners,
  snsMessage: string,
  settings: Omit<EndUserMessagingSettings, 'originationIdentity'>,
): Promise<SendResult | undefined> {
  const inbound = parseInboundTextMessage(snsMessage);
  if (!inbound) {
    logger.warn('Ignored an SNS message that is not an inbound SMS');
    return undefined;
  }
  const answer = await answerTextReply(owners, inbound.originationNumber, inbound.messageBody, 'sms');
  if (!answer) return undefined;
  return sendEndUserMessagingText({ ...settings, originationIdentity: inbound.destinationNumber }, inbound.originationNumber, answer, inbound.inboundMessageId);
}
