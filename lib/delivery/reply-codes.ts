// Reply codes: every SMS, call or WhatsApp message that can be answered gets a short code for the number it went to,
// mapping (number, code) to the alerts it named and the person paged. A reply acts only through the code of the
// number it came from, so nobody can act on an alert they were not paged about. Rules: docs/notifications.md,
// "Inbound replies".
import { nowMs } from '../clock.ts';
import { queryPrefix, getItem, incrementCounter, transact } from '../db/items.ts';
import { replyCodeKey, replyCodesPk, replyCodeSequenceKey, REPLY_CODE_SK_PREFIX } from '../db/keys.ts';
import { putOver } from '../db/writes.ts';
import type { ReplyOwner } from '../channel-adapters/port.ts';

export type { ReplyOwner };

/** The digit a person replies or presses, and what it does. */
export const REPLY_DIGITS = { '4': 'acknowledge', '6': 'resolve' } as const;
export type ReplyAction = (typeof REPLY_DIGITS)[keyof typeof REPLY_DIGITS];

/** How long a code answers: a day covers any page someone still acts on from their phone. */
export const REPLY_CODE_LIFETIME_MS = 24 * 3_600_000;
/** Codes are two letters, handed out in turn per number: 676 before one comes back, far more than a day's pages. */
const CODE_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const CODE_COUNT = CODE_LETTERS.length ** 2;

/** The code of a number's n-th message (n from 1): aa, ab, …, zz, then aa again. Pure. */
export function codeOf(sequence: number): string {
  const index = (((sequence - 1) % CODE_COUNT) + CODE_COUNT) % CODE_COUNT;
  return CODE_LETTERS[Math.floor(index / CODE_LETTERS.length)]! + CODE_LETTERS[index % CODE_LETTERS.length]!;
}

export type ParsedReply = { readonly ok: true; readonly action: ReplyAction; readonly code: string | undefined } | { readonly ok: false };

/**
 * What a reply asks: "4" or "6", optionally followed by a code ("4ab", "6 AB"); spaces and case do not matter.
 * Anything else is not a command. Pure.
 */
export function parseReply(body: string): ParsedReply {
  const match = /^\s*([46])\s*([a-z]{2})?\s*[.!]?\s*$/i.exec(body);
  if (!match) return { ok: false };
  return { ok: true, action: REPLY_DIGITS[match[1] as keyof typeof REPLY_DIGITS], code: match[2]?.toLowerCase() };
}

/** What a code stands for: the person paged and the alerts the message named (several for a throttle bundle). */
export interface ReplyTarget {
  readonly phone: string;
  readonly code: string;
  readonly accountId: string;
  readonly accountUserId: string;
  readonly owners: readonly ReplyOwner[];
  readonly channel: string;
  /** Epoch ms. */
  readonly issuedAt: number;
}

type ReplyCodeItem = ReplyTarget & { pk: string; sk: string; ttl: number };

const isLive = (target: Pick<ReplyTarget, 'issuedAt'>, now: number) => target.issuedAt > now - REPLY_CODE_LIFETIME_MS && target.issuedAt <= now;

/**
 * Hands out the number's next code for a message and records what it stands for (written before the message is
 * sent, so a fast reply finds it). `alone` tells whether it is the number's only live code, so the message can
 * ask for a bare "4".
 */
export async function issueReplyCode(
  target: Omit<ReplyTarget, 'code' | 'issuedAt'>,
  now: number = nowMs(),
): Promise<{ code: string; alone: boolean }> {
  const sequence = await incrementCounter(replyCodeSequenceKey(target.phone), 'sequence');
  const code = codeOf(sequence);
  const item: ReplyCodeItem = {
    ...replyCodeKey(target.phone, code),
    ...target,
    code,
    issuedAt: now,
    ttl: Math.ceil((now + REPLY_CODE_LIFETIME_MS) / 1000) + 3600,
  };
  await transact([putOver(item)]);
  const others = (await liveCodes(target.phone, now)).filter((t) => t.code !== code);
  return { code, alone: others.length === 0 };
}

const targetOf = ({ pk: _pk, sk: _sk, ttl: _ttl, ...target }: ReplyCodeItem): ReplyTarget => target;

/** The number's codes still answering at `now`, newest first. */
export async function liveCodes(phone: string, now: number = nowMs()): Promise<ReplyTarget[]> {
  const items = await queryPrefix<ReplyCodeItem>(replyCodesPk(phone), REPLY_CODE_SK_PREFIX);
  return items
    .map(targetOf)
    .filter((t) => isLive(t, now))
    .sort((a, b) => b.issuedAt - a.issuedAt);
}

export type ReplyLookup =
  | { readonly kind: 'found'; readonly target: ReplyTarget }
  | { readonly kind: 'ambiguous'; readonly choices: readonly ReplyTarget[] }
  | { readonly kind: 'unknown' };

/**
 * The target of a reply from `phone`: the code's, when it gave one that is live for that number; with no code, the
 * number's only live code, or the choices when it has several.
 */
export async function findReplyTarget(phone: string, code: string | undefined, now: number = nowMs()): Promise<ReplyLookup> {
  if (code !== undefined) {
    const item = await getItem<ReplyCodeItem>(replyCodeKey(phone, code));
    return item && isLive(item, now) ? { kind: 'found', target: targetOf(item) } : { kind: 'unknown' };
  }
  const live = await liveCodes(phone, now);
  if (live.length === 1) return { kind: 'found', target: live[0]! };
  return live.length === 0 ? { kind: 'unknown' } : { kind: 'ambiguous', choices: live };
}
