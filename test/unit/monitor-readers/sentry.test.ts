// The Sentry reader on recorded payloads (test/fixtures/monitors/sentry), and its signature check.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sentryOptions, sentryReader, signatureMatches } from '#lib/monitor-readers/sentry.ts';
import { typeOptionsChange } from '#lib/integrations/schema.ts';
import { fixtureRequest, fixtureText, jsonRequest, readerOptions } from './monitor-support.ts';

const hook = (resource: string) => ({ 'sentry-hook-resource': resource, 'request-id': 'r-1', 'sentry-hook-timestamp': '1763630000' });
const read = (file: string, resource?: string, options = readerOptions()) =>
  sentryReader.read(fixtureRequest('sentry', file, resource ? hook(resource) : {}), options);
const events = (file: string, resource?: string) => read(file, resource).events.map((e) => [e.event, e.thirdpartyId]);

describe('sentry reader', () => {
  it('issue: created creates, assigned acknowledges, resolved resolves, unresolved creates again, keyed by the issue id', () => {
    expect(events('issue-created.json', 'issue')).toEqual([['create', '1170820242']]);
    expect(events('issue-assigned.json', 'issue')).toEqual([['acknowledge', '1170820242']]);
    expect(events('issue-resolved.json', 'issue')).toEqual([['resolve', '1170820242']]);
    expect(events('issue-unresolved.json', 'issue')).toEqual([['create', '1170820242']]);
    const create = read('issue-created.json', 'issue').events[0]!;
    expect(create.fields.title).toBe("TypeError: Cannot read properties of undefined (reading 'price')");
    expect(create.fields.urgency).toBe('high');
    expect(create.fields.description).toContain('Culprit: app/cart.js in computeTotal\nLevel: error\nProject: shop\nShort id: SHOP-1F');
    expect(create.fields.additional_data).toEqual([{ format: 'link', label: 'Sentry', value: 'https://example.sentry.io/issues/1170820242/' }]);
  });

  it('metric_alert: critical creates (then updates the urgency), resolved resolves, keyed by the metric alert id', () => {
    const critical = read('metric-alert-critical.json', 'metric_alert').events;
    expect(critical.map((e) => [e.event, e.thirdpartyId, e.fields.urgency])).toEqual([
      ['create', '4121', 'critical'],
      ['update', '4121', 'critical'],
    ]);
    expect(critical[0]!.fields.title).toBe('Critical: Too many errors');
    expect(events('metric-alert-resolved.json', 'metric_alert')).toEqual([['resolve', '4121']]);
  });

  it('event_alert creates keyed by its issue, so the issue\'s webhooks act on it; the legacy plugin creates', () => {
    const alert = read('event-alert-triggered.json', 'event_alert').events[0]!;
    expect([alert.event, alert.thirdpartyId, alert.fields.title]).toEqual(['create', '1170820977', 'Error: Payment gateway timeout']);
    const legacy = read('legacy-plugin.json').events[0]!;
    expect([legacy.event, legacy.thirdpartyId, legacy.fields.title, legacy.fields.urgency]).toEqual(['create', '1170821500', 'Search index is stale', 'medium']);
  });

  it('ignores resources and actions that carry no alert', () => {
    expect(read('issue-created.json', 'installation').ignoredReason).toBe('Sentry-Hook-Resource "installation" carries no alert; nothing to do');
    expect(sentryReader.read(jsonRequest({ action: 'archived', data: { issue: { id: '1' } } }, hook('issue')), readerOptions()).ignoredReason).toBe('issue archived: Hark changes no alert for it');
    expect(sentryReader.read(jsonRequest({ hello: 'world' }), readerOptions()).ignoredReason).toMatch(/^No Sentry-Hook-Resource header and no id/);
    for (const body of [null, [], { action: 3, data: [] }, { data: { issue: { id: {} } } }, { data: { metric_alert: null } }]) {
      for (const resource of ['issue', 'metric_alert', 'event_alert', '']) expect(() => sentryReader.read(jsonRequest(body, hook(resource)), readerOptions())).not.toThrow();
    }
  });

  it('verify: with a client_secret, the hex HMAC-SHA256 of the raw body must match', async () => {
    const secret = 'a-sentry-client-secret-0123456789';
    const raw = fixtureText('sentry', 'issue-created.json');
    const signature = createHmac('sha256', secret).update(raw, 'utf8').digest('hex');
    const request = (headers: Record<string, string>) => ({ ...fixtureRequest('sentry', 'issue-created.json', { ...hook('issue'), ...headers }) });
    expect(await sentryReader.verify!(request({ 'sentry-hook-signature': signature }), { client_secret: secret })).toEqual({ ok: true });
    expect(await sentryReader.verify!(request({ 'sentry-hook-signature': signature.toUpperCase() }), { client_secret: secret })).toEqual({ ok: true });
    expect(await sentryReader.verify!(request({}), { client_secret: secret })).toEqual({ ok: false, status: 403, reason: 'Missing Sentry-Hook-Signature header', refusal: 'invalid_signature' });
    const wrong = await sentryReader.verify!(request({ 'sentry-hook-signature': signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }), { client_secret: secret });
    expect(wrong).toMatchObject({ ok: false, status: 403 });
    expect(await sentryReader.verify!(request({}), {})).toEqual({ ok: true });
    expect(signatureMatches(raw + ' ', secret, signature)).toBe(false);
    expect(signatureMatches(raw, secret, 'short')).toBe(false);
  });

  it('validates client_secret', () => {
    expect(sentryOptions.safeParse({ client_secret: 'short' }).error?.issues[0]?.message).toBe('must be at least 16 characters');
    expect(sentryOptions.safeParse({ client_secret: null }).success).toBe(true);
    expect(typeOptionsChange('sentry', { secret: 'x' }, {}).problems[0]).toMatch(/^options.secret is not an option of sentry/);
    expect(typeOptionsChange('sentry', { client_secret: 'x' }, {}).problems).toEqual(['options.client_secret must be at least 16 characters']);
  });
});
