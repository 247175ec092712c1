// Rendering of console pages: values are escaped, the layout carries no inline script or style, and the pure parts
// (next-path check, CSRF tokens, cookies, the alert list's order and filters, the schedule picture) hold their rules.
import { describe, expect, it } from 'vitest';
import { apiSearchPath, matchCollector, matches, parseFilters, viewOf } from '#lib/console/alert-list.ts';
import { clearedCookie, readCookies, safeNext, sessionCookie } from '#lib/console/headers.ts';
import { renderLayout } from '#lib/console/layout.ts';
import { pictureOf } from '#lib/console/schedule-picture.ts';
import { csrfMatches, csrfTokenOf, looksLikeSecret, newSecret } from '#lib/console/tokens.ts';
import { alertList } from '#lib/console/templates/alert-templates.ts';
import { schedulePage } from '#lib/console/templates/oncall-templates.ts';
import { ageOf } from '#lib/console/display-time.ts';
import { offeredActions } from '#lib/console/pages/alert-pages.ts';
import { layersNow } from '#lib/console/pages/oncall-pages.ts';
import type { AlertItem } from '#lib/alerts/items.ts';

const alert = (id: string, status: string, createdAt: string, extra: Partial<AlertItem['data']> = {}): AlertItem =>
  ({ id, prefixId: `alt_${id}`, createdAt, data: { title: `Alert ${id}`, description: null, status, urgency: 'high', destination_team_ids: [], ...extra } }) as unknown as AlertItem;

describe('escaping', () => {
  it('shows an alert titled <script> as text', () => {
    const html = alertList({
      rows: [{ id: 'a1', prefixId: 'alt_1', title: '<script>alert(1)</script>', urgency: 'high', status: 'open', statusClass: 'status-open', age: 'just now', createdAt: '', teams: '<b>Ops</b>', paged: 'Ada' }],
      statuses: [],
      teams: [],
      urgencies: [],
      q: '"><script>',
      total: 1,
      totalText: 'of 1',
      from: 1,
      to: 1,
      search: { window: '1,000', scope: 'of <i>Ops</i>', apiPath: apiSearchPath({ q: '"><script>', team: 'x"y', page: 1 }) },
      refreshSeconds: 30,
    });
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('the newest 1,000 alerts of &lt;i&gt;Ops&lt;/i&gt;');
    expect(html).toContain('href="/api/v4/teams/x%22y/alerts?q&#x3D;%22%3E%3Cscript%3E"');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;b&gt;Ops&lt;/b&gt;');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;"');
  });

  it('the layout loads only the hashed stylesheet, and the script only when asked, with no inline style or script', () => {
    const plain = renderLayout({ title: 'T <i>', body: '<p>x</p>' });
    expect(plain).toMatch(/<link rel="stylesheet" href="\/assets\/console\.[0-9a-f]{16}\.css">/);
    expect(plain).not.toContain('<script');
    expect(plain).toContain('<title>T &lt;i&gt; · Hark</title>');
    expect(plain).not.toMatch(/style=|<style/);
    expect(renderLayout({ title: 'T', body: '', script: true })).toMatch(/<script src="\/assets\/console\.[0-9a-f]{16}\.js" defer><\/script>/);
  });

  it('escapes names in the schedule picture and its table', () => {
    const picture = pictureOf([{ layer: 1, startMs: 0, endMs: 86_400_000, who: '<img src=x>', override: false }], [1], 0, 86_400_000 * 2, 3_600_000, 'UTC', () => 't');
    const html = schedulePage({ name: 'S', zone: 'UTC', days: 2, picture, shifts: [{ layer: 1, who: '<img src=x>', from: 'a', to: 'b', override: false }] });
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src&#x3D;x&gt;');
  });
});

