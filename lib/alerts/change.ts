// Changing an alert's fields: PUT /alerts/:id, a webhook's update and a repeated create's dedup count
// (docs/alerts.md, "The alert resource").
import { nowMs } from '../clock.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { type TransactItem } from '../db/writes.ts';
import { claimsForAddedKeys, releaseClaims, takesDuplicates } from './dedup.ts';
import { effectWrites } from './effects.ts';
import { type AlertItem } from './items.ts';
import { tagsOf, type AlertData, type AlertUpdateInput } from './schema.ts';
import { commitAlert, getAlertItem } from './store.ts';
import type { AlertActor } from './schema.ts';

const CHANGED_FIELDS = ['title', 'description', 'urgency', 'tag_list', 'meta', 'dedup_keys', 'additional_data'] as const;

/** PUT /alerts/:id: the editable fields; status changes only through the actions. Logs `updated` naming the fields. */
export async function updateAlert(actor: AlertActor, idOrPrefixId: string, input: AlertUpdateInput): Promise<AlertItem> {
  const { alert } = await changeAlertFields(actor.accountId, idOrPrefixId, input, { by: `account user ${actor.accountUserId}`, account_user_id: actor.accountUserId });
  return alert;
}

/** Who changes an alert's fields, as its `updated` log entry names them. */
export interface ChangedBy {
  by: string;
  account_user_id?: string;
}

/**
 * Changes the fields present in `input` (the rest stay): one transaction conditioned on the version read, with an
 * `updated` log entry naming the fields, the claims of dedup keys it adds and the caller's `extraWrites`; keys it
 * removes are released after. Nothing changed → nothing written (`changed` is empty).
 */
export async function changeAlertFields(
  accountId: string,
  idOrPrefixId: string,
  input: AlertUpdateInput,
  changedBy: ChangedBy,
  extraWrites: readonly TransactItem[] = [],
  known?: AlertItem,
): Promise<{ alert: AlertItem; changed: string[] }> {
  const updated = await retryOnConflict(
    async (attempt): Promise<{ alert: AlertItem; changed: string[]; removedKeys: string[] }> => {
      // The alert the caller just read serves the first attempt: the write is conditioned on its version anyway.
      const current = attempt === 1 && known ? known : await getAlertItem(accountId, idOrPrefixId);
      const tags = tagsOf(input);
      const data: AlertData = {
        ...current.data,
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.urgency !== undefined ? { urgency: input.urgency } : {}),
        ...(tags !== undefined ? { tag_list: tags } : {}),
        ...(input.dedup_keys !== undefined ? { dedup_keys: [...new Set(input.dedup_keys)] } : {}),
        ...(input.additional_data !== undefined ? { additional_data: input.additional_data } : {}),
      };
      const meta = input.meta ?? current.meta;
      const now = nowMs();
      const next: AlertItem = { ...current, data, meta, version: current.version + 1, updatedAt: new Date(now).toISOString() };
      const before = { ...current.data, meta: current.meta } as Record<string, unknown>;
      const after = { ...data, meta } as Record<string, unknown>;
      const changed = CHANGED_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
      if (changed.length === 0) return { alert: current, changed, removedKeys: [] };
      const { writes } = await effectWrites(next, [], now, [
        { event: 'updated', message: `Alert updated by ${changedBy.by}: ${changed.join(', ')}.`, account_user_id: changedBy.account_user_id },
      ]);
      const added = data.dedup_keys.filter((key) => !current.data.dedup_keys.includes(key));
      const claims = takesDuplicates(next) ? await claimsForAddedKeys(next, added) : [];
      await commitAlert(current, next, [...writes, ...claims, ...extraWrites]);
      return { alert: next, changed, removedKeys: current.data.dedup_keys.filter((key) => !data.dedup_keys.includes(key)) };
    },
    { exhausted: changedMeanwhile('Alert') },
  );
  await releaseClaims(updated.alert, updated.removedKeys);
  return { alert: updated.alert, changed: updated.changed };
}

/**
 * A repeated create of an alert that is still active (an integration's create with the thirdparty_id of its active
 * alert): dedup_count + 1 and a `deduplicated` log entry, nobody paged, in one transaction conditioned on the version
 * read, with the caller's `extraWrites`. A lost race throws the condition failure: the caller decides again (the
 * alert may have been resolved meanwhile, and then the create makes a new alert).
 */
export async function countDuplicate(alert: AlertItem, from: string, extraWrites: readonly TransactItem[] = []): Promise<AlertItem> {
  const now = nowMs();
  const next: AlertItem = { ...alert, data: { ...alert.data, dedup_count: alert.data.dedup_count + 1 }, version: alert.version + 1, updatedAt: new Date(now).toISOString() };
  const { writes } = await effectWrites(next, [], now, [{ event: 'deduplicated', message: `A repeated create from ${from}: dedup_count + 1, nobody is paged.` }]);
  await commitAlert(alert, next, [...writes, ...extraWrites]);
  return next;
}
