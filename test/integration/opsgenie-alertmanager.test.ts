// The real sender: Debian's Prometheus Alertmanager 0.25 with an `opsgenie_configs` receiver whose api_url is the test
// stack (it appends v2/alerts), update_alerts on. Two alerts in one group, repeated, then resolved: one Hark alert,
// paged once, repeats only counted, resolved when the group resolves, and Alertmanager logs every notification as a
// success (docs/migrating.md, "From Opsgenie").
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { addAccountUser, baseUrl, newAccount, pollUntil } from './helpers.ts';

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
const dirs: string[] = [];
let child: ChildProcess | undefined;
afterAll(() => {
  if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const config = (key: string) => `
route:
  receiver: hark
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 3s
receivers:
  - name: hark
    opsgenie_configs:
      - api_key: ${key}
        api_url: ${baseUrl()}/
        update_alerts: true
        send_resolved: true
        priority: P2
        tags: disk,storage
`;

describe.skipIf(!existsSync(ALERTMANAGER))('Alertmanager opsgenie_configs against Hark', { timeout: 90_000 }, () => {
  it('one alert per group, no second page on repeats, closed when the group resolves; every notification succeeds', async () => {
    const acme = await newAccount('Alertmanager opsgenie');
    const bob = await addAccountUser(acme);
    const hook = (await acme.api('POST', '/integrations', { name: 'Alertmanager', integration_type_id: 'opsgenie', account_user_ids: [bob.id] })).body;
    const dir = mkdtempSync(join(tmpdir(), 'hark-alertmanager-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'alertmanager.yml'), config(hook.options.api_key as string));
    const port = await freePort();
    let log = '';
    child = spawn(ALERTMANAGER, [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--cluster.listen-address=', '--log.level=debug'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const am = `http://127.0.0.1:${port}`;
    await pollUntil(async () => ((await fetch(`${am}/-/ready`).catch(() => undefined))?.ok ? true : undefined), 20_000);

    const members = (endsAt?: string) =>
      ['db1', 'db2'].map((instance) => ({
        labels: { alertname: 'DiskFull', instance, severity: 'critical' },
        annotations: { summary: `Disk almost full on ${instance}` },
        ...(endsAt ? { endsAt } : {}),
      }));
    const post = async (body: unknown) => expect((await fetch(`${am}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status).toBe(200);
    await post(members());

    const alertsOfHook = async () => ((await acme.api('GET', '/alerts?limit=100')).body.data as any[]).filter((a) => a.source_id === hook.id);
    // The first notification, then repeats (repeat_interval 3 s): each a create of the open alias, counted, not paged.
    const repeated = await pollUntil(async () => {
      const alerts = await alertsOfHook();
      return alerts.length === 1 && alerts[0].dedup_count >= 2 ? alerts[0] : undefined;
    }, 40_000);
    expect(repeated).toMatchObject({ status: 'open', urgency: 'high', tag_list: ['disk', 'storage'] });
    expect(repeated.title).toMatch(/^\[FIRING:2\] DiskFull/);
    expect(repeated.description).toMatch(/db1[\s\S]*db2/);
    const pages = ((await acme.api('GET', `/alerts/${repeated.id}/logs?limit=100`)).body.data as { event: string }[]).filter((l) => l.event === 'paged');
    expect(pages).toHaveLength(1);

    await post(members(new Date(Date.now() - 1000).toISOString()));
    await pollUntil(async () => ((await alertsOfHook())[0]?.status === 'resolved' ? true : undefined), 30_000);
    expect(await alertsOfHook()).toHaveLength(1);

    await pollUntil(async () => (/msg="Notify success"[^\n]*integration=opsgenie|integration=opsgenie[^\n]*msg="Notify success"/.test(log) ? true : undefined), 10_000);
    expect(log).not.toMatch(/Notify for alerts failed/);
    expect(log).not.toMatch(/level=(warn|error)[^\n]*opsgenie/);
  });
});
