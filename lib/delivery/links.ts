// Signed action links: the acknowledge / resolve links (and broadcast answers) a message carries. A token names
// who may do what to which object until when; it is an HMAC-SHA256 over those claims with the link key, named by
// a key id so a rotated key still verifies the links it signed. Pure but for reading the configuration.
// Rules: docs/notifications.md, "Signed links".
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { config, publicBaseUrlOf } from '../config.ts';
import { ACTION_LINK_LIFETIME_MS } from '../limits.ts';
import { DELIVERY_CHANNELS, type DeliveryChannel, type MessageAction } from '../channel-adapters/port.ts';

export const LINK_OWNER_TYPES = ['alert', 'broadcast'] as const;
export type LinkOwnerType = (typeof LINK_OWNER_TYPES)[number];

/** What a verified token allows: one account user doing one action to one object, until `expiresAt`. */
export interface ActionClaims {
  readonly ownerType: LinkOwnerType;
  readonly ownerId: string;
  readonly accountId: string;
  readonly accountUserId: string;
  readonly action: string;
  /** The owner's epoch the link was made in (a broadcast's round), or null when any epoch will do. */
  readonly epoch: number | null;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The channel of the message that carried the link (logged with the action), or null when not said. */
  readonly channel: DeliveryChannel | null;
}

/** The keys links are signed and verified with: the current one signs; both verify. */
export interface LinkKeys {
  readonly current: string;
  readonly previous?: string | undefined;
}

export type TokenCheck =
  | { readonly ok: true; readonly claims: ActionClaims }
  | { readonly ok: false; readonly reason: 'malformed' | 'unknown_key' | 'bad_signature' | 'expired'; readonly claims?: ActionClaims };

const TOKEN_VERSION = 1;
/** The path of the confirmation page under the public URL (lib/http/routes.ts). */
const ACTIONS_PATH = '/actions';

/** A key's id: a short hash of the key, so a token says which key signed it without revealing anything of it. */
export const keyIdOf = (key: string): string => createHash('sha256').update(`hark-link-key:${key}`, 'utf8').digest('base64url').slice(0, 8);

const mac = (key: string, signed: string): Buffer => createHmac('sha256', key).update(signed, 'utf8').digest();

/** The wire form of the claims: short field names keep links short. */
interface WireClaims {
  v: number;
  k: string;
  t: LinkOwnerType;
  o: string;
  a: string;
  u: string;
  x: string;
  e: number | null;
  exp: number;
  c: DeliveryChannel | null;
}

/** Signs `claims` with `key`: `<base64url claims>.<base64url mac>`. */
export function signActionToken(claims: ActionClaims, key: string): string {
  const wire: WireClaims = {
    v: TOKEN_VERSION,
    k: keyIdOf(key),
    t: claims.ownerType,
    o: claims.ownerId,
    a: claims.accountId,
    u: claims.accountUserId,
    x: claims.action,
    e: claims.epoch,
    exp: Math.floor(claims.expiresAt / 1000),
    c: claims.channel,
  };
  const payload = Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 64;

function parseWire(payload: string): WireClaims | undefined {
  let wire: unknown;
  try {
    wire = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof wire !== 'object' || wire === null) return undefined;
  const w = wire as Record<string, unknown>;
  const ownerTypeOk = LINK_OWNER_TYPES.includes(w.t as LinkOwnerType);
  const channelOk = w.c === null || DELIVERY_CHANNELS.includes(w.c as DeliveryChannel);
  const epochOk = w.e === null || (Number.isSafeInteger(w.e) && (w.e as number) >= 0);
  const ok = w.v === TOKEN_VERSION && isText(w.k) && ownerTypeOk && isText(w.o) && isText(w.a) && isText(w.u) && isText(w.x) && epochOk && channelOk && Number.isSafeInteger(w.exp);
  return ok ? (w as unknown as WireClaims) : undefined;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,1024}\.[A-Za-z0-9_-]{43}$/;

/**
 * Checks a token: its shape, the key that signed it (current or previous), the MAC in constant time, then its
 * expiry. An expired token's claims come back with the refusal (the MAC held), so the page can say which alert.
 */
export function verifyActionToken(token: string, now: number, keys: LinkKeys | undefined = linkKeys()): TokenCheck {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' };
  const [payload, signature] = token.split('.') as [string, string];
  const wire = parseWire(payload);
  if (!wire) return { ok: false, reason: 'malformed' };
  const key = [keys?.current, keys?.previous].find((k): k is string => k !== undefined && keyIdOf(k) === wire.k);
  if (!key) return { ok: false, reason: 'unknown_key' };
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  const claims: ActionClaims = {
    ownerType: wire.t,
    ownerId: wire.o,
    accountId: wire.a,
    accountUserId: wire.u,
    action: wire.x,
    epoch: wire.e,
    expiresAt: wire.exp * 1000,
    channel: wire.c,
  };
  if (now >= claims.expiresAt) return { ok: false, reason: 'expired', claims };
  return { ok: true, claims };
}

/** The configured link keys, or undefined when no key is set (links are then left out of messages). */
export function linkKeys(): LinkKeys | undefined {
  const { secret, previousSecret } = config().links;
  return secret ? { current: secret, previous: previousSecret } : undefined;
}

/** The base of the links: HARK_PUBLIC_URL without a trailing slash, or undefined when unset. */
export function publicBaseUrl(): string | undefined {
  return publicBaseUrlOf(config());
}

export interface ActionLinkRequest {
  readonly ownerType: LinkOwnerType;
  readonly ownerId: string;
  readonly accountId: string;
  readonly accountUserId: string;
  readonly actions: readonly { readonly action: string; readonly label: string }[];
  readonly now: number;
  /** The channel the message goes out on: the action is logged with it. */
  readonly channel?: DeliveryChannel;
  /** Binds the links to the owner's current epoch (a broadcast round); alerts leave it out. */
  readonly epoch?: number;
  /** Defaults to the configured keys and base URL; tests and callers with their own pass them. */
  readonly keys?: LinkKeys | undefined;
  readonly baseUrl?: string | undefined;
}

/**
 * One signed link per action, each opening the confirmation page. No link key or no public URL configured →
 * no links: the message still goes out, and the person acts in the app instead.
 */
export function actionLinks(request: ActionLinkRequest): MessageAction[] {
  const keys = request.keys ?? linkKeys();
  const base = request.baseUrl?.replace(/\/+$/, '') ?? publicBaseUrl();
  if (!keys || !base) return [];
  const expiresAt = request.now + ACTION_LINK_LIFETIME_MS;
  return request.actions.map(({ action, label }) => {
    const token = signActionToken(
      {
        ownerType: request.ownerType,
        ownerId: request.ownerId,
        accountId: request.accountId,
        accountUserId: request.accountUserId,
        action,
        epoch: request.epoch ?? null,
        expiresAt,
        channel: request.channel ?? null,
      },
      keys.current,
    );
    return { action, label, url: `${base}${ACTIONS_PATH}/${token}` };
  });
}

/** The token of a link made by actionLinks (the last path segment), for adapters that post it back themselves. */
export const tokenOfLink = (url: string): string => new URL(url).pathname.split('/').pop() ?? '';
