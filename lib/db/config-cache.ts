// A create's configuration reads (teams, policies, schedule events, time off, people, routers, windows…) served from a
// short per-process memory, so a storm of creates reads an account's configuration once per HARK_CONFIG_CACHE_MS
// instead of once per create. Any write through the document client that touches a configuration item forgets the
// account's cached reads at once (the middleware below), so this process always sees its own changes; other processes
// see them within the cache's time. What is cached and what never is: docs/decisions/0024-configuration-reads-in-a-storm.md.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { CONFIG_CACHE_ENTRIES } from '../limits.ts';
import { TtlCache } from '../ttl-cache.ts';
import type { EntityType } from './keys.ts';

/**
 * Which stored entities are configuration: a write of one forgets its account's cached reads. Alerts, comments,
 * broadcasts and outbox messages are written by creates and deliveries themselves and are never cached. A new entity
 * type must be placed here (the type checker asks).
 */
export const CONFIGURATION_KINDS: Readonly<Record<EntityType, boolean>> = {
  SCHEDULE: true,
  EVENT: true,
  TEAM: true,
  ACCOUNT_USER: true,
  ESCALATION_POLICY: true,
  ROUTER: true,
  NOTIFICATION_RULE: true,
  MAINTENANCE_WINDOW: true,
  INTEGRATION: true,
  OUTGOING_WEBHOOK: true,
  TIME_OFF: true,
  COMMENT: false,
  OUTBOX: false,
  ALERT: false,
  BROADCAST: false,
};

export const isConfigurationKind = (kind: string): boolean => (CONFIGURATION_KINDS as Record<string, boolean | undefined>)[kind] === true;

/** What a write touched, for the cache: nothing cached, one account's configuration, or a person (read by every account). */
export type WriteScope = { kind: 'none' } | { kind: 'account'; accountId: string } | { kind: 'all' };

/** A key as the client carries it: plain strings, or marshalled `{ S: … }` (both reach the middleware). */
const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const s = (value as { S?: unknown } | undefined)?.S;
  return typeof s === 'string' ? s : '';
};

/**
 * The scope of one written key. Pure. Configuration entities live in the account partition itself (`A#<account>`,
 * `<KIND>#<id>`); an alert's own items (`A#<account>#AL#…`, a `TEAM#` index item among them) are not configuration.
 * A person (`USER#<id>`) is read by every account they belong to.
 */
export function scopeOfKey(key: { pk?: unknown; sk?: unknown } | undefined): WriteScope {
  const pk = text(key?.pk);
  const sk = text(key?.sk);
  if (pk.startsWith('USER#') && sk === 'USER') return { kind: 'all' };
  const account = /^A#([^#]+)$/.exec(pk);
  if (account && isConfigurationKind(sk.split('#')[0]!)) return { kind: 'account', accountId: account[1]! };
  return { kind: 'none' };
}

type Written = { pk?: unknown; sk?: unknown } | undefined;
interface TransactEntry {
  Put?: { Item?: Written };
  Update?: { Key?: Written };
  Delete?: { Key?: Written };
}
interface BatchEntry {
  PutRequest?: { Item?: Written };
  DeleteRequest?: { Key?: Written };
}
/** The parts of a command's input that name what it writes. */
export interface WriteInput {
  Item?: Written;
  Key?: Written;
  TransactItems?: readonly TransactEntry[];
  RequestItems?: Record<string, readonly BatchEntry[]>;
}

/** The keys a command writes (none for reads; a transaction's condition checks write nothing). Pure. */
export function writtenKeys(commandName: string, input: WriteInput): Written[] {
  switch (commandName.replace(/Command$/, '').replace(/Item$|Items$/, '')) {
    case 'Put':
      return [input.Item];
    case 'Update':
    case 'Delete':
      return [input.Key];
    case 'TransactWrite':
      return (input.TransactItems ?? []).flatMap((i) => (i.Put ? [i.Put.Item] : i.Update ? [i.Update.Key] : i.Delete ? [i.Delete.Key] : []));
    case 'BatchWrite':
      return Object.values(input.RequestItems ?? {})
        .flat()
        .map((r) => r.PutRequest?.Item ?? r.DeleteRequest?.Key);
    default:
      return [];
  }
}

export interface ConfigCacheOptions {
  /** How long a read is served from memory; 0: never. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/** The cached reads of one process, keyed by account; lib/ttl-cache.ts keeps, expires and bounds them. */
export class ConfigCache {
  readonly ttlMs: number;
  readonly #reads: TtlCache<string, unknown>;

  constructor(options: ConfigCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.#reads = new TtlCache<string, unknown>({ ttlMs: options.ttlMs, maxEntries: options.maxEntries, ...(options.now ? { now: options.now } : {}) });
  }

  /** The account's read named `what`: remembered, or loaded (and kept unless a write forgot the account meanwhile). */
  read<T>(accountId: string, what: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    return this.#reads.get(`${accountId}\u0000${what}`, load) as Promise<T>;
  }

  /** Forgets what a write touched, at once and for reads under way. */
  forget(scope: WriteScope): void {
    if (scope.kind === 'all') this.#reads.clear();
    else if (scope.kind === 'account') {
      const prefix = `${scope.accountId}\u0000`;
      this.#reads.forget((_, key) => key.startsWith(prefix));
    }
  }

  /** Forgets what a command wrote (called once it has been answered, whether it succeeded or not). */
  forgetWritten(commandName: string, input: WriteInput): void {
    const scopes = writtenKeys(commandName, input).map(scopeOfKey);
    if (scopes.some((s) => s.kind === 'all')) return this.forget({ kind: 'all' });
    for (const accountId of new Set(scopes.flatMap((s) => (s.kind === 'account' ? [s.accountId] : [])))) this.forget({ kind: 'account', accountId });
  }

  get size(): number {
    return this.#reads.size;
  }
}

let current: ConfigCache | undefined;

/** Whether reads are kept at all (HARK_CONFIG_CACHE_MS > 0): reading ahead to warm the cache is worth it only then. */
export const configCacheOn = (): boolean => config().configCacheMs > 0;

/** This process's cache, built with HARK_CONFIG_CACHE_MS (built again if the setting changed). */
export function configCache(): ConfigCache {
  const ttlMs = config().configCacheMs;
  if (current?.ttlMs !== ttlMs) current = new ConfigCache({ ttlMs, maxEntries: CONFIG_CACHE_ENTRIES });
  return current;
}

/**
 * Installs the forgetting on the process's document client: every command that writes a configuration item forgets
 * the cached reads it could have changed once DynamoDB has answered (a load that ran meanwhile is not kept either).
 */
export function forgetConfigurationOnWrite(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } finally {
        // After the answer, success or not: a timed-out write may still have landed.
        current?.forgetWritten(context.commandName ?? '', args.input as WriteInput);
      }
    },
    { step: 'initialize', name: 'harkForgetConfiguration' },
  );
}
