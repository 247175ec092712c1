import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { decodeTime, ulid } from 'ulid';
import type { EntityType } from './entity-types.ts';
import { MAX_PATH_ID_LENGTH } from './limits.ts';

/** Friendly per-model prefixes of prefix_id (docs/api.md, "Common fields"); clients validate `<prefix>_[A-Za-z0-9]{10,14}`. */
export const PREFIXES: Record<EntityType | 'PHONE' | 'EMAIL' | 'LAYER' | 'ATTENDEE' | 'EXCEPTION' | 'ACCOUNT' | 'BROADCAST_RESPONSE', string> = {
  SCHEDULE: 'sch',
  EVENT: 'evt',
  TEAM: 'tem',
  ACCOUNT_USER: 'usr',
  ESCALATION_POLICY: 'esc',
  ROUTER: 'rtr',
  NOTIFICATION_RULE: 'ntr',
  MAINTENANCE_WINDOW: 'mw',
  INTEGRATION: 'int',
  COMMENT: 'cmt',
  OUTBOX: 'obx',
  ALERT: 'alt',
  BROADCAST: 'brd',
  OUTGOING_WEBHOOK: 'owh',
  TIME_OFF: 'tof',
  PHONE: 'ph',
  EMAIL: 'em',
  LAYER: 'lyr',
  ATTENDEE: 'att',
  EXCEPTION: 'exc',
  ACCOUNT: 'acc',
  BROADCAST_RESPONSE: 'brr',
};

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const PREFIX_ID_PATTERN = /^[a-z]{2,4}_[A-Za-z0-9]{10,14}$/;

/** A ULID: its first 10 characters are its time in ms, so ids sort by creation time (docs/lists.md, Cost). */
export const newId = (atMs?: number): string => ulid(atMs);

/** The time (ms) a ULID was made at; undefined for text that is not a ULID. */
export function idTimeMs(id: string): number | undefined {
  try {
    return decodeTime(id);
  } catch {
    return undefined;
  }
}

export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

export const newPrefixId = (kind: keyof typeof PREFIXES): string => `${PREFIXES[kind]}_${randomAlphanumeric(12)}`;

export const looksLikePrefixId = (value: string): boolean => PREFIX_ID_PATTERN.test(value);

const ID_SHAPE = new RegExp(`^[A-Za-z0-9_]{1,${MAX_PATH_ID_LENGTH}}$`);

/**
 * What an id in a path or a body can be (docs/architecture.md, "Ids in paths"): an id (ULID), a prefix id or a tiny
 * id, so 1–64 letters, digits and `_`. Anything else names no object and is refused before it reaches storage,
 * whose key limits an over-long value would break.
 */
export const couldBeId = (value: string): boolean => ID_SHAPE.test(value);

/** API keys and webhook tokens are long random secrets, so a fast hash is safe to store; only the hash is kept. */
export const newApiKey = (): string => `hark_${randomBytes(24).toString('base64url')}`;
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export function secretMatches(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** Passwords are low-entropy, so they get a salted, slow hash (scrypt). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const derived = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${derived.toString('base64url')}`;
}

export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64url'), 32);
  const expected = Buffer.from(hash, 'base64url');
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/** A strong generated password: 20 characters from letters, digits and symbols. */
export function generatePassword(): string {
  const symbols = '!@#$%^&*-_=+';
  const pool = ALPHANUMERIC + symbols;
  let out = '';
  for (let i = 0; i < 20; i++) out += pool[randomInt(pool.length)];
  return out;
}
