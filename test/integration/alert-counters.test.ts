// The alert counts under concurrent creates, through the gateway: every create, status change and delete moves the
// account's counts in one of COUNTER_SHARDS shards at random (all and per status as one Update of the account's
// counter group item, per team in the team's own item), and every list's total_count is the sum of the shards (counts
// written in older layouts: counter-layouts.test.ts). Tiny ids stay one sequence per account: unique under concurrency
// (a burst takes them in blocks).
// Rules: docs/decisions/0022-sharded-alert-counters.md.
import { beforeAll, describe, expect, it } from 'vitest';
import { COUNTER_GROUP_SK, counterReadKeys } from '../../lib/db/counters.ts';
import { getItems } from '../../lib/db/items.ts';
import { accountPk, alertTeamCounterSk, counterSk } from '../../lib/db/keys.ts';
import { COUNTER_SHARDS, LIMITS } from '../../lib/limits.ts';
import { addAccountUser, addTeam, alertTotals, newAccount, useTestStack, type TestAccount } from './helpers.ts';

beforeAll(() => {
  useTestStack();
});

/** Creates `n` alerts at once, each to the team and to a person (so none is dropped for nobody on call). */
async function createMany(account: TestAccount, teamId: string, personId: string, n: number) {
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      account.api('POST', '/alerts', { title: `storm ${i}`, urgency: 'high', destination_team_ids: [teamId], destination_account_user_ids: [personId] }),
    ),
  );
  for (const reply of replies) expect(reply.status, reply.text).toBe(201);
  return replies.map((r) => r.body as { id: string; tiny_id: number; status: string });
}

describe('alert counters, sharded', () => {
  it('concurrent creates, acknowledges, resolves and deletes keep every total_count exact, spread over the shards, with unique tiny ids', async () => {
    const acme = await newAccount('Counters');
    const person = await addAccountUser(acme);
    const team = await addTeam(acme, 'Storm');
    const alerts = await createMany(acme, team.id, person.id, 48);
    expect(alerts.every((a) => a.status === 'open')).toBe(true);
    const tinyIds = alerts.map((a) => a.tiny_id);
    expect(new Set(tinyIds).size).toBe(48);
    expect(tinyIds.every((t) => Number.isInteger(t) && t >= 1)).toBe(true);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 48, open: 48, acknowledged: 0, resolved: 0, team: 48 });

    // The counts went to the group items of several shards, none to the unsharded item (which holds the tiny id
    // sequence only), and the shards sum to the count; the team's count went to its own items of the shards.
    const items = await getItems<Record<string, unknown> & { pk: string; sk: string }>(counterReadKeys({ pk: accountPk(acme.accountId), sk: counterSk('ALERT') }, true));
    const unsharded = items.find((s) => s.pk === accountPk(acme.accountId));
    expect(unsharded?.itemCount).toBeUndefined();
    // A burst takes its tiny ids in blocks (docs/decisions/0030-tiny-ids-in-blocks.md): the sequence may be ahead of the
    // ids handed out, by at most the ids one block takes beyond its create.
    expect(Number(unsharded?.lastTinyId)).toBeGreaterThanOrEqual(Math.max(...tinyIds));
    expect(Number(unsharded?.lastTinyId)).toBeLessThanOrEqual(Math.max(...tinyIds) + LIMITS.TINY_ID_BLOCK_EXTRA.value);
    const shards = items.filter((s) => s !== unsharded);
    expect(shards.every((s) => s.sk === COUNTER_GROUP_SK)).toBe(true);
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.length).toBeLessThanOrEqual(COUNTER_SHARDS);
    expect(shards.reduce((sum, s) => sum + Number(s[counterSk('ALERT')]), 0)).toBe(48);
    // The group items hold the bounded counts only, never a team's.
    expect(shards.every((s) => Object.keys(s).every((name) => ['pk', 'sk', 'COUNTER#ALERT', 'COUNTER#ALERT#STATUS#open'].includes(name)))).toBe(true);
    const teamShards = await getItems<{ sk: string; itemCount: number }>(counterReadKeys({ pk: accountPk(acme.accountId), sk: alertTeamCounterSk(team.id) }));
    expect(teamShards.reduce((sum, s) => sum + s.itemCount, 0)).toBe(48);

    // 0–19 acknowledged, then 10–29 resolved (10 of them acknowledged, 10 open), then 25–34 deleted (5 resolved, 5 open).
    const ack = await Promise.all(alerts.slice(0, 20).map((a) => acme.api('POST', `/alerts/${a.id}/acknowledge`)));
    for (const reply of ack) expect(reply.status, reply.text).toBe(200);
    const resolve = await Promise.all(alerts.slice(10, 30).map((a) => acme.api('POST', `/alerts/${a.id}/resolve`)));
    for (const reply of resolve) expect(reply.status, reply.text).toBe(200);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 48, open: 18, acknowledged: 10, resolved: 20, team: 48 });

    const deleted = await Promise.all(alerts.slice(25, 35).map((a) => acme.api('DELETE', `/alerts/${a.id}`)));
    for (const reply of deleted) expect(reply.status, reply.text).toBe(204);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 38, open: 13, acknowledged: 10, resolved: 15, team: 38 });

    // More concurrent creates continue the one sequence: no tiny id is handed out twice.
    const more = await createMany(acme, team.id, person.id, 16);
    expect(new Set([...tinyIds, ...more.map((a) => a.tiny_id)]).size).toBe(64);
    expect(await alertTotals(acme, team.id)).toEqual({ all: 54, open: 29, acknowledged: 10, resolved: 15, team: 54 });
  }, 120_000);
});