describe('where to go after signing in', () => {
  it.each([
    ['/alerts?status=open', '/alerts?status=open'],
    ['/schedules/01J', '/schedules/01J'],
    ['//evil.example', '/alerts'],
    ['/\\evil.example', '/alerts'],
    ['https://evil.example', '/alerts'],
    ['javascript:alert(1)', '/alerts'],
    ['/alerts\n', '/alerts'],
    ['/sign-in/abc', '/alerts'],
    [undefined, '/alerts'],
    [`/${'a'.repeat(600)}`, '/alerts'],
  ])('%s → %s', (given, expected) => {
    expect(safeNext(given)).toBe(expected);
  });
});

describe('secrets, CSRF and cookies', () => {
  it('makes 43-character URL-safe secrets and binds CSRF tokens to the session', () => {
    const a = newSecret();
    expect(looksLikeSecret(a)).toBe(true);
    expect(looksLikeSecret('short')).toBe(false);
    expect(csrfMatches(a, csrfTokenOf(a))).toBe(true);
    expect(csrfMatches(a, csrfTokenOf(newSecret()))).toBe(false);
    expect(csrfMatches(a, undefined)).toBe(false);
    expect(csrfMatches(a, '')).toBe(false);
  });

  it('names the cookie __Host- and marks it Secure on https only', () => {
    expect(sessionCookie('x', true)).toBe('__Host-hark_session=x; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure');
    expect(sessionCookie('x', false)).toBe('hark_session=x; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200');
    expect(clearedCookie(true)).toContain('Max-Age=0');
    expect(readCookies(['a=1'], 'b=2; a=3').get('a')).toBe('1');
    expect(readCookies(undefined, 'b=2; c=x=y').get('c')).toBe('x=y');
  });
});

describe('the alert list', () => {
  it('reads index pages for no filter, a status or a team alone, and searches the narrowest index for the rest', () => {
    expect(viewOf({ page: 1 })).toEqual({ kind: 'statuses' });
    expect(viewOf({ status: 'open', page: 2 })).toEqual({ kind: 'statuses' });
    expect(viewOf({ team: 't1', page: 1 })).toEqual({ kind: 'team', teamId: 't1' });
    expect(viewOf({ team: 't1', status: 'open', page: 1 })).toEqual({ kind: 'search', index: { by: 'team-status', teamId: 't1', status: 'open' } });
    expect(viewOf({ team: 't1', status: 'open', q: 'disk', page: 1 })).toEqual({ kind: 'search', index: { by: 'team-status', teamId: 't1', status: 'open' } });
    expect(viewOf({ team: 't1', urgency: 'low', page: 1 })).toEqual({ kind: 'search', index: { by: 'team', teamId: 't1' } });
    expect(viewOf({ status: 'open', q: 'disk', page: 1 })).toEqual({ kind: 'search', index: { by: 'status', status: 'open' } });
    expect(viewOf({ urgency: 'high', page: 1 })).toEqual({ kind: 'search', index: { by: 'account' } });
  });

  it('a search collects matches in the order read and stops reading once it has the ones it wants', () => {
    const collector = matchCollector({ urgency: 'low', page: 1 }, 2);
    const low = (id: string) => alert(id, 'open', '2026-01-01T00:00:00Z', { urgency: 'low' });
    expect(collector.visit([alert('h', 'open', '2026-01-01T00:00:00Z'), low('l1')])).toBe(true);
    expect(collector.visit([low('l2'), low('l3')])).toBe(false);
    expect(collector.found.map((a) => a.id)).toEqual(['l1', 'l2']);
  });

  it('points a search at the API request that reads every alert', () => {
    expect(apiSearchPath({ urgency: 'high', q: 'disk full', page: 3 })).toBe('/api/v4/alerts?urgency=high&q=disk+full');
    expect(apiSearchPath({ status: 'open', team: 'T1', page: 1 })).toBe('/api/v4/teams/T1/alerts?status=open');
  });

  it('reads filters and names a bad value', () => {
    expect(parseFilters({ status: 'open', urgency: 'low', q: ' disk ', page: '2' })).toEqual({ filters: { status: 'open', urgency: 'low', q: 'disk', page: 2 }, problems: [] });
    expect(parseFilters({ status: 'burning' }).problems).toEqual([expect.stringMatching(/^status must be one of/)]);
    expect(parseFilters({ urgency: 'x' }).problems).toEqual([expect.stringMatching(/^urgency must be one of/)]);
    expect(parseFilters({ page: '0' }).problems).toEqual(['page must be a whole number from 1 to 400']);
  });

  it('matches text in title, description and prefix id, case-insensitively', () => {
    const a = alert('x', 'open', '2026-01-01T00:00:00Z', { title: 'Disk FULL', description: 'on db-1' });
    expect(matches(a, { q: 'disk full', page: 1 })).toBe(true);
    expect(matches(a, { q: 'DB-1', page: 1 })).toBe(true);
    expect(matches(a, { q: 'cpu', page: 1 })).toBe(false);
    expect(matches(a, { urgency: 'low', page: 1 })).toBe(false);
    expect(matches(a, { status: 'resolved', page: 1 })).toBe(false);
    expect(matches(a, { team: 't1', page: 1 })).toBe(false);
  });

  it('offers only the transitions the engine allows', () => {
    expect(offeredActions('open').map((a) => a.action)).toEqual(['acknowledge', 'resolve', 'reject']);
    expect(offeredActions('acknowledged').map((a) => a.action)).toEqual(['resolve']);
    expect(offeredActions('resolved')).toEqual([]);
    expect(offeredActions('suppressed').map((a) => a.action)).toEqual(['acknowledge']);
  });
});

