import { createServer } from 'node:net';

/** Asks the OS for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
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

/**
 * Checks that the gateway's port can be taken, before anything slow starts (the real listen comes last,
 * once the service is ready; a port taken in between fails there with the same message).
 */
export function assertCanListen(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', (error) => reject(listenError(error, port, host)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
