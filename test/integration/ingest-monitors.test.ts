// Real monitors' payloads (test/fixtures/monitors, sources in its README.md) replayed through the gateway in the
// order each monitor sends them: they create, acknowledge, update and resolve the right alerts, each answer is one
// the monitor's own code takes as success, and the log it names (GET /logs/:id) says what was done. Rules:
// docs/ingest.md, docs/monitors.md, docs/integrations.md ("The webhook: statuses").
import { beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_SEQUENCES, monitorPayload, type MonitorFixture } from '../fixtures/monitors/index.ts';
import { addAccountUser, alertsWithThirdpartyId, newAccount, pollUntil, request, type AccountUserRef, type TestAccount } from './helpers.ts';

/** How each sender judges the webhook's answer, as its own code does; none of them reads a 2xx's body. */
const ACCEPTED_BY: Record<string, (status: number) => boolean> = {
  // Uptime Kuma's PagerTree provider, checkResult: any 2xx.
  'uptime-kuma': (status) => status >= 200 && status < 300,
  // LibreNMS's PagerTree transport: the HTTP client's successful(), any 2xx.
  librenms: (status) => status >= 200 && status < 300,
  // Zabbix's PagerTree media type: anything but exactly 200 is an error (the body is parsed only then).
  zabbix: (status) => status === 200,
  // apprise's PagerTree plugin: 200, 201 or 202.
  apprise: (status) => [200, 201, 202].includes(status),
  spec: (status) => status === 200,
};

let acme: TestAccount;
let bob: AccountUserRef;

beforeAll(async () => {
  acme = await newAccount('Monitors');
  bob = await addAccountUser(acme);
});

/** A fresh integration per monitor (so Ids never meet), with the options the monitor needs. */
async function integrationFor(name: string, fixture: MonitorFixture) {
  const reply = await acme.api('POST', '/integrations', {
    name,
    urgency: fixture.integration.urgency,
    account_user_ids: [bob.id],
    ...(fixture.integration.wrapperKey ? { options: { wrapper_key: fixture.integration.wrapperKey } } : {}),
  });
  expect(reply.status).toBe(201);
  return reply.body as { id: string; prefix_id: string };
}

const alertsOf = (thirdpartyId: string, ready: (alerts: any[]) => boolean) => alertsWithThirdpartyId(acme, thirdpartyId, ready);

/** The state each step must leave the newest alert of the Id in. */
function expectedAfter(fixture: MonitorFixture, creates: number): (alerts: any[]) => boolean {
  const newest = (alerts: any[]) => alerts[0];
  switch (fixture.expected.event) {
    case 'create':
      return (alerts) =>
        alerts.length === 1 &&
        newest(alerts).dedup_count === creates - 1 &&
        (creates > 1 || (newest(alerts).title === fixture.expected.title && newest(alerts).urgency === fixture.expected.urgency));
    case 'update':
      return (alerts) => newest(alerts)?.urgency === fixture.expected.urgency;
    case 'acknowledge':
      return (alerts) => newest(alerts)?.status === 'acknowledged';
    case 'resolve':
      return (alerts) => newest(alerts)?.status === 'resolved';
  }
}

describe('monitor payloads replayed through the gateway', () => {
  for (const [monitor, sequence] of Object.entries(MONITOR_SEQUENCES)) {
    it(`${monitor}: ${sequence.map((f) => f.expected.event).join(' → ')}`, async () => {
      const hook = await integrationFor(monitor, sequence[0]!);
      let creates = 0;
      let alertId: string | undefined;
      for (const fixture of sequence) {
        const reply = await request('POST', `/integration/${hook.prefix_id}`, { body: monitorPayload(fixture.file) });
        expect(reply.status, fixture.file).toBe(200);
        expect(ACCEPTED_BY[monitor.replace(/-test$/, '')]!(reply.status), `${monitor} takes the answer as success`).toBe(true);
        expect(reply.body).toEqual({ status: 'queued', log_id: expect.stringMatching(/^log_[A-Za-z0-9]{14}$/) });
        if (fixture.expected.event === 'create') creates++;
        const alerts = await alertsOf(fixture.expected.thirdpartyId, expectedAfter(fixture, creates));
        expect(alerts[0].source_id, fixture.file).toBe(hook.id);
        alertId ??= alerts[0].id;
        expect(alerts[0].id, `${fixture.file} changes the alert the sequence created`).toBe(alertId);
        const log = (await acme.api('GET', `/logs/${alerts[0].source_log_id}`)).body;
        expect(log.owner_id).toBe(hook.id);
        // The answer's log_id is this request's log, and it says what the request did to the alert.
        const answered = await pollUntil(async () => {
          const read = await acme.api('GET', `/logs/${reply.body.log_id}`);
          return read.status === 200 && read.body.details.sublogs.length > 0 ? read.body : undefined;
        });
        expect(answered.owner_id).toBe(hook.id);
        expect(answered.details.sublogs.at(-1).alert_id, fixture.file).toBe(alertId);
        if (creates === 1 && fixture.expected.event === 'create') expect(answered.id).toBe(alerts[0].source_log_id);
      }
      const events = ((await acme.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string }[]).map((l) => l.event);
      expect(events.filter((e) => e === 'paged'), 'paged once').toHaveLength(1);
    });
  }
});
