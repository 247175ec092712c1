// The delivery throttle's rules, pure: how many messages one contact method (a channel and an address) may get in
// which window, when the next one may go, and the one bundled message that carries everything that waited.
// The limits are data (lib/limits.ts); windows are divided by HARK_TIME_SCALE like every other wait.
// Rules: docs/notifications.md, "The throttle". Storage of the send history: throttle-store.ts.
import { LIMITS, type LimitName } from '../limits.ts';
import type { BundledPart, DeliveryChannel } from './port.ts';

const MINUTE_MS = 60_000;

/** At most `max` messages in any window of `windowMs`, counted per contact method. */
export interface ThrottleRule {
  readonly limit: LimitName;
  readonly max: number;
  readonly windowMs: number;
}

const rule = (limit: LimitName, windowMs: number): ThrottleRule => ({ limit, max: LIMITS[limit].value, windowMs });

const PER_MINUTE = rule('CONTACT_MESSAGES_PER_MINUTE', MINUTE_MS);
const TEXT_CAPS = [rule('SMS_PER_15_MINUTES', 15 * MINUTE_MS), rule('SMS_PER_HOUR', 60 * MINUTE_MS), rule('SMS_PER_3_HOURS', 180 * MINUTE_MS)];
const CALL_CAPS = [rule('VOICE_CALLS_PER_15_MINUTES', 15 * MINUTE_MS), rule('VOICE_CALLS_PER_HOUR', 60 * MINUTE_MS), rule('VOICE_CALLS_PER_3_HOURS', 180 * MINUTE_MS)];

/**
 * The rules of each channel. Push and chat are not throttled: they cost nothing per message, do not ring, and
 * their providers rate-limit on their own. WhatsApp reaches the same phone as SMS and is paid per message, so it
 * follows the SMS caps.
 */
const THROTTLE_RULES: Readonly<Record<DeliveryChannel, readonly ThrottleRule[]>> = {
  sms: [PER_MINUTE, ...TEXT_CAPS],
  whatsapp: [PER_MINUTE, ...TEXT_CAPS],
  voice: [PER_MINUTE, ...CALL_CAPS],
  email: [PER_MINUTE],
  push: [],
  slack: [],
};

/** True when messages on the channel go through the throttle. */
export const isThrottled = (channel: DeliveryChannel): boolean => THROTTLE_RULES[channel].length > 0;

/** The channel's rules with their windows divided by the time scale (1 in a deployed stack). */
function rulesFor(channel: DeliveryChannel, timeScale = 1): ThrottleRule[] {
  return THROTTLE_RULES[channel].map((r) => ({ ...r, windowMs: Math.max(1, Math.floor(r.windowMs / timeScale)) }));
}

/** How long a send stays relevant to any rule of the channel: older sends can be forgotten. */
export const historySpanMs = (channel: DeliveryChannel, timeScale = 1): number => Math.max(0, ...rulesFor(channel, timeScale).map((r) => r.windowMs));

export type ThrottleDecision = { readonly send: true } | { readonly send: false; readonly until: number };

/**
 * Whether a message to a contact method may go at `now` (epoch ms), given the instants of its earlier sends.
 * Each rule counts sends in the window ending now, (now − window, now]; a full window opens again when its oldest
 * send that must leave does. Sends only age, so the latest of those instants satisfies every rule at once.
 */
export function decide(history: readonly number[], channel: DeliveryChannel, now: number, timeScale = 1): ThrottleDecision {
  let until = now;
  for (const r of rulesFor(channel, timeScale)) {
    const inWindow = history.filter((at) => at > now - r.windowMs && at <= now).sort((a, b) => a - b);
    if (inWindow.length >= r.max) until = Math.max(until, inWindow[inWindow.length - r.max]! + r.windowMs);
  }
  return until > now ? { send: false, until } : { send: true };
}

/** The history after a send at `now`: that send added, sends no rule can count any more dropped. */
export function recordSend(history: readonly number[], channel: DeliveryChannel, now: number, timeScale = 1): number[] {
  const span = historySpanMs(channel, timeScale);
  return [...history.filter((at) => at > now - span), now].sort((a, b) => a - b);
}

/** A message that waited for the throttle: what the bundle needs to name it (the port's BundledPart). */
export type PendingMessage = BundledPart;

/** The longest subject a bundle quotes for each message: a bundle names many alerts in one text. */
const BUNDLED_SUBJECT_LENGTH = 60;

const shorten = (text: string, length: number): string => {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length <= length ? chars.join('') : `${chars.slice(0, length - 1).join('')}…`;
};

/**
 * The one message that carries everything pending for a contact method: "3 alerts unacknowledged: alt_… Disk full;
 * alt_… CPU high; alt_… 5xx rate" followed by the instruction the channel uses (`reply 4 to acknowledge all` for
 * SMS, given by the caller because it knows the channel and the reply code). Messages about the same alert are named
 * once. When not every message is a page, the headline counts messages instead ("3 alert updates").
 */
export function bundleMessage(pending: readonly PendingMessage[], instruction: string): { subject: string; text: string } {
  const ordered = [...pending].sort((a, b) => a.heldAt - b.heldAt || a.notificationId.localeCompare(b.notificationId));
  const byOwner = new Map<string, PendingMessage>();
  for (const message of ordered) if (!byOwner.has(message.ownerId)) byOwner.set(message.ownerId, message);
  const owners = [...byOwner.values()];
  const allPages = ordered.every((m) => m.notificationType === 'alert.open');
  const count = owners.length;
  const noun = allPages ? `${count} alert${count === 1 ? '' : 's'} unacknowledged` : `${ordered.length} alert update${ordered.length === 1 ? '' : 's'}`;
  const list = owners.map((m) => `${m.prefixId} ${shorten(m.subject, BUNDLED_SUBJECT_LENGTH)}`).join('; ');
  const tail = instruction ? `; ${instruction}` : '';
  return { subject: noun, text: `${noun}: ${list}${tail}` };
}
