// A create reads configuration from a short per-process cache (docs/alerts.md, "Configuration reads in a storm";
// docs/decisions/0024-configuration-reads-in-a-storm.md). Through a gateway of this test's own, in this process, with
// the cache set to a minute so nothing expires during the test: creates in a row read the team, its policy, its
// schedule's events and the time off once; a schedule change, a person removed from the account and time off recorded
// through the API are each seen by the very next create; with the cache off every create reads again.
import { randomUUID } from 'node:crypto';
import type { MiddlewareStack } from '@smithy/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '#lib/config.ts';
import { documentClient } from '#lib/db/client.ts';
import { type AccountUserRef, addAccountUser, isoSeconds, newAccount, teamWithOnCall, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';

let stack: OwnStack;
let acme: TestAccount;
const savedTtl = process.env.HARK_CONFIG_CACHE_MS;

/**
 * What this process's creates asked of DynamoDB: each call's command and the sort key (or key prefix) it names. The
 * schedule's daily gap check (fired by this stack's timers poller) and the names in message texts (a cache of their
 * own) read teams, events and time off too, and are left out.
 */
const calls: { command: string; sk: string }[] = [];
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof (v as { S?: unknown })?.S === 'string' ? ((v as { S: string }).S) : '');
const RECORDER = 'configCacheTestRecorder';

beforeAll(async () => {
  process.env.HARK_CONFIG_CACHE_MS = '60000';
  stack = await startOwnStack('config-cache', {});
  acme = await newAccount('Config cache', stack);
  (documentClient().middlewareStack as MiddlewareStack<any, any>).add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { sk?: unknown }; ExpressionAttributeValues?: Record<string, unknown> };
      const sk = input.Key ? text(input.Key.sk) : text(input.ExpressionAttributeValues?.[':prefix'] ?? input.ExpressionAttributeValues?.[':sk']);
      const stack = new Error().stack ?? '';
      if (!stack.includes('/lib/gap-check/') && !stack.includes('/lib/activity/names')) calls.push({ command: context.commandName ?? '?', sk });
      return next(args);
    },
    { step: 'initialize', name: RECORDER },
  );
});

afterAll(async () => {
  documentClient().middlewareStack.remove(RECORDER);
  if (savedTtl === undefined) delete process.env.HARK_CONFIG_CACHE_MS;
  else process.env.HARK_CONFIG_CACHE_MS = savedTtl;
  reloadConfig();
  await stack?.stop();
});

const pagedIn = async (alertId: string): Promise<string[]> =>
  ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; account_user_id?: string }[])
    .filter((l) => l.event === 'paged')
    .map((l) => l.account_user_id!);

async function createFor(teamId: string): Promise<string[]> {
  const reply = await acme.api('POST', '/alerts', { title: 'Checkout down', urgency: 'high', destination_team_ids: [teamId] });
  expect(reply.status, reply.text).toBe(201);
  return pagedIn(reply.body.id);
}

/** A team whose schedule has one event covering now, on layer 1, with these people. */
async function teamOnCall(people: AccountUserRef[]) {
  const team = await teamWithOnCall(acme, [people.map((p) => p.id)], `Payments ${randomUUID().slice(0, 8)}`);
  return { team, eventId: team.event_ids[0]! };
}

/** The configuration reads of the calls made while `run` ran: GetItems of the team and policy, Queries of events and time off. */
async function configReads(teamId: string, policyId: string, run: () => Promise<void>) {
  const from = calls.length;
  await run();
  const made = calls.slice(from);
  const count = (command: string, sk: string) => made.filter((c) => c.command.startsWith(command) && c.sk === sk).length;
  return { team: count('GetItem', `TEAM#${teamId}`), policy: count('GetItem', `ESCALATION_POLICY#${policyId}`), events: count('Query', 'EVENT#'), timeOff: count('Query', 'TIME_OFF#') };
}

describe('the configuration cache of a create', () => {
  it('reads the team, its policy, its events and the time off once for several creates in a row', async () => {
    const ann = await addAccountUser(acme);
    const { team } = await teamOnCall([ann]);
    const reads = await configReads(team.id, team.escalation_policy_id, async () => {
      for (let i = 0; i < 5; i++) expect(await createFor(team.id)).toEqual([ann.id]);
    });
    expect(reads).toEqual({ team: 1, policy: 1, events: 1, timeOff: 1 });
  });

  it('with HARK_CONFIG_CACHE_MS=0 every create reads them again', async () => {
    const ann = await addAccountUser(acme);
    const { team } = await teamOnCall([ann]);
    process.env.HARK_CONFIG_CACHE_MS = '0';
    reloadConfig();
    try {
      const reads = await configReads(team.id, team.escalation_policy_id, async () => {
        for (let i = 0; i < 3; i++) expect(await createFor(team.id)).toEqual([ann.id]);
      });
      expect(reads).toEqual({ team: 3, policy: 3, events: 3, timeOff: 3 });
    } finally {
      process.env.HARK_CONFIG_CACHE_MS = '60000';
      reloadConfig();
    }
  });

  it('a create right after a schedule change pages the new on-call person', async () => {
    const [ann, bob] = [await addAccountUser(acme), await addAccountUser(acme)];
    const { team, eventId } = await teamOnCall([ann]);
    expect(await createFor(team.id)).toEqual([ann.id]);
    // The first create filled the cache; the change through the API must empty it.
    expect((await acme.api('PUT', `/events/${eventId}`, { account_user_ids: [bob.id] })).status).toBe(200);
    expect(await createFor(team.id)).toEqual([bob.id]);
  });

  it('a person removed from the account, or away on time off, is not paged by the next create', async () => {
    const [ann, bob] = [await addAccountUser(acme), await addAccountUser(acme)];
    const { team } = await teamOnCall([ann, bob]);
    expect((await createFor(team.id)).sort()).toEqual([ann.id, bob.id].sort());
    expect((await acme.api('DELETE', `/account_users/${ann.id}`)).status).toBe(204);
    expect(await createFor(team.id)).toEqual([bob.id]);
    const away = await acme.api('POST', '/time_off', {
      account_user_id: bob.id,
      start_time: isoSeconds(Date.now() - 60_000),
      end_time: isoSeconds(Date.now() + 3_600_000),
      time_zone: 'UTC',
    });
    expect(away.status, away.text).toBe(201);
    expect(await createFor(team.id)).toEqual([]);
  });
});
