// DELETE /account_users/:id: a person leaves this account, and every reference to their account user goes
// with them. Rules: docs/people.md.
import { listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { forgetAccountUser } from '../auth/key-cache.ts';
import { getEntity, listEntities, transact, unchangedCheck, versionWrite } from '../db/repository.ts';
import { changedMeanwhile, PERSISTENT_ATTEMPTS, retryOnConflict } from '../db/retry.ts';
import { batchUnits, deleteItems, deletionUnit, type WriteUnit } from '../db/writes.ts';
import type { AccountUserData } from '../accounts/account-users.ts';
import { conflict } from '../errors.ts';
import type { Caller } from '../caller/caller.ts';
import { isActiveAdmin, lastAdmin, otherActiveAdmin } from './admins.ts';
import { listAccountUserItems, listTeams } from './lookups.ts';
import { planRemoval, type EventFields, type IntegrationFields, type PlannedUpdate, type PolicyFields, type RouterFields } from './removal.ts';
import { membershipDeleteWrite } from './user-store.ts';

/** Reads everything that can name an account user. */
async function holdingsOf(accountId: string) {
  const [teams, events, routers, policies, integrations] = await Promise.all([
    listTeams(accountId),
    listEntities<EventFields>('EVENT', accountId),
    listEntities<RouterFields>('ROUTER', accountId),
    listEntities<PolicyFields>('ESCALATION_POLICY', accountId),
    listEntities<IntegrationFields>('INTEGRATION', accountId),
  ]);
  return { teams, events, routers, policies, integrations };
}

/**
 * DELETE /account_users/:id: removes the person from this account only. In order: refuse (409) when it is the
 * last admin or when a router or integration would be left without a receiver; revoke the account user's API
 * keys in this account; take its id out of teams, events (an event left without attendees is deleted), routers,
 * escalation policies and integrations, in transactions of at most 100 items with version conditions; finally
 * delete the account user and the membership, only if the account user did not change meanwhile (a concurrent
 * reference touches it). Every step is idempotent: a failure part-way leaves the account user in place, and a
 * retry of the DELETE finishes the job. The person and their other memberships stay.
 */
export async function removeAccountUser(caller: Caller, id: string): Promise<void> {
  const { accountId } = caller;
  await retryOnConflict(
    async () => {
      const target = await getEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
      const [accountUsers, holdings, keys] = await Promise.all([listAccountUserItems(accountId), holdingsOf(accountId), listApiKeys(accountId)]);
      const other = isActiveAdmin(target) ? otherActiveAdmin(accountUsers, target.id) : undefined;
      if (isActiveAdmin(target) && !other) throw lastAdmin(target, 'deleted');

      const plan = planRemoval(target, holdings);
      if (plan.blockers.length > 0) throw conflict(plan.blockers);

      // Access goes first: the person cannot act in this account while the rest is cleaned up.
      for (const key of keys.filter((k) => k.accountUserId === target.id)) await revokeApiKey(accountId, key.keyId);
      forgetAccountUser(accountId, target.id);

      const units: WriteUnit[] = [
        ...plan.updates.map((u: PlannedUpdate) => ({ writes: [versionWrite(u.item, u.data).write] })),
        ...plan.deletes.map((item) => deletionUnit(item)),
      ];
      for (const batch of batchUnits(units)) await transact(batch);

      // Guarded by the version read: whether this may go depends on the account user's roles (the last admin).
      await transact([...deleteItems(target), membershipDeleteWrite(target.data.user_id, accountId), ...(other ? [unchangedCheck(other)] : [])]);
    },
    { attempts: PERSISTENT_ATTEMPTS, exhausted: changedMeanwhile('Account user') },
  );
}
