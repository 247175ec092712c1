// DELETE /alerts/:id: the alert leaves every list at once, then the rest of its partition goes (docs/alerts.md).
import { getItems } from '../db/items.ts';
import { commentThreadOf } from '../comments/thread.ts';
import { outboxKeyOf } from '../db/keys.ts';
import { type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { aliasDelete, batchUnits, deleteAny, deletionUnit, type TransactItem, type WriteUnit } from '../db/writes.ts';
import { transact } from '../db/items.ts';
import { timersFirst } from '../timers/index.ts';
import { releaseClaims } from './dedup.ts';
import { alertCountChanges, alertCounts, aliasOf, type AlertNotificationItem } from './items.ts';
import { getAlertItem, partitionOf } from './store.ts';
import type { AlertActor } from './schema.ts';

/**
 * DELETE /alerts/:id: first the alert item (only as read: a concurrent change makes it read again), its alias and
 * its counts in one transaction, so it leaves every list at once; then the rest of its partition (logs,
 * notification records, team and thirdparty index items, timers), its comments with their replies and its outbox
 * messages, in transactions of at most 100 writes, and its dedup key claims. A
 * crash between them leaves only unreachable items, which a repeated delete cannot reach either; a timer left
 * behind finds no alert and does nothing.
 */
export async function deleteAlert(actor: AlertActor, idOrPrefixId: string): Promise<void> {
  const alert = await retryOnConflict(
    async () => {
      const current = await getAlertItem(actor.accountId, idOrPrefixId);
      const first: TransactItem[] = [
        { Delete: { Key: { pk: current.pk, sk: current.sk }, ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': current.version } } },
        deleteAny(aliasOf(current)),
        ...alertCountChanges(current.accountId, alertCounts(current, -1)),
      ];
      await transact(first);
      return current;
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Alert') },
  );
  const [children, comments] = await Promise.all([partitionOf(alert.accountId, alert.id), commentThreadOf(alert.accountId, { type: 'Alert', id: alert.id })]);
  // Each record says where its outbox message is: in a shard, or (written before sharding) in the account partition.
  const outboxKeys = children
    .filter((item) => item.type === 'ALERT_NOTIFICATION')
    .map((item) => item as unknown as AlertNotificationItem)
    .flatMap((record) => (record.outbox_id === null ? [] : [outboxKeyOf(alert.accountId, record.outbox_id, record.outbox_sharded === true)]));
  const outboxes = await getItems<EntityItem<unknown>>(outboxKeys);
  const units: WriteUnit[] = [
    // Its timers go first: a delivery timer carries its message, so once they are gone nothing more is sent.
    ...timersFirst(children.filter((item) => item.sk !== alert.sk)).map((item) => ({ writes: [deleteAny(item)] })),
    ...comments.map((c) => deletionUnit(c, 'references')),
    // Page messages were never counted (docs/alerts.md, "Notifications"), so only the message and its alias go.
    ...outboxes.filter((o) => o.type === 'OUTBOX' && o.accountId === alert.accountId).map((o) => ({ writes: [deleteAny(o), aliasDelete(o)] })),
  ];
  for (const batch of batchUnits(units)) await transact(batch);
  await releaseClaims(alert);
}
