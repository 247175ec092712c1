// Reading the first items of an entity collection in key order, for lists whose default order is the key
// order (docs/lists.md, Cost): sort keys are `<TYPE>#<ULID>`, and an entity's created_at is its id's time, so
// descending keys are newest first. Costs what the page costs, not what the collection does.

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { documentClient } from './client.ts';
import { accountPk, entityPrefix, type EntityType } from './keys.ts';
import { countOf, listEntities, type EntityItem } from './repository.ts';

/** Up to `count` entities of the account's collection, newest (or oldest) first; strongly consistent. */
export async function firstEntities<D>(type: EntityType, accountId: string, count: number, newestFirst: boolean): Promise<EntityItem<D>[]> {
  const items: EntityItem<D>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': accountPk(accountId), ':prefix': entityPrefix(type) },
        ScanIndexForward: !newestFirst,
        Limit: count - items.length,
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((page.Items ?? []) as EntityItem<D>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < count);
  return items;
}

/**
 * A list source (lib/list-engine/source.ts) over an account's collection of one type: the whole collection,
 * or the first items in key order with the count from the collection's counter, read in parallel.
 * `render` turns the stored items into the API objects (it sees only the items of the page on the fast path).
 */
export function entityCollection<D, T>(type: EntityType, accountId: string, render: (items: EntityItem<D>[]) => T[] | Promise<T[]>) {
  return {
    all: async () => render(await listEntities<D>(type, accountId)),
    firstInKeyOrder: async (count: number, newestFirst: boolean) => {
      const [items, total] = await Promise.all([firstEntities<D>(type, accountId, count, newestFirst), countOf(accountId, type)]);
      return { objects: await render(items), total };
    },
  };
}
