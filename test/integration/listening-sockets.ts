// The TCP sockets a process tree listens on, read from Linux's /proc: which sockets (inodes) each process holds
// (/proc/<pid>/fd), and which of those are listening, on which address (/proc/net/tcp and tcp6). Used by the test that
// `npm start` opens nothing beyond loopback; and the checks that its data folder is private.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';

export const canReadSockets = existsSync('/proc/net/tcp');

export interface ListeningSocket {
  address: string;
  port: number;
  pid: number;
}

/** `pid` and every process below it. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name (in parentheses) may hold spaces: the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree: number[] = [];
  const visit = (p: number) => {
    tree.push(p);
    for (const child of parents.get(p) ?? []) visit(child);
  };
  visit(pid);
  return tree;
}

/** The socket inodes a process holds. */
function socketInodes(pid: number): string[] {
  const inodes: string[] = [];
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.push(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** An address of /proc/net/tcp{,6}: 32-bit words in host (little-endian) byte order. */
export function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => Buffer.from(word, 'hex').reverse());
  const bytes = Buffer.concat(words);
  if (bytes.length === 4) return [...bytes].join('.');
  // IPv4-mapped (::ffff:a.b.c.d) is shown as such, the way a dual-stack socket bound to an IPv4 address appears.
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::');
}

/** Every TCP socket in LISTEN state held by the process tree of `pid`. */
export function listeningSockets(pid: number): ListeningSocket[] {
  const owner = new Map<string, number>();
  for (const p of processTree(pid)) for (const inode of socketInodes(p)) owner.set(inode, p);
  const found: ListeningSocket[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      // sl, local_address, rem_address, st, tx_queue:rx_queue, tr:tm->when, retrnsmt, uid, timeout, inode
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1]!, fields[3], fields[9]!];
      if (state !== '0A') continue; // TCP_LISTEN
      const holder = owner.get(inode);
      if (holder === undefined) continue;
      const [address, port] = local.split(':') as [string, string];
      found.push({ address: procAddress(address), port: parseInt(port, 16), pid: holder });
    }
  }
  return found;
}

/** Loopback: 127.0.0.0/8, ::1, or 127.0.0.0/8 mapped into IPv6. */
export const isLoopback = (address: string): boolean => /^(::ffff:)?127\./.test(address) || address === '::1' || address === '0:0:0:0:0:0:0:1';

/**
 * Addresses of this machine other than loopback, at most one per family (IPv4, IPv6): where another machine would
 * connect. A link-local IPv6 address carries its interface (fe80::1%eth0), as connecting to it needs.
 */
export function outsideAddresses(): string[] {
  const found = new Map<string, string>();
  for (const [name, entries] of Object.entries(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.internal || found.has(entry.family)) continue;
      found.set(entry.family, entry.family === 'IPv6' && entry.address.startsWith('fe80:') ? `${entry.address}%${name}` : entry.address);
    }
  }
  return [...found.values()];
}

/** Whether a TCP connection to address:port is accepted. */
export function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every folder and file under `root` (itself included) whose permissions let group or others in. */
export function openToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) open.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return open;
}
