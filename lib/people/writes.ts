// Splitting the long list of writes a people change makes (new versions of teams, events, routers, ...)
// into transactions of at most 100 items, each with one net count change per entity type.
import { countChange, type EntityItem, type TransactItem } from '../db/repository.ts';

/** DynamoDB's limit of items per transaction. */
export const TRANSACTION_LIMIT = 100;

/**
 * Writes that must go to the same transaction, plus entity deletions whose count change is shared: a transaction
 * may change one item only once, so each batch carries one net count change per entity type.
 */
export interface WriteUnit {
  writes: TransactItem[];
  /** Set when the unit deletes an entity: its account and type, for the batch's net count change. */
  deleted?: Pick<EntityItem<unknown>, 'accountId' | 'type'>;
}

/** Groups units into transactions of at most 100 items, count changes included. */
export function batchUnits(units: readonly WriteUnit[]): TransactItem[][] {
  const batches: TransactItem[][] = [];
  let writes: TransactItem[] = [];
  let counts = new Map<string, { accountId: string; type: EntityItem<unknown>['type']; n: number }>();
  const flush = () => {
    if (writes.length === 0) return;
    batches.push([...writes, ...[...counts.values()].map((c) => countChange(c.accountId, c.type, -c.n))]);
    writes = [];
    counts = new Map();
  };
  for (const unit of units) {
    const key = unit.deleted ? `${unit.deleted.accountId}#${unit.deleted.type}` : undefined;
    const newCount = key !== undefined && !counts.has(key) ? 1 : 0;
    if (writes.length + unit.writes.length + counts.size + newCount > TRANSACTION_LIMIT) flush();
    writes.push(...unit.writes);
    if (unit.deleted && key !== undefined) {
      const entry = counts.get(key) ?? { accountId: unit.deleted.accountId, type: unit.deleted.type, n: 0 };
      entry.n += 1;
      counts.set(key, entry);
    }
  }
  flush();
  return batches;
}
