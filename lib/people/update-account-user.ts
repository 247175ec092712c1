// PUT /account_users/:id: roles, notification rule, team memberships, meta and the person's profile, in one
// transaction. Rules: docs/people.md.
import type { AccountUserData } from '../accounts/account-users.ts';
import { forgetAccountUser } from '../auth/key-cache.ts';
import { resolveIdList } from '../db/references.ts';
import { findEntity, getEntity, touchItem, transact, unchangedCheck, versionWrite, type TransactItem } from '../db/repository.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { TRANSACTION_ITEMS } from '../db/writes.ts';
import { invalid, limitExceeded, notFound } from '../errors.ts';
import type { Caller, Roles } from '../caller/caller.ts';
import { isActiveAdmin, lastAdmin, otherActiveAdmin } from './admins.ts';
import { callerUserId, listAccountUserItems, listTeams, type TeamItem } from './lookups.ts';
import type { TeamFields } from './removal.ts';
import { touchesProfile } from './profile.ts';
import { renderAccountUser } from './render.ts';
import { NO_ROLES, parseRoles, type AccountUserUpdateInput } from './schema.ts';
import { memberTeamChanges, teamIdsOf } from './teams.ts';
import { assertCanEditProfile, profileChange } from './update-user.ts';
import { getUser, userUpdateWrites } from './user-store.ts';

/** PUT /account_users/:id (admins): roles, notification rule, team memberships, meta and the person's profile. */
export async function updateAccountUser(caller: Caller, id: string, input: AccountUserUpdateInput) {
  const { accountId } = caller;
  return retryOnConflict(async () => {
    const current = await getEntity<AccountUserData>('ACCOUNT_USER', accountId, id);
    const person = await getUser(current.data.user_id);
    if (!person) throw notFound('User');
    const problems: string[] = [];

    let roles: Roles = { ...NO_ROLES, ...current.data.roles };
    if (input.roles !== undefined) {
      const parsed = parseRoles(input.roles, roles);
      if ('problems' in parsed) problems.push(...parsed.problems);
      else roles = parsed.roles;
    }

    const wantedTeams = input.member_team_ids !== undefined || input.team_ids !== undefined ? [...(input.member_team_ids ?? []), ...(input.team_ids ?? [])] : undefined;
    const teamField = input.member_team_ids !== undefined ? 'member_team_ids' : 'team_ids';
    const [rule, resolvedTeams, allTeams] = await Promise.all([
      input.notification_rule_id ? findEntity('NOTIFICATION_RULE', accountId, input.notification_rule_id) : undefined,
      wantedTeams ? resolveIdList('TEAM', accountId, teamField, 'team', wantedTeams) : undefined,
      wantedTeams ? listTeams(accountId) : undefined,
    ]);
    if (input.notification_rule_id && !rule) problems.push(`notification_rule_id refers to unknown notification rule ${input.notification_rule_id}`);
    if (resolvedTeams) problems.push(...resolvedTeams.problems);

    const attributes = input.user_attributes;
    if (attributes?.id !== undefined && attributes.id !== person.id) {
      problems.push(`user_attributes.id must be the id of this account user's user (${person.id}); an account user's person cannot be replaced`);
    }
    const profile = attributes !== undefined && touchesProfile(attributes);
    if (problems.length > 0) throw invalid(problems);
    if (profile) await assertCanEditProfile(caller, person, current, (await callerUserId(caller)) === person.id);
    const nextPerson = profile ? await profileChange(person, attributes, 'user_attributes.') : person;

    const writes: TransactItem[] = [];
    if (isActiveAdmin(current) && !roles.admin) {
      const other = otherActiveAdmin(await listAccountUserItems(accountId), current.id);
      if (!other) throw lastAdmin(current, 'demoted');
      writes.push(unchangedCheck(other));
    }
    const notificationRuleId = input.notification_rule_id === undefined ? (current.data.notification_rule_id ?? null) : (rule?.id ?? null);
    const self = versionWrite(current, { ...current.data, roles, notification_rule_id: notificationRuleId }, input.meta);
    writes.push(self.write);
    if (profile) writes.push(...userUpdateWrites(person, nextPerson));
    if (rule && rule.id !== current.data.notification_rule_id) writes.push(touchItem(rule));
    let teams = allTeams;
    if (resolvedTeams && allTeams) {
      const changes = memberTeamChanges(current.id, allTeams, new Set(resolvedTeams.ids), { leaveOthers: true });
      const room = TRANSACTION_ITEMS - writes.length;
      if (changes.length > room) {
        throw limitExceeded(`${teamField} would change ${changes.length} teams at once; at most ${room} can change in one request`);
      }
      const written = changes.map((u) => versionWrite(u.item as TeamItem, u.data as TeamFields));
      writes.push(...written.map((w) => w.write));
      const byId = new Map(written.map((w) => [w.next.id, w.next]));
      teams = allTeams.map((t) => byId.get(t.id) ?? t);
    }
    await transact(writes);
    forgetAccountUser(accountId, current.id);
    return renderAccountUser(self.next, nextPerson, teamIdsOf(current.id, teams ?? (await listTeams(accountId))));
  }, { exhausted: changedMeanwhile('Account user') });
}
