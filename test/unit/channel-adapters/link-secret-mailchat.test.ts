// The local runtime's link key: HARK_LINK_SECRET wins; otherwise a key generated once into the data folder (mode
// 600) and read back on every later start, so links already mailed keep working; no data folder → a fresh key.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_SECRET_FILE, localLinkSecret } from '#lib/local/link-secret.ts';

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hark-link-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('localLinkSecret', () => {
  it('generates a key once into the data folder, readable by its owner only, and reads it back', () => {
    const dir = folder();
    const first = localLinkSecret(dir, undefined);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dir, LINK_SECRET_FILE), 'utf8').trim()).toBe(first);
    expect(statSync(join(dir, LINK_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expect(localLinkSecret(dir, undefined)).toBe(first);
  });

  it('uses HARK_LINK_SECRET when set and writes nothing', () => {
    const dir = folder();
    expect(localLinkSecret(dir, 'c'.repeat(40))).toBe('c'.repeat(40));
    expect(() => statSync(join(dir, LINK_SECRET_FILE))).toThrow();
  });

  it('makes a fresh key each time without a data folder', () => {
    expect(localLinkSecret(undefined, undefined)).not.toBe(localLinkSecret(undefined, undefined));
  });
});
