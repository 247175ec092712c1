// The value schemas and choices the configuration variables are read with (docs/configuration.md): what a port, a URL,
// a mailbox or a key must look like, and the providers and levels a variable may name. Data; lib/config.ts parses.
import { isIP } from 'node:net';
import { z } from 'zod';
import { MAX_TIME_SCALE } from './limits.ts';

/** Shortest HARK_API_KEY accepted: as hard to guess as a generated key. */
export const MIN_API_KEY_LENGTH = 32;
export const MAX_API_KEY_LENGTH = 512;

/** Who sends SMS and places calls (docs/notifications.md, "SMS and voice"). */
export const SMS_PROVIDERS = ['twilio', 'end-user-messaging'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
/** How much `npm start` prints (HARK_LOG_LEVEL), most first (docs/configuration.md, "What npm start prints"). */
export const TERMINAL_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type TerminalLevel = (typeof TERMINAL_LEVELS)[number];

export const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const httpUrl = z.url({ protocol: /^https?$/ });
export const EMAIL_PROVIDERS = ['smtp', 'ses'] as const;
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];
/** An address, or `Name <address>`: what a From header holds. */
export const mailbox = z.string().regex(/^(?:[^<>\r\n]{1,100} <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/);
/** Shortest HARK_LINK_SECRET accepted: 256 bits of a base64 key. */
export const MIN_LINK_SECRET_LENGTH = 32;
export const linkSecret = z
  .string()
  .min(MIN_LINK_SECRET_LENGTH)
  .max(MAX_API_KEY_LENGTH)
  .regex(/^[\x21-\x7e]+$/);
export const hostName = z.string().refine((value) => isIP(value) !== 0 || /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(value));
/** AWS's own variables: an empty value means unset, as the AWS SDK and Powertools read them. */
export const emptyIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export interface Variable {
  schema: z.ZodType;
  /** Completes "<NAME> must be …" in the one-line error. */
  accepts: string;
  /** Shown in the configuration table (README, docs/configuration.md). */
  default: string;
  meaning: string;
  /** Never echoed back: the error says how long the value was instead. */
  secret?: boolean;
}

export type TimeScaleResult = { readonly ok: true; readonly scale: number } | { readonly ok: false; readonly message: string };

/**
 * HARK_TIME_SCALE as the runtime reads it: unset or empty → 1; otherwise a whole number from 1 to 3600. The
 * deployed stack accepts only 1 (faster time is for the local runtime and tests).
 */
export function parseTimeScale(raw: string | undefined, deployed: boolean): TimeScaleResult {
  const text = raw?.trim() ?? '';
  if (text === '') return { ok: true, scale: 1 };
  const scale = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(scale) || scale < 1 || scale > MAX_TIME_SCALE) {
    return { ok: false, message: `HARK_TIME_SCALE must be a whole number from 1 to ${MAX_TIME_SCALE} (got "${text}")` };
  }
  if (deployed && scale !== 1) {
    return { ok: false, message: `HARK_TIME_SCALE must be 1 in a deployed stack (got ${scale}); faster time is for the local runtime only` };
  }
  return { ok: true, scale };
}
