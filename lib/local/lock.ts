// One process at a time owns a local data folder (docs/configuration.md#the-data-folder): `npm start`, or
// an operator command that starts its own DynamoDB Local there. The lock is a file created exclusively
// (a hard link of a fully written temporary file, so a reader never sees it half written) holding the
// owner's pid; a lock whose pid is no longer running is stale and taken over.
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'hark.lock';

export interface LockOwner {
  pid: number;
  /** What holds the folder: `npm start` (with its URL) or an operator command. */
  holder: 'npm start' | 'npm run admin';
  baseUrl?: string;
}

/** The data folder is in use by another running process; the message is the whole one-line explanation. */
export class DataFolderLockedError extends Error {
  readonly owner: LockOwner;
  constructor(dataDir: string, owner: LockOwner, message = `Hark is already running on ${dataDir}: ${describeOwner(owner)}. Stop it first, or set HARK_DATA_DIR to another folder.`) {
    super(message);
    this.name = 'DataFolderLockedError';
    this.owner = owner;
  }
}

/** "npm start (pid 123, http://127.0.0.1:3000)" */
export function describeOwner(owner: LockOwner): string {
  return owner.baseUrl ? `${owner.holder} (pid ${owner.pid}, ${owner.baseUrl})` : `${owner.holder} (pid ${owner.pid})`;
}

export interface DataLock {
  release(): void;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockPath, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the data folder's lock for this process, or throws DataFolderLockedError naming the owner. */
export function acquireDataLock(dataDir: string, owner: Omit<LockOwner, 'pid'>): DataLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, LOCK_FILE);
  const mine: LockOwner = { pid: process.pid, ...owner };
  const draft = join(dataDir, `${LOCK_FILE}.${process.pid}`);
  writeFileSync(draft, JSON.stringify(mine));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, lockPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readOwner(lockPath);
        if (holder && holder.pid !== process.pid && processAlive(holder.pid)) throw new DataFolderLockedError(dataDir, holder);
        // Stale (its process is gone) or unreadable: take it over.
        rmSync(lockPath, { force: true });
        continue;
      }
      // Two processes taking over the same stale lock: only the one whose pid is in the file goes on.
      const holder = readOwner(lockPath);
      if (holder?.pid !== process.pid) {
        if (holder && processAlive(holder.pid)) throw new DataFolderLockedError(dataDir, holder);
        continue;
      }
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        if (readOwner(lockPath)?.pid === process.pid) rmSync(lockPath, { force: true });
      };
      process.on('exit', release);
      return { release };
    }
    throw new Error(`Could not take the lock ${lockPath}: another process keeps replacing it`);
  } finally {
    rmSync(draft, { force: true });
  }
}
