// The Slack adapter against a stand-in of Slack's Web API (bot token, JSON, users by email), and Slack's request
// signature check (good, changed, stale, malformed).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackAdapterOf, verifySlackSignature } from '#lib/channel-adapters/slack.ts';
import { startSlackStub, type SlackStub } from '../../support/slack-api.ts';
import { outgoingMessage } from '../../support/outgoing-message.ts';

const TOKEN = 'xoxb-test-token';
const message = outgoingMessage({ channel: 'slack', subject: 'Alert #12: Disk <full> & hot' });

describe('Slack messages', () => {
  let slack: SlackStub;
  beforeAll(async () => {
    slack = await startSlackStub({ token: TOKEN, users: { 'ana@example.com': 'U0ANA' } });
  });
  afterAll(() => slack.close());
  const adapter = (email: string | undefined, token = TOKEN) => slackAdapterOf({ apiUrl: slack.url, botToken: token, emailOf: async () => email });

  it('finds the person by their email and sends them a message with Acknowledge and Resolve buttons', async () => {
    const result = await adapter('ana@example.com').send(message);
    expect(result).toEqual({ status: 'sent', providerMessageId: 'DU0ANA/1700000000.000100' });
    expect(slack.calls.map((c) => c.method).slice(-2)).toEqual(['users.lookupByEmail', 'chat.postMessage']);
    const posted = slack.calls.at(-1)!.body;
    expect(posted.channel).toBe('U0ANA');
    expect(posted.text).toBe('Alert #12: Disk <full> & hot\nUrgency: high');
    expect(posted.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*Alert #12: Disk &lt;full&gt; &amp; hot*\nUrgency: high' } });
    const buttons = posted.blocks[1].elements;
    expect(buttons.map((b: any) => [b.action_id, b.text.text, b.style])).toEqual([
      ['hark_acknowledge', 'Acknowledge', 'primary'],
      ['hark_resolve', 'Resolve', 'danger'],
    ]);
    expect(JSON.parse(buttons[0].value)).toEqual({ ownerType: 'alert', ownerId: '01JALERT', accountId: '01JACCOUNT', action: 'acknowledge' });
  });

  it('suppresses a person without an email or without a Slack user', async () => {
    expect(await adapter(undefined).send(message)).toEqual({ status: 'suppressed', reason: 'the person has no email address to find them in Slack' });
    expect(await adapter('nobody@example.com').send(message)).toEqual({ status: 'suppressed', reason: 'no Slack user has the email nobody@example.com' });
  });

  it('reports a bad token as permanent and rate limits or Slack outages as retryable', async () => {
    expect(await adapter('ana@example.com', 'xoxb-wrong').send(message)).toMatchObject({ status: 'failed', retryable: false, error: 'Slack users.lookupByEmail: invalid_auth' });
    slack.fail('chat.postMessage', 429);
    expect(await adapter('ana@example.com').send(message)).toMatchObject({ status: 'failed', retryable: true });
    slack.fail('chat.postMessage', 'ratelimited');
    expect(await adapter('ana@example.com').send(message)).toMatchObject({ status: 'failed', retryable: true });
    slack.fail('chat.postMessage', 'channel_not_found');
    expect(await adapter('ana@example.com').send(message)).toMatchObject({ status: 'failed', retryable: false });
  });
});

describe('verifySlackSignature', () => {
  const secret = '8f742231b10e8888abcd99yyyzzz85a5';
  const now = 1_700_000_000_000;
  const body = 'payload=%7B%22type%22%3A%22block_actions%22%7D';
  const sign = (ts: string, text = body) => `v0=${createHmac('sha256', secret).update(`v0:${ts}:${text}`).digest('hex')}`;
  const ts = String(now / 1000);

  it('accepts Slack’s signature of the raw body within five minutes', () => {
    expect(verifySlackSignature({ secret, timestamp: ts, signature: sign(ts), body, now })).toEqual({ ok: true });
    const edge = String(now / 1000 - 300);
    expect(verifySlackSignature({ secret, timestamp: edge, signature: sign(edge), body, now })).toEqual({ ok: true });
  });

  it('refuses a changed body, another secret, a stale or future timestamp, and missing headers', () => {
    expect(verifySlackSignature({ secret, timestamp: ts, signature: sign(ts), body: `${body}x`, now })).toEqual({ ok: false, message: 'X-Slack-Signature does not match' });
    expect(verifySlackSignature({ secret: 'another-secret-0000', timestamp: ts, signature: sign(ts), body, now }).ok).toBe(false);
    const stale = String(now / 1000 - 301);
    expect(verifySlackSignature({ secret, timestamp: stale, signature: sign(stale), body, now })).toEqual({ ok: false, message: 'X-Slack-Request-Timestamp is more than 5 minutes from now' });
    const future = String(now / 1000 + 301);
    expect(verifySlackSignature({ secret, timestamp: future, signature: sign(future), body, now }).ok).toBe(false);
    expect(verifySlackSignature({ secret, timestamp: undefined, signature: sign(ts), body, now }).ok).toBe(false);
    expect(verifySlackSignature({ secret, timestamp: ts, signature: undefined, body, now }).ok).toBe(false);
    expect(verifySlackSignature({ secret, timestamp: ts, signature: 'v1=abc', body, now })).toEqual({ ok: false, message: 'X-Slack-Signature is missing or malformed' });
  });
});
