// `npm start` prints a one-time console sign-in link for the bootstrap admin (docs/console.md, "Sign-in"), and turns
// the local inbox on: the link signs in once, and the admin sees /inbox; a link asked for later is printed too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local/ports.ts';
import { crash, killAll, startNpm } from './npm-start.ts';
import { ConsoleClient } from './console-client.ts';
import { pollUntil } from './helpers.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'hark-console-start-'));

afterAll(() => {
  killAll();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start and the console', () => {
  it('prints a sign-in link for the admin that works once, and serves the local inbox', async () => {
    const port = await freePort();
    const started = await startNpm(dataDir, port);
    try {
      const line = await pollUntil(async () => /^Console: +(http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]{43}) \(signs the admin in once, within 15 minutes\)$/m.exec(started.output()) ?? undefined, 30_000);
      const path = new URL(line[1]!).pathname;
      const client = new ConsoleClient(started.baseUrl);
      expect((await client.get(path)).text).toContain('>Sign in</button>');
      const signedIn = await client.post(path);
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.get('set-cookie')).toMatch(/^hark_session=/);
      expect((await client.get('/alerts')).status).toBe(200);
      const inbox = await client.get('/inbox');
      expect(inbox.status).toBe(200);
      expect(inbox.text).toContain('Local inbox');
      expect((await new ConsoleClient(started.baseUrl).post(path)).status).toBe(410);

      // Signed out, the admin asks for a link at /sign-in: it is printed here, one line, and signs in without a restart.
      await client.post('/sign-out', { csrf: ConsoleClient.csrfOf(inbox) });
      await client.post('/sign-in', { email: 'admin@hark.local' });
      const again = await pollUntil(async () => /^Sign-in link for admin@hark\.local: (http:\/\/\S+\/sign-in\/[A-Za-z0-9_-]{43}) \(works once, within 15 minutes\)$/m.exec(started.output()) ?? undefined, 30_000);
      expect((await client.post(new URL(again[1]!).pathname)).status).toBe(303);
      expect((await client.get('/alerts')).status).toBe(200);
      // The link is in no account's inbox.
      expect((await client.get('/inbox')).text).not.toContain('/sign-in/');
    } finally {
      await crash(started);
    }
  }, 120_000);
});