describe('times and the schedule', () => {
  it('says ages in words', () => {
    expect(ageOf(0, 30_000)).toBe('just now');
    expect(ageOf(0, 5 * 60_000)).toBe('5 min ago');
    expect(ageOf(0, 3 * 3_600_000)).toBe('3 h ago');
    expect(ageOf(0, 72 * 3_600_000)).toBe('3 d ago');
  });

  it('lays out lanes, bars, day lines and now; labels only bars wide enough', () => {
    const day = 86_400_000;
    const picture = pictureOf(
      [
        { layer: 1, startMs: 0, endMs: 7 * day, who: 'Ada Lovelace', override: false },
        { layer: 1, startMs: day, endMs: day + 3_600_000, who: 'Grace Hopper', override: true },
        { layer: 2, startMs: 0, endMs: 14 * day, who: 'Alan', override: false },
      ],
      [1, 2],
      0,
      14 * day,
      2 * day,
      'UTC',
      () => 't',
    );
    expect(picture.lanes.map((l) => l.label)).toEqual(['Layer 1', 'Layer 2']);
    expect(picture.bars).toHaveLength(3);
    expect(picture.bars[0]!.showLabel).toBe(true);
    expect(picture.bars[1]!).toMatchObject({ override: true, showLabel: false, label: 'Grace Hopper (override)' });
    expect(picture.days).toHaveLength(13);
    expect(picture.now!.x).toBeCloseTo(60 + (660 * 2) / 14, 0);
    expect(picture.bars[2]!.width).toBeCloseTo(660, 0);
  });

  it('says who is on call now per layer, until when, and the next hand-off', () => {
    const shifts = [
      { layer: 1, startMs: 0, endMs: 100, who: 'Ada', override: false },
      { layer: 1, startMs: 100, endMs: 200, who: 'Grace', override: false },
      { layer: 2, startMs: 150, endMs: 300, who: 'Alan', override: false },
    ];
    expect(layersNow(shifts, 50, (ms) => String(ms))).toEqual([
      { layer: 1, who: 'Ada', until: '100', next: 'Grace from 100' },
      { layer: 2, who: 'nobody', until: '—', next: 'Alan from 150' },
    ]);
  });
});
