import { lookup } from 'node:dns/promises';
import { connect, createServer, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** Where DynamoDB Local and the SQS emulator listen: they have no authentication (docs/security.md). */
export const LOCAL_SERVICE_HOST = '127.0.0.1';

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, LOCAL_SERVICE_HOST, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The gateway cannot listen where it was told to; the message is the whole one-line explanation with the fix. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

/** Turns a failed listen into a ListenError saying what to change; other errors are returned as they are. */
export function listenError(error: unknown, port: number, host: string): unknown {
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case 'EADDRINUSE':
      return new ListenError(`port ${port} is in use: set PORT to a free port`);
    case 'EACCES':
      return new ListenError(`port ${port} needs privileges on this machine: set PORT to a port from 1024 to 65535`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenError(`${host} is not an address of this machine: set HOST to one (127.0.0.1, or 0.0.0.0 for every interface)`);
    default:
      return error;
  }
}

const WILDCARDS: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1' };

/** The addresses of this machine HOST stands for; a ListenError when it stands for none. */
async function localAddressesOf(host: string): Promise<string[]> {
  if (WILDCARDS[host]) return [WILDCARDS[host]];
  const own = new Set(Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)));
  const resolved = isIP(host) ? [host] : await lookup(host, { all: true }).then((all) => all.map((a) => a.address), () => []);
  const local = resolved.filter((address) => own.has(address));
  if (local.length === 0) throw listenError({ code: 'EADDRNOTAVAIL' }, 0, host);
  return local;
}

/** Whether something accepts connections on address:port (a refused connection means nothing listens there). */
function listening(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Says before anything slow starts that the gateway could not listen: HOST is not this machine's, or
 * something already listens on the port. It only connects, never listens, so no client can reach a
 * half-started service through it; the real listen comes last, once the service is ready (a port taken in
 * between, or one that needs privileges, fails there with the same kind of one-line message).
 */
export async function assertCanListen(port: number, host: string): Promise<void> {
  for (const address of await localAddressesOf(host)) {
    if (await listening(address, port)) throw listenError({ code: 'EADDRINUSE' }, port, host);
  }
}
