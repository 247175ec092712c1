// What `npm run admin -- smoke` checks (lib/admin/smoke.ts; docs/deploy.md "Check it pages"): the flags, else
// HARK_URL / HARK_API_KEY, else the `npm start` running on the data folder with its admin key; anything else is a
// usage error (exit 2).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { smokeTarget } from '#lib/admin/smoke.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A data folder whose runtime file names a live process (this one) serving `baseUrl`, with an admin key file. */
function runningStart(baseUrl: string, pid = process.pid): string {
  const dir = mkdtempSync(join(tmpdir(), 'hark-smoke-target-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'runtime.json'), JSON.stringify({ pid, baseUrl, dynamoEndpoint: 'http://127.0.0.1:1', tableName: 'hark' }));
  writeFileSync(join(dir, 'admin-api-key'), 'local-admin-key-0123456789abcdef0123\n');
  return dir;
}

const KEY = 'k'.repeat(40);

describe('smokeTarget', () => {
  it('takes --url and --key, each wait 60 s by default', () => {
    expect(smokeTarget(['--url', 'https://hark.example.com', '--key', KEY], {})).toEqual({
      baseUrl: 'https://hark.example.com/',
      key: KEY,
      waitMs: 60_000,
      person: undefined,
      json: false,
      local: undefined,
    });
  });

  it('takes HARK_URL and HARK_API_KEY in place of the flags, the flags winning', () => {
    expect(smokeTarget([], { HARK_URL: 'https://a.example.com', HARK_API_KEY: KEY })).toMatchObject({ baseUrl: 'https://a.example.com/', key: KEY });
    expect(smokeTarget(['--url', 'https://b.example.com'], { HARK_URL: 'https://a.example.com', HARK_API_KEY: KEY }).baseUrl).toBe('https://b.example.com/');
  });

  it('with neither, checks the npm start running on the data folder, with its admin key', () => {
    const dir = runningStart('http://127.0.0.1:3000');
    expect(smokeTarget([], { HARK_DATA_DIR: dir })).toMatchObject({ baseUrl: 'http://127.0.0.1:3000/', key: 'local-admin-key-0123456789abcdef0123', local: { baseUrl: 'http://127.0.0.1:3000' } });
    expect(smokeTarget(['--data-dir', dir], {}).local).toBeDefined();
    // Another URL is not that npm start: its key and its inbox are not used.
    expect(() => smokeTarget(['--url', 'http://127.0.0.1:4000'], { HARK_DATA_DIR: dir })).toThrow('No API key');
  });

  it('ignores a runtime file whose process is gone', () => {
    const dir = runningStart('http://127.0.0.1:3000', 2 ** 22 + 12345);
    expect(() => smokeTarget([], { HARK_DATA_DIR: dir })).toThrow('No deployment to check: give --url (or HARK_URL), or start `npm start`');
  });

  it.each([
    [['--url', 'https://x.example.com', '--key', KEY, '--timeout', '0'], '--timeout must be a whole number of seconds from 1 to 600, got 0'],
    [['--url', 'https://x.example.com', '--key', KEY, '--timeout', '1.5'], '--timeout must be a whole number of seconds from 1 to 600, got 1.5'],
    [['--url', 'https://x.example.com', '--key', KEY, '--person', 'ada'], '--person must be an email address, got "ada"'],
    [['--url', 'ftp://x.example.com', '--key', KEY], '--url must be an http(s) URL, got "ftp://x.example.com"'],
    [['--url', 'not a url', '--key', KEY], '--url must be an http(s) URL, got "not a url"'],
    [['--frobnicate'], "Unknown option '--frobnicate'"],
    [['extra'], "Unexpected argument 'extra'"],
  ])('refuses %j', (argv, message) => {
    expect(() => smokeTarget(argv, { HARK_DATA_DIR: '/nonexistent-hark-data' })).toThrow(message);
  });
});
