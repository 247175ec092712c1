// Reading outbox messages: since sharding a message lives in one of the account's outbox partitions (its id's
// shard), older ones in the account partition; a read by id or prefix id tries the shard first and falls back, and
// a list merges every partition (docs/decisions/0027-sharded-outbox.md).

import { notFound } from '../errors.ts';
import { couldBeId, looksLikePrefixId } from '../ids.ts';
import { getItem } from '../db/items.ts';
import { accountPk, entityPrefix, outboxAliasKey, outboxKey, outboxPartitions, prefixAliasSk, unshardedOutboxKey } from '../db/keys.ts';
import { entityPartitionReaders } from '../db/pages.ts';
import { countOf } from '../db/repository.ts';
import { sourceOverPartitions } from '../list-engine/index.ts';
import type { OutboxData, OutboxItem } from './outbox.ts';

type Key = { pk: string; sk: string };

/** The first of `keys` that holds an item, read one after another (the usual case: the first). */
async function firstFound<T extends object>(keys: readonly Key[]): Promise<T | undefined> {
  for (const key of keys) {
    const item = await getItem<T>(key);
    if (item) return item;
  }
  return undefined;
}

/** The keys the message could be at, most likely first: by id its shard then the account partition; by prefix id through the alias found. */
async function candidateKeys(accountId: string, idOrPrefixId: string): Promise<Key[]> {
  if (!looksLikePrefixId(idOrPrefixId)) return [outboxKey(accountId, idOrPrefixId), unshardedOutboxKey(accountId, idOrPrefixId)];
  const sharded = await getItem<{ targetSk?: string }>(outboxAliasKey(accountId, idOrPrefixId));
  const alias = sharded ?? (await getItem<{ targetSk?: string }>({ pk: accountPk(accountId), sk: prefixAliasSk(idOrPrefixId) }));
  const target = alias?.targetSk;
  if (!target?.startsWith(entityPrefix('OUTBOX'))) return [];
  const id = target.slice(entityPrefix('OUTBOX').length);
  // An alias in a shard names a sharded message; one in the account partition a message written before sharding.
  return [sharded ? outboxKey(accountId, id) : unshardedOutboxKey(accountId, id)];
}

/** An outbox message of this account by id or prefix id, wherever it was written; another account's is not found. */
export async function findOutboxMessage(accountId: string, idOrPrefixId: string): Promise<OutboxItem | undefined> {
  if (!couldBeId(idOrPrefixId)) return undefined;
  const item = await firstFound<OutboxItem>(await candidateKeys(accountId, idOrPrefixId));
  return item?.type === 'OUTBOX' && item.accountId === accountId ? item : undefined;
}

export async function getOutboxMessage(accountId: string, idOrPrefixId: string): Promise<OutboxItem> {
  const item = await findOutboxMessage(accountId, idOrPrefixId);
  if (!item) throw notFound('Outbox message');
  return item;
}

/**
 * GET /outbox's source: every outbox partition of the account merged newest first by sort key (`OUTBOX#<ULID>`, so
 * by created_at). total_count is the outbox counter, as before sharding (docs/lists.md, Cost).
 */
export const outboxListSource = <T>(accountId: string, render: (item: OutboxItem) => T) =>
  sourceOverPartitions(
    entityPartitionReaders<OutboxData>('OUTBOX', outboxPartitions(accountId)),
    (item) => item.sk,
    () => countOf(accountId, 'OUTBOX'),
    (items) => items.map(render),
  );
