// The heartbeat and email readers (pure) and the heartbeat's timing rules: docs/monitors.md, "Heartbeat" and "Email".
import { describe, expect, it } from 'vitest';
import { armWrites, heartbeatDueAt, pingTimer, renderHeartbeat } from '#lib/ingest/heartbeat/state.ts';
import { emailOptions, readEmail, resolvedSubject, subjectKey } from '#lib/monitor-readers/email.ts';
import { heartbeatOptions, readHeartbeat } from '#lib/monitor-readers/heartbeat.ts';
import type { ReaderRequest } from '#lib/monitor-readers/types.ts';

const request = (method: string, body: unknown): ReaderRequest => ({ method, headers: {}, query: {}, body, rawBody: typeof body === 'string' ? body : JSON.stringify(body) });

describe('heartbeat', () => {
  it('takes an interval of 60 s to 7 days and a grace of 0 to 1 day, with defaults', () => {
    expect(heartbeatOptions.parse({})).toEqual({ interval_seconds: 3600, grace_seconds: 300 });
    for (const bad of [{ interval_seconds: 59 }, { interval_seconds: 604_801 }, { interval_seconds: 90.5 }, { grace_seconds: -1 }, { grace_seconds: 86_401 }, { other: 1 }]) {
      expect(heartbeatOptions.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('is due interval + grace after the ping, divided by HARK_TIME_SCALE', () => {
    const ping = Date.parse('2026-11-26T10:00:00.000Z');
    expect(heartbeatDueAt(ping, { interval_seconds: 3600, grace_seconds: 300 }, 1)).toBe('2026-11-26T11:05:00.000Z');
    expect(heartbeatDueAt(ping, { interval_seconds: 60, grace_seconds: 60 }, 60)).toBe('2026-11-26T10:00:02.000Z');
  });

  it('names the same timer for the same request, and arms only if the ping is later than the last', () => {
    const ping = { accountId: 'A1', integrationId: 'I1', requestId: 'req-1', receivedAt: '2026-11-26T10:00:00.000Z', timing: { interval_seconds: 60, grace_seconds: 0 }, timeScale: 1 };
    expect(pingTimer(ping).timerId).toBe(pingTimer(ping).timerId);
    expect(pingTimer(ping).timerId).not.toBe(pingTimer({ ...ping, requestId: 'req-2' }).timerId);
    const [state, timer] = armWrites(ping, pingTimer(ping), '2026-11-26T10:00:00.000Z');
    expect(state).toMatchObject({ Update: { ConditionExpression: 'attribute_not_exists(lastPingAt) OR lastPingAt < :ping' } });
    expect(timer).toMatchObject({ Put: { ConditionExpression: 'attribute_not_exists(pk)', Item: { ownerType: 'heartbeat', dueAt: '2026-11-26T10:01:00.000Z' } } });
  });

  it('a ping resolves the heartbeat alert; a missed beat (method HEARTBEAT_MISSED) creates it', () => {
    const options = { options: heartbeatOptions.parse({ interval_seconds: 600, grace_seconds: 60 }) };
    for (const ping of [request('GET', ''), request('POST', 'done'), request('POST', { any: 'json' })]) {
      expect(readHeartbeat(ping, options).events).toEqual([expect.objectContaining({ event: 'resolve', thirdpartyId: 'heartbeat', fields: {} })]);
    }
    const missed = readHeartbeat(request('HEARTBEAT_MISSED', { integration_name: 'Backup job', last_ping_at: '2026-11-26T10:00:00.000Z', due_at: '2026-11-26T10:11:00.000Z' }), options);
    expect(missed.events[0]).toMatchObject({
      event: 'create',
      thirdpartyId: 'heartbeat',
      fields: { title: 'Backup job missed its heartbeat', meta: { last_ping_at: '2026-11-26T10:00:00.000Z', due_at: '2026-11-26T10:11:00.000Z' } },
    });
    expect(missed.events[0]!.fields.description).toBe(
      'No ping since 2026-11-26T10:00:00.000Z. Expected every 600 s with 60 s of grace; due by 2026-11-26T10:11:00.000Z. The next ping resolves this alert.',
    );
  });

  it('shows no next due time while disabled or never pinged', () => {
    const state = { pk: 'p', sk: 's', type: 'HEARTBEAT' as const, accountId: 'A', integrationId: 'I', lastPingAt: 'x', nextDueAt: 'y' };
    expect(renderHeartbeat(state, true)).toEqual({ last_ping_at: 'x', next_due_at: 'y' });
    expect(renderHeartbeat(state, false)).toEqual({ last_ping_at: 'x', next_due_at: null });
    expect(renderHeartbeat(undefined, true)).toEqual({ last_ping_at: null, next_due_at: null });
  });
});

const mail = (fields: Record<string, unknown>) =>
  request('SMTP', { integration_id: 'I1', subject: '', text: '', message_id: null, in_reply_to: null, references: [], from: ['nagios@example.com'], to: ['int_x@in.test'], ...fields });

describe('email', () => {
  const options = (resolve: string | null = '^(RESOLVED|OK)\\b') => ({ options: emailOptions.parse({ resolve_subject_regex: resolve }) });

  it('keys a thread by its subject without reply markers', () => {
    expect(subjectKey('Disk full on db-1')).toBe('subject:disk full on db-1');
    expect(subjectKey('Re: RE: Fwd:  Disk   full on db-1')).toBe('subject:disk full on db-1');
    expect(subjectKey('AW: Disk full on db-1')).toBe('subject:disk full on db-1');
  });

  it('creates from subject and text, with the thread’s ids as dedup keys', () => {
    const reading = readEmail(mail({ subject: 'Disk full on db-1', text: 'Only 2 % left', message_id: '<b@x>', in_reply_to: '<a@x>', references: ['<root@x>', '<a@x>'] }), options());
    expect(reading.events[0]).toMatchObject({
      event: 'create',
      thirdpartyId: 'subject:disk full on db-1',
      fields: { title: 'Disk full on db-1', description: 'Only 2 % left', dedup_keys: ['email:I1:<b@x>', 'email:I1:<a@x>', 'email:I1:<root@x>'], meta: { from: 'nagios@example.com' } },
    });
    expect(readEmail(mail({ subject: '   ' }), options()).events[0]!.fields).toMatchObject({ title: '(no subject)', description: null });
  });

  it('a subject matching resolve_subject_regex resolves the alert of the rest of the subject', () => {
    expect(resolvedSubject('RESOLVED: Disk full on db-1', '^(RESOLVED|OK)\\b')).toBe(': Disk full on db-1');
    expect(resolvedSubject('Disk full on db-1', '^(RESOLVED|OK)\\b')).toBeUndefined();
    expect(readEmail(mail({ subject: 'RESOLVED: Disk full on db-1' }), options()).events).toEqual([
      expect.objectContaining({ event: 'resolve', thirdpartyId: 'subject:disk full on db-1' }),
    ]);
    expect(readEmail(mail({ subject: 'RESOLVED: Disk full on db-1' }), options(null)).events[0]).toMatchObject({ event: 'create' });
  });

  it('refuses a pattern RE2 cannot run, naming why', () => {
    const result = emailOptions.safeParse({ resolve_subject_regex: '(a)\\1' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['resolve_subject_regex'], message: expect.stringContaining('backreference') });
  });

  it('ignores a body that is not a mail as Hark reads it', () => {
    expect(readEmail(request('POST', { title: 'x' }), options())).toMatchObject({ events: [], ignoredReason: 'Not a mail as Hark reads it' });
  });
});
