// Dedup keys: a create sharing a dedup key with a non-resolved alert of the account folds into that alert
// (dedup_count + 1, a `deduplicated` log entry, nobody paged) instead of storing a new one. Each key is claimed by
// the alert holding it (a claim item per key); a claim of a resolved or deleted alert is stale and is taken over
// by the next create with the key. Rules: docs/alerts.md, "Dedup keys".
import { isConditionFailure } from '../db/conditions.ts';
import { getItems, transact } from '../db/items.ts';
import { dedupClaimKey } from '../db/keys.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { nextId } from './effects.ts';
import { dedupCountWrite, logItem, type AlertItem } from './items.ts';
import { findAlert } from './store.ts';

export interface DedupClaim {
  pk: string;
  sk: string;
  type: 'ALERT_DEDUP';
  accountId: string;
  alertId: string;
  dedupKey: string;
}

/** What the claims of a create's keys say: an alert to fold into, or which stale claims the new alert takes over. */
export type DedupLookup =
  | { kind: 'duplicate'; target: AlertItem; dedupKey: string }
  | { kind: 'new'; staleClaims: ReadonlyMap<string, string> };

/** Whether an alert still takes duplicates: every status but `resolved`. */
export const takesDuplicates = (alert: Pick<AlertItem, 'data'>): boolean => alert.data.status !== 'resolved';

/**
 * Reads the claims of the keys (one BatchGetItem) and the alerts they name: the first key (in the order given)
 * whose alert takes duplicates decides; otherwise every claim found is stale.
 */
export async function lookUpDedupKeys(accountId: string, keys: readonly string[]): Promise<DedupLookup> {
  if (keys.length === 0) return { kind: 'new', staleClaims: new Map() };
  const claims = await getItems<DedupClaim>(keys.map((key) => dedupClaimKey(accountId, key)));
  const byKey = new Map(claims.map((c) => [c.dedupKey, c]));
  const stale = new Map<string, string>();
  for (const key of keys) {
    const claim = byKey.get(key);
    if (!claim) continue;
    const alert = await findAlert(accountId, claim.alertId);
    if (alert && takesDuplicates(alert)) return { kind: 'duplicate', target: alert, dedupKey: key };
    stale.set(key, claim.alertId);
  }
  return { kind: 'new', staleClaims: stale };
}

/**
 * The new alert claims each of its keys: only if nobody claims it, or the claim is still the stale one read. A
 * concurrent create that claimed the key first fails this transaction, and the create reads again (and folds in).
 */
export function claimWrites(alert: Pick<AlertItem, 'accountId' | 'id' | 'data'>, staleClaims: ReadonlyMap<string, string>): TransactItem[] {
  return alert.data.dedup_keys.map((dedupKey): TransactItem => {
    const claim: DedupClaim = { ...dedupClaimKey(alert.accountId, dedupKey), type: 'ALERT_DEDUP', accountId: alert.accountId, alertId: alert.id, dedupKey };
    const stale = staleClaims.get(dedupKey);
    return {
      Put: {
        Item: { ...claim },
        ConditionExpression: stale === undefined ? 'attribute_not_exists(pk)' : 'attribute_not_exists(pk) OR alertId = :stale',
        ...(stale === undefined ? {} : { ExpressionAttributeValues: { ':stale': stale } }),
      },
    };
  });
}

/**
 * Folding a duplicate into `target`: its dedup_count + 1 (only while it exists and is not resolved; otherwise the
 * create reads again) and its `deduplicated` log entry, in one transaction.
 */
export function duplicateWrites(target: AlertItem, dedupKey: string, from: string, now: number): TransactItem[] {
  const at = new Date(now).toISOString();
  const log = logItem(target.accountId, target.id, nextId(now), at, {
    event: 'deduplicated',
    message: `A new alert from ${from} shares the dedup key "${dedupKey}" with this alert: dedup_count + 1, nobody is paged.`,
  });
  return [
    dedupCountWrite(target, at),
    putNew(log),
  ];
}

/**
 * The claims a PUT adds for keys new to the alert: a key nobody holds, or whose claim is stale, is claimed (with the
 * same conditions as a create); a key another non-resolved alert holds stays that alert's.
 */
export async function claimsForAddedKeys(alert: Pick<AlertItem, 'accountId' | 'id' | 'data'>, added: readonly string[]): Promise<TransactItem[]> {
  if (added.length === 0) return [];
  const claims = await getItems<DedupClaim>(added.map((key) => dedupClaimKey(alert.accountId, key)));
  const byKey = new Map(claims.map((c) => [c.dedupKey, c]));
  const stale = new Map<string, string>();
  const free: string[] = [];
  for (const key of added) {
    const claim = byKey.get(key);
    if (!claim) free.push(key);
    else if (claim.alertId !== alert.id) {
      const holder = await findAlert(alert.accountId, claim.alertId);
      if (holder && takesDuplicates(holder)) continue;
      stale.set(key, claim.alertId);
      free.push(key);
    }
  }
  return claimWrites({ ...alert, data: { ...alert.data, dedup_keys: free } }, stale);
}

/** On delete (or keys removed by a PUT): the alert's claims go, each only while it still names the alert (a later alert's claim stays). */
export async function releaseClaims(alert: Pick<AlertItem, 'accountId' | 'id' | 'data'>, keys: readonly string[] = alert.data.dedup_keys): Promise<void> {
  await Promise.all(
    keys.map(async (dedupKey) => {
      try {
        await transact([{ Delete: { Key: dedupClaimKey(alert.accountId, dedupKey), ConditionExpression: 'alertId = :id', ExpressionAttributeValues: { ':id': alert.id } } }]);
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }),
  );
}
