// window_events of any size through the gateway: whole and gzip-compressed when the client accepts gzip, else in
// pages of `limit` entries with a next link; following the links gives every entry once (docs/events-api.md,
// "Large windows").
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, errorMessages, isoSeconds, newAccount, request, type TestAccount, useTestStack } from './helpers.ts';

const HOUR = 3_600_000;
let acme: TestAccount;
let schedule: string;
const START = '2026-01-01 00:00:00';
const END = '2026-02-10 00:00:00'; // 40 days: 30 hourly events make 28,800 entries, more than one plain answer carries

beforeAll(async () => {
  useTestStack();
  acme = await newAccount('Window pages');
  schedule = (await acme.api('POST', '/schedules', { name: 'Busy' })).body.id;
  const from = Date.UTC(2025, 11, 1);
  for (let batch = 0; batch < 3; batch++) {
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        acme.api('POST', '/events', {
          schedule_ids: [schedule],
          layer: 1 + ((batch * 10 + i) % 3),
          time_zone: 'UTC',
          start_time: isoSeconds(from),
          end_time: isoSeconds(from + HOUR),
          repeat: true,
          frequency: 1,
          frequency_unit: 'hourly',
          account_user_ids: [acme.adminAccountUserId],
        }),
      ),
    );
    for (const reply of created) expect(reply.status, reply.text).toBe(201);
  }
}, 60_000);

interface Entry {
  id: string;
  layer: number;
  start_time: string;
}
const key = (e: Entry) => `${e.id}|${e.start_time}`;
const path = (extra = '') => `/api/v4/schedules/${schedule}/window_events?start=${encodeURIComponent(START)}&end=${encodeURIComponent(END)}${extra}`;

/** A GET with the exact Accept-Encoding given (fetch would add its own), body bytes as sent. */
function raw(target: string, acceptEncoding: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl()}${target}`, { headers: { authorization: `Bearer ${acme.adminKey}`, 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a window larger than one plain answer', () => {
  let whole: Entry[];

  it('is sent whole and gzip-compressed to a client that accepts gzip', async () => {
    const reply = await raw(path(), 'gzip, deflate');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(reply.headers.vary).toBe('Accept-Encoding');
    expect(reply.headers.link).toBeUndefined();
    const text = gunzipSync(reply.bytes).toString('utf8');
    whole = JSON.parse(text) as Entry[];
    expect(whole).toHaveLength(28_800);
    // The whole window keeps its layer order.
    expect(whole.map((e) => e.layer)).toEqual([...whole.map((e) => e.layer)].sort((a, b) => a - b));
    expect(reply.bytes.length).toBeLessThan(text.length / 10);
  });

  it('is paged to a client that does not, with a next link; the pages hold every entry once, in time order', async () => {
    const seen: Entry[] = [];
    let next: string | undefined = path();
    let pages = 0;
    while (next) {
      const reply = await raw(next, 'identity');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBeUndefined();
      const page = JSON.parse(reply.bytes.toString('utf8')) as Entry[];
      expect(page.length).toBeLessThanOrEqual(5_000);
      const starts = page.map((e) => Date.parse(e.start_time));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      seen.push(...page);
      pages += 1;
      const link = reply.headers.link as string | undefined;
      next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
    }
    expect(pages).toBe(6);
    expect(seen).toHaveLength(28_800);
    expect(new Set(seen.map(key))).toEqual(new Set(whole.map(key)));
  });

  it('takes limit, and answers a page of that size even when the window would fit', async () => {
    const reply = await request('GET', path('&limit=1000'), { key: acme.adminKey });
    expect(reply.status).toBe(200);
    // At most `limit`, cut between two instants: 33 hours of 30 entries.
    expect(reply.body).toHaveLength(990);
    expect(reply.headers.get('link')).toMatch(/&limit=1000&cursor=\d+>; rel="next"$|&cursor=\d+&limit=1000>; rel="next"$/);
    const small = await request('GET', `/api/v4/schedules/${schedule}/window_events?start=2026-01-01%2000:00:00&end=2026-01-01%2002:00:00`, { key: acme.adminKey });
    expect(small.body).toHaveLength(60);
    expect(small.headers.get('link')).toBeNull();
  });

  it('refuses a bad limit or cursor with a 422 naming it', async () => {
    expect(errorMessages(await acme.api('GET', `/schedules/${schedule}/window_events?start=${encodeURIComponent(START)}&end=${encodeURIComponent(END)}&limit=0`))).toEqual([
      'limit must be a whole number from 1 to 21539, got "0"',
    ]);
    expect(errorMessages(await acme.api('GET', `/schedules/${schedule}/window_events?start=${encodeURIComponent(START)}&end=${encodeURIComponent(END)}&cursor=12`))).toEqual([
      'cursor must be the cursor of a next link of this window (an instant in milliseconds after start and before end), got "12"',
    ]);
  });
});
