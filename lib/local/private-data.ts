// The local data folder holds the database (webhook signing secrets, generated passwords), the queues and the admin
// key: it is private to the user who runs Hark (docs/configuration.md#the-data-folder, docs/security.md).
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LINK_SECRET_FILE } from './link-secret.ts';
import { LOCK_FILE } from './lock.ts';
import { RUNTIME_FILE } from './runtime-file.ts';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** Files and folders created while it is in force get no group or other permission (0600 / 0700). */
export const PRIVATE_UMASK = 0o077;

/** DynamoDB Local's files and the SQS emulator's state, inside the data folder. */
export const DYNAMODB_FOLDER = 'dynamodb';
export const QUEUES_FOLDER = 'queues';
/** The generated bootstrap admin key (lib/local/bootstrap.ts). */
export const ADMIN_KEY_FILE = 'admin-api-key';

/**
 * What Hark keeps in a data folder. Only these are tightened: a folder someone pointed HARK_DATA_DIR at may hold
 * other files, which are not Hark's to change (the folder's own 0700 already keeps everyone else out of them).
 */
const HARK_ENTRIES = [DYNAMODB_FOLDER, QUEUES_FOLDER, ADMIN_KEY_FILE, LINK_SECRET_FILE, RUNTIME_FILE, LOCK_FILE];

/** The data folder cannot be made private (it belongs to another user); the message is the one line to print. */
export class DataFolderNotPrivateError extends Error {
  constructor(path: string) {
    super(`${path} cannot be made private to you (it belongs to another user): set HARK_DATA_DIR to a folder of your own.`);
    this.name = 'DataFolderNotPrivateError';
  }
}

/** Removes the group and other permissions of `path`; whether there were any. */
function tighten(path: string, privateMode: number): boolean {
  const mode = statSync(path).mode & 0o777;
  if ((mode & ~privateMode) === 0) return false;
  try {
    chmodSync(path, mode & privateMode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPERM') throw new DataFolderNotPrivateError(path);
    throw error;
  }
  return true;
}

/** Tightens a path and, for a folder, everything in it; answers the paths whose permissions changed. */
function tightenTree(path: string): string[] {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return [];
  if (!stat.isDirectory()) return tighten(path, PRIVATE_FILE_MODE) ? [path] : [];
  const own = tighten(path, PRIVATE_FOLDER_MODE) ? [path] : [];
  return [...own, ...readdirSync(path).flatMap((name) => tightenTree(join(path, name)))];
}

/** Creates `dir` (and missing parents) as 0700; an existing one loses its group and other permissions. */
export function makePrivateFolder(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return tighten(dir, PRIVATE_FOLDER_MODE);
}

/**
 * Keeps a data folder private for the life of this process: the umask becomes 077, so whatever this process and
 * the DynamoDB Local it starts (which inherits the umask) create is 0600 / 0700; the folder is made 0700; and what
 * an earlier version of Hark left readable to others is tightened. Answers the paths that were tightened.
 */
export function keepDataFolderPrivate(dataDir: string): string[] {
  process.umask(PRIVATE_UMASK);
  const tightened = makePrivateFolder(dataDir) ? [dataDir] : [];
  for (const name of HARK_ENTRIES) {
    const path = join(dataDir, name);
    if (existsSync(path)) tightened.push(...tightenTree(path));
  }
  return tightened;
}

/** The one line `npm start` prints when it had to tighten a data folder; undefined when there was nothing to do. */
export function tightenedNotice(dataDir: string, tightened: readonly string[]): string | undefined {
  if (tightened.length === 0) return undefined;
  return `The data folder ${dataDir} was open to other users: made it private (folders 0700, files 0600; ${tightened.length} changed).`;
}
