// The webhook's side of the configuration cache: the worker runs in the shared stack's process with the API, so a
// schedule changed through the API is seen by the next webhook's create. The shared stack keeps the default 1 s, so on
// a machine slow enough to take longer between the two creates this passes even without the forgetting;
// config-cache.test.ts checks the same with a cache that would otherwise last a minute. docs/alerts.md,
// "Configuration reads in a storm".
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AccountUserRef, addAccountUser, alertsWithThirdpartyId, newAccount, request, teamWithOnCall, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  acme = await newAccount('Config cache');
});

const pagedIn = async (alertId: string): Promise<string[]> =>
  ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; account_user_id?: string }[])
    .filter((l) => l.event === 'paged')
    .map((l) => l.account_user_id!);

/** A team whose schedule has one event covering now, on layer 1, with these people. */
async function teamOnCall(people: AccountUserRef[]) {
  const team = await teamWithOnCall(acme, [people.map((p) => p.id)], `Payments ${randomUUID().slice(0, 8)}`);
  return { team, eventId: team.event_ids[0]! };
}

const swapTo = async (eventId: string, person: AccountUserRef) => {
  const reply = await acme.api('PUT', `/events/${eventId}`, { account_user_ids: [person.id] });
  expect(reply.status, reply.text).toBe(200);
};

describe('configuration changes reach the next create at once', () => {
  it('a webhook right after a schedule change pages the new on-call person', async () => {
    const [ann, bob] = [await addAccountUser(acme), await addAccountUser(acme)];
    const { team, eventId } = await teamOnCall([ann]);
    const hook = (await acme.api('POST', '/integrations', { name: 'Probe', team_ids: [team.id] })).body as { prefix_id: string };
    const fire = async () => {
      const id = `storm-${randomUUID()}`;
      expect((await request('POST', `/integration/${hook.prefix_id}`, { body: { event_type: 'create', Id: id, Title: 'Checkout down' } })).status).toBe(200);
      const [alert] = await alertsWithThirdpartyId(acme, id);
      return pagedIn(alert.id);
    };
    expect(await fire()).toEqual([ann.id]);
    await swapTo(eventId, bob);
    expect(await fire()).toEqual([bob.id]);
  });
});
