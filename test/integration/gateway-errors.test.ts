// The request edge: every answer the gateway or the handler factory gives to a malformed request is the JSON
// error body, and nothing malformed reaches storage as a 500.
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, errorMessages, newAccount, request, type TestAccount } from './helpers.ts';

let acme: TestAccount;

beforeAll(async () => {
  acme = await newAccount('Edge');
});

const address = () => new URL(baseUrl());

/** Sends raw bytes on a fresh connection and returns everything the server answered before closing. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = address();
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Status line, headers (lower-cased names) and JSON body of a raw HTTP/1.1 answer. */
function parseRaw(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body = ''] = answer.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body) };
}

function expectJsonError(reply: { status: number; headers: Record<string, string>; body: unknown }, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.body).toEqual({ errors: [{ message: expect.any(String) }], code: status });
}

describe("the gateway's own refusals", () => {
  it('a header section over the limit: 431 with the JSON error body, connection closed', async () => {
    const answer = await rawExchange(`GET /api/v4/schedules HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(40_000)}\r\n\r\n`);
    const reply = parseRaw(answer);
    expectJsonError(reply, 431);
    expect(reply.headers.connection).toBe('close');
  });

  it('an unknown method and a malformed request line: 400 with the JSON error body', async () => {
    expectJsonError(parseRaw(await rawExchange('FROB /api/v4/schedules HTTP/1.1\r\nhost: x\r\n\r\n')), 400);
    expectJsonError(parseRaw(await rawExchange('GET /api/v4/schedules HTTP/9.9\r\nhost: x\r\n\r\n')), 400);
  });

  it('a request target that is not a path: 400 with the JSON error body', async () => {
    const reply = parseRaw(await rawExchange('GET * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n'));
    expectJsonError(reply, 400);
    expect(reply.body).toEqual({ errors: [{ message: 'The request target must be a path starting with /' }], code: 400 });
  });

  it('a method the route table does not serve: 405 (path known) or 404, as the JSON error body', async () => {
    const patch = await request('PATCH', '/api/v4/schedules', { key: acme.adminKey });
    expect(patch.status).toBe(405);
    expect(errorMessages(patch)).toEqual(['PATCH is not supported on /api/v4/schedules; allowed: POST, GET']);
    const options = await request('OPTIONS', '/nowhere');
    expect(options.status).toBe(404);
    expect(errorMessages(options)).toEqual(['Route not found']);
  });

  it('a method its path does not take reaches the path’s function (ANY routes) and gets the fallback’s answer before any key, body or page', async () => {
    // docs/decisions/0031-api-routes-in-a-nested-stack.md: the answers are those of the $default fallback, unchanged.
    for (const [method, path, allowed] of [
      ['PATCH', '/api/v4/schedules', 'POST, GET'],
      ['DELETE', '/api/v4/users/u_1', 'GET, PUT'],
      ['PUT', '/actions/token', 'GET, POST'],
      ['GET', '/sms/twilio', 'POST'],
      ['PUT', '/alerts/a_1', 'GET'],
      ['DELETE', '/ical/token.ics', 'GET'],
      ['POST', '/api/v4/openapi.json', 'GET'],
    ] as const) {
      // fetch sends no body with GET.
      for (const options of [{}, { key: 'not-a-key' }, ...(method === 'GET' ? [] : [{ key: acme.adminKey, rawBody: '{not json' }])]) {
        const reply = await request(method, path, options);
        expect(reply.status, `${method} ${path}`).toBe(405);
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
        expect(reply.headers.get('allow'), `${method} ${path}`).toBe(allowed);
        expect(errorMessages(reply)).toEqual([`${method} is not supported on ${path}; allowed: ${allowed}`]);
      }
    }
    // A more specific path without the method: the table's own match serves it, as the method routes did.
    const put = (id: string) => request('PUT', `/api/v4/events/${id}`, { key: acme.adminKey, body: { name: 'x' } });
    const [zones, unknown] = [await put('time_zones'), await put('evt_unknown')];
    expect([zones.status, errorMessages(zones)]).toEqual([unknown.status, errorMessages(unknown)]);
  });

  it('a body over the gateway limit: 413 with Connection: close, and the next request on the agent is served', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; headers: Record<string, string>; body: unknown }>((resolve, reject) => {
        const { hostname, port } = address();
        const req = httpRequest({ agent, host: hostname, port, method, path, headers: { authorization: `Bearer ${acme.adminKey}`, 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body: text ? JSON.parse(text) : undefined }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const huge = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
      const refused = await send('POST', '/api/v4/schedules', huge);
      expectJsonError(refused, 413);
      expect(refused.headers.connection).toBe('close');
      const next = await send('GET', '/api/v4/schedules?limit=1');
      expect(next.status).toBe(200);
      // Over the service's own limit (below the gateway's): 413 from the handler, the connection stays usable.
      const overService = await send('POST', '/api/v4/schedules', Buffer.from(JSON.stringify({ name: 'x'.repeat(300 * 1024) })));
      expectJsonError(overService, 413);
      expect((await send('GET', '/api/v4/schedules?limit=1')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('path ids and query strings that cannot be served', () => {
  it('an id that cannot be an id is not found, with the noun of the route, on every id form of path', async () => {
    for (const [path, message] of [
      [`/api/v4/schedules/${'x'.repeat(10_000)}`, 'Schedule not found'],
      ['/api/v4/users/%E0%A4%A', 'User not found'],
      ['/api/v4/teams/%E0%A4%A/current_oncall', 'Team not found'],
      ['/api/v4/alerts/..%2F..%2Fx/comments', 'Alert not found'],
      ['/api/v4/account_users/%00', 'Account user not found'],
      [`/api/v4/outbox/${encodeURIComponent('ü'.repeat(100))}`, 'Outbox message not found'],
    ] as const) {
      const reply = await request('GET', path, { key: acme.adminKey });
      expect(reply.status, path).toBe(404);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(errorMessages(reply)).toEqual([message]);
    }
    const update = await request('PUT', `/api/v4/events/${'y'.repeat(5000)}`, { key: acme.adminKey, body: { name: 'x' } });
    expect(errorMessages(update)).toEqual(['Event not found']);
  });

  it('the webhook: an id that cannot be an integration id is 404 with the error body', async () => {
    for (const id of ['z'.repeat(10_000), '%E0%A4%A']) {
      const reply = await request('POST', `/integration/${id}`, { body: { title: 'x' } });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Integration not found']);
    }
  });

  it('a query parameter given twice is 422 naming it, on lists and on other routes', async () => {
    const schedule = (await acme.api('POST', '/schedules', { name: 'Twice' })).body;
    for (const [path, name] of [
      ['/api/v4/schedules?sort=name&sort=created_at', 'sort'],
      ['/api/v4/schedules?limit=1&limit=2', 'limit'],
      ['/api/v4/teams?direction=asc&direction=desc', 'direction'],
      ['/api/v4/users?ops=name:equals&q=x&ops=name:ne', 'ops'],
      ['/api/v4/routers?name=a&name=b', 'name'],
      [`/api/v4/schedules/${schedule.id}/window_events?start=2025-01-01%2000:00:00&start=2025-01-02%2000:00:00&end=2025-01-03%2000:00:00`, 'start'],
      [`/api/v4/schedules/${schedule.id}?x[]=1&x[]=2`, 'x[]'],
    ] as const) {
      const reply = await request('GET', path, { key: acme.adminKey });
      expect(reply.status, path).toBe(422);
      expect(errorMessages(reply)).toEqual([`query parameter ${name} is given more than once`]);
    }
    // A value with a comma is one value, not a repeat.
    expect((await request('GET', '/api/v4/schedules?sort=name&direction=asc&q=a,b', { key: acme.adminKey })).status).toBe(200);
  });
});
