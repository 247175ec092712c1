// npm start stops when the process that started it is gone (docs/configuration.md, "Start-up"). npm runs a script
// through `sh -c`, and neither npm nor the shell always passes a SIGTERM on: when npm is ended, node keeps its shell
// parent (or is handed to init) and would go on holding the port, the data folder's lock and DynamoDB Local.
import { readFileSync } from 'node:fs';

/** The parent pid in a `/proc/<pid>/stat` line (the field after the state; the command may hold spaces). Pure. */
export function parentInStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

/** The parent of a process, where the system tells it (Linux's /proc); undefined elsewhere or once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    return parentInStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Calls `onGone` once when this process's parent changes, or — run by npm (`npm_lifecycle_event` set), whose shell is
 * the parent — when that shell's parent (npm) changes. Checked every `everyMs`; the timer keeps nothing alive.
 */
export function whenStarterGone(onGone: () => void, everyMs: number): void {
  const parent = process.ppid;
  const grandparent = process.env.npm_lifecycle_event ? parentOf(parent) : undefined;
  const timer = setInterval(() => {
    const gone = process.ppid !== parent || (grandparent !== undefined && parentOf(parent) !== grandparent);
    if (!gone) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
}
