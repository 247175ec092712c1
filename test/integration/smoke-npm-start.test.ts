// `npm run admin -- smoke` with no flags checks the running `npm start` of the data folder with its admin key; with no
// push provider that runtime delivers the canary's page to its local inbox, where the check reads it back, and the
// page's signed link acknowledges on that same npm start (docs/deploy.md, "Check it pages").
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { crash, killAll, startNpm } from './npm-start.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'hark-smoke-start-'));

afterAll(() => {
  killAll();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The CLI as an operator runs it beside npm start: nothing in the environment names a deployment or a key. */
function smoke(): Promise<{ code: number; stdout: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !['HARK_URL', 'HARK_API_KEY', 'HARK_NTFY_URL', 'HARK_DYNAMODB_ENDPOINT', 'HARK_TABLE_NAME'].includes(name)));
  return new Promise((resolve) => {
    execFile(process.execPath, ['lib/admin/cli.ts', 'smoke'], { env: { ...env, HARK_DATA_DIR: dataDir } }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: stdout + stderr }));
  });
}

describe('npm run admin -- smoke, with no flags', () => {
  it('checks the running npm start through its local inbox and acknowledges by the link read there, exit 0', async () => {
    // Any free port: the check finds the runtime by its data folder, not by a default port.
    const started = await startNpm(dataDir, await freePort());
    try {
      const run = await smoke();
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(`Smoke check of ${started.baseUrl}/`);
      expect(run.stdout).toMatch(/^ok {4}canary +\d+ ms {2}usr_\w+ \(made now\), push to the local inbox of npm start$/m);
      expect(run.stdout).toMatch(/^ok {4}acknowledge link +\d+ ms {2}alt_\w+ acknowledged$/m);
      expect(run.stdout).toMatch(/^ok {4}resolve /m);
      expect((await started.api('GET', '/integrations')).body.total_count).toBe(0);
      expect((await started.api('GET', '/alerts')).body.total_count).toBe(0);
    } finally {
      await crash(started);
    }
  }, 240_000);
});
