// The local runtime's link key (docs/notifications.md, "Signed links"): HARK_LINK_SECRET when set, otherwise a
// key generated once and kept in the data folder (mode 600) like the admin key, so links in messages already
// sent keep working across restarts. A stack without a data folder (tests) gets a fresh key in memory.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LINK_SECRET_FILE = 'link-secret';

const generated = () => randomBytes(32).toString('base64url');

/** The key to sign links with locally; writes the data folder's key file the first time. */
export function localLinkSecret(dataDir: string | undefined, configured: string | undefined): string {
  if (configured) return configured;
  if (!dataDir) return generated();
  const file = join(dataDir, LINK_SECRET_FILE);
  const remembered = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (remembered) return remembered;
  const key = generated();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
