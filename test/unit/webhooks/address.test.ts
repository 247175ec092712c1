// Where outgoing webhooks may connect: the address rules, the URL rule, and the resolving hook that refuses a host
// name resolving to a private address before any connection is made.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { refusalOf, urlProblem, type AddressPolicy } from '#lib/webhooks/address.ts';
import { guardedLookup, sendOnce } from '#lib/webhooks/send.ts';

const aws: AddressPolicy = { allowLoopback: false, allowed: [] };
const local: AddressPolicy = { allowLoopback: true, allowed: [] };

describe('refusalOf', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['::ffff:10.0.0.1', 'private'],
    ['224.0.0.1', 'multicast'],
  ])('refuses %s (%s) on AWS', (address, range) => {
    expect(refusalOf(address, 'hooks.example.com', aws)).toBe(`hooks.example.com resolves to ${address.replace('::ffff:', '')}, a ${range} address`);
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])('allows the public address %s', (address) => {
    expect(refusalOf(address, 'example.com', aws)).toBeUndefined();
  });

  it('allows loopback only in the local runtime, and never other private ranges there', () => {
    expect(refusalOf('127.0.0.1', 'localhost', local)).toBeUndefined();
    expect(refusalOf('::1', 'localhost', local)).toBeUndefined();
    expect(refusalOf('10.0.0.1', 'intranet', local)).toMatch(/private/);
  });

  it('allows what HARK_WEBHOOK_ALLOWED_HOSTS names: a host name, or a CIDR range', () => {
    expect(refusalOf('10.1.2.3', 'hooks.internal', { allowLoopback: false, allowed: ['hooks.internal'] })).toBeUndefined();
    expect(refusalOf('10.1.2.3', 'other.internal', { allowLoopback: false, allowed: ['10.1.0.0/16'] })).toBeUndefined();
    expect(refusalOf('10.2.0.1', 'other.internal', { allowLoopback: false, allowed: ['10.1.0.0/16'] })).toMatch(/private/);
    expect(refusalOf('fd12::1', 'v6.internal', { allowLoopback: false, allowed: ['fd12::/16'] })).toBeUndefined();
  });
});

describe('urlProblem', () => {
  it.each([
    ['https://hooks.example.com/x', aws, undefined],
    ['http://hooks.example.com/x', aws, 'url must use https (http only to loopback in the local runtime)'],
    ['http://127.0.0.1:9000/x', aws, 'url must use https (http only to loopback in the local runtime)'],
    ['http://127.0.0.1:9000/x', local, undefined],
    ['http://localhost:9000/x', local, undefined],
    ['http://[::1]:9000/x', local, undefined],
    ['http://hooks.example.com/x', local, 'url must use https (http only to loopback in the local runtime)'],
    ['ftp://hooks.example.com/x', aws, 'url must use https'],
    ['not a url', aws, 'url must be an absolute http(s) URL'],
    ['https://user:pw@hooks.example.com/', aws, 'url must not hold a user name or password'],
  ] as const)('%s', (url, policy, problem) => {
    expect(urlProblem(url, policy)).toBe(problem);
  });

  it('refuses a private IP literal with the reason', () => {
    expect(urlProblem('https://10.0.0.8/hook', aws)).toBe('url must not point at a private, loopback or link-local address (10.0.0.8 resolves to 10.0.0.8, a private address)');
  });
});

describe('guardedLookup', () => {
  const fakeResolver = (answer: { address: string; family: number }[]) =>
    ((_host: string, _options: unknown, callback: (e: Error | null, a: unknown) => void) => callback(null, answer)) as never;

  it('refuses a host name that resolves to a private address, even when another address is public', async () => {
    const lookup = guardedLookup(aws, fakeResolver([{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }]));
    const error = await new Promise<Error | null>((resolve) => lookup('rebind.example.com', {}, (e) => resolve(e)));
    expect(error?.message).toBe('rebind.example.com resolves to 10.0.0.7, a private address');
  });

  it('answers the checked address, which the connection then uses', async () => {
    const lookup = guardedLookup(aws, fakeResolver([{ address: '93.184.216.34', family: 4 }]));
    const answer = await new Promise<[Error | null, string, number]>((resolve) => lookup('example.com', {}, (e, a, f) => resolve([e, a as string, f as number])));
    expect(answer).toEqual([null, '93.184.216.34', 4]);

    // A real connection made with the guard as its lookup goes to the address the guard checked, resolved once: a name
    // the system resolver does not know reaches the receiver on 127.0.0.1, and the same name answered as 127.0.0.2
    // (where nothing listens) does not reach it.
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const connect = (address: string) => {
      let resolved = 0;
      const counting = ((host: string, options: unknown, callback: (e: Error | null, a: unknown) => void) => {
        resolved++;
        callback(null, [{ address, family: 4 }]);
      }) as never;
      return new Promise<{ remote: string | undefined; error: string | undefined; resolved: number }>((resolve) => {
        const outgoing = httpRequest(`http://checked.invalid:${port}/`, { lookup: guardedLookup(local, counting), agent: false }, (response) => {
          response.resume();
          resolve({ remote: response.socket.remoteAddress, error: undefined, resolved });
        });
        outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ remote: undefined, error: error.code, resolved }));
        outgoing.end();
      });
    };
    try {
      expect(await connect('127.0.0.1')).toEqual({ remote: '127.0.0.1', error: undefined, resolved: 1 });
      expect(await connect('127.0.0.2')).toEqual({ remote: undefined, error: 'ECONNREFUSED', resolved: 1 });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('stops a real request to a name resolving to loopback on AWS, before connecting', async () => {
    let connected = false;
    const server = createServer((_req, res) => {
      connected = true;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const refused = await sendOnce({ url: `http://localhost:${port}/`, headers: {}, body: '{}', timeoutMs: 2000, policy: aws });
      expect(refused).toMatchObject({ status: null, errorKind: 'blocked' });
      expect(connected).toBe(false);
      const allowed = await sendOnce({ url: `http://localhost:${port}/`, headers: {}, body: '{}', timeoutMs: 2000, policy: local });
      // A loopback receiver's answer is a status and a size only: its words are never kept.
      expect(allowed).toMatchObject({ status: 200, errorKind: null, responseBody: null, responseBytes: 2 });
    } finally {
      server.close();
    }
  });
});
