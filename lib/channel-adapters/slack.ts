// The Slack channel (docs/notifications.md, "Slack"): a direct message from the Hark app to the person, found by
// their email (users.lookupByEmail), with Block Kit Acknowledge / Resolve buttons; and the check that a button
// click really comes from Slack (X-Slack-Signature: v0, HMAC-SHA256 of `v0:<timestamp>:<raw body>`).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HarkConfig } from '../config.ts';
import { SLACK_REQUEST_MAX_AGE_MS } from '../limits.ts';
import type { AdapterServices, ChannelAdapter, OutgoingMessage, SendResult } from './port.ts';

const CALL_TIMEOUT_MS = 10_000;
/** Button action ids: `hark_<action>`; the button's value says which alert (or broadcast). */
export const SLACK_ACTION_PREFIX = 'hark_';

/** What a button stands for: the owner and the account it belongs to, and the action. */
export interface SlackButtonValue {
  readonly ownerType: 'alert' | 'broadcast';
  readonly ownerId: string;
  readonly accountId: string;
  readonly action: string;
}

export type SlackCall = { ok: true; body: Record<string, unknown> } | { ok: false; retryable: boolean; error: string; scope?: 'provider' };

/** Slack's errors that are Slack's trouble (retried); every other `ok: false` is permanent (auth, scopes, channel). */
const RETRYABLE_ERRORS = new Set(['ratelimited', 'fatal_error', 'internal_error', 'service_unavailable', 'request_timeout']);

/** One Web API call with the bot token: JSON in, `{ok, …}` out. */
export async function slackCall(apiUrl: string, token: string, method: string, body: Record<string, unknown>): Promise<SlackCall> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, retryable: true, error: `Slack unreachable: ${(error as Error).message}`, scope: 'provider' };
  }
  if (response.status === 429 || response.status >= 500) return { ok: false, retryable: true, error: `Slack ${method} ${response.status}`, scope: 'provider' };
  let parsed: Record<string, unknown>;
  try {
    parsed = (await response.json()) as Record<string, unknown>;
  } catch {
    return { ok: false, retryable: true, error: `Slack ${method} ${response.status}: not JSON` };
  }
  if (parsed.ok === true) return { ok: true, body: parsed };
  const error = String(parsed.error ?? `status ${response.status}`);
  return { ok: false, retryable: RETRYABLE_ERRORS.has(error), error: `Slack ${method}: ${error}` };
}

const STYLES: Record<string, string> = { acknowledge: 'primary', resolve: 'danger' };

/** The message's blocks: its line in bold and its text, then one button per action still possible. */
function slackBlocks(message: Pick<OutgoingMessage, 'subject' | 'text' | 'about' | 'accountId'>, actions: readonly { action: string; label: string }[], note?: string) {
  const blocks: Record<string, unknown>[] = [{ type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(message.subject)}*\n${escapeMrkdwn(message.text)}` } }];
  if (note) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(note) }] });
  const owner = { ownerType: message.about.ownerType, ownerId: message.about.ownerId, accountId: message.accountId };
  if (actions.length) blocks.push({ type: 'actions', elements: slackButtons(owner, actions) });
  return blocks;
}

/** One button per action, each carrying what it acts on (the owner) and the action; a click comes back with it. */
export function slackButtons(owner: Omit<SlackButtonValue, 'action'>, actions: readonly { action: string; label: string }[]): Record<string, unknown>[] {
  return actions.map((a) => ({
    type: 'button',
    action_id: `${SLACK_ACTION_PREFIX}${a.action}`,
    text: { type: 'plain_text', text: a.label },
    value: JSON.stringify({ ...owner, action: a.action } satisfies SlackButtonValue),
    ...(STYLES[a.action] ? { style: STYLES[a.action] } : {}),
  }));
}

/** Slack's mrkdwn control characters, escaped as Slack asks (&, <, >). */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The buttons of a message about an alert: its actions, or Acknowledge and Resolve when it carries no links. */
const buttonsOf = (message: OutgoingMessage) =>
  message.actions.length ? message.actions : message.about.ownerType === 'alert' ? [{ action: 'acknowledge', label: 'Acknowledge' }, { action: 'resolve', label: 'Resolve' }] : [];

export interface SlackOptions {
  readonly apiUrl: string;
  readonly botToken: string;
  /** The person's primary email, to find them in Slack; undefined when they have none. */
  readonly emailOf: (accountId: string, accountUserId: string) => Promise<string | undefined>;
}

const failed = (call: Extract<SlackCall, { ok: false }>): SendResult => ({ status: 'failed', retryable: call.retryable, error: call.error, ...(call.scope ? { scope: call.scope } : {}) });

export function slackAdapterOf(options: SlackOptions): ChannelAdapter {
  return {
    channel: 'slack',
    provider: 'slack',
    async send(message) {
      const email = message.to.includes('@') ? message.to : await options.emailOf(message.accountId, message.accountUserId);
      if (!email) return { status: 'suppressed', reason: 'the person has no email address to find them in Slack' };
      const lookup = await slackCall(options.apiUrl, options.botToken, 'users.lookupByEmail', { email });
      if (!lookup.ok) {
        return lookup.error.endsWith('users_not_found') ? { status: 'suppressed', reason: `no Slack user has the email ${email}` } : failed(lookup);
      }
      const user = (lookup.body.user ?? {}) as { id?: string };
      const posted = await slackCall(options.apiUrl, options.botToken, 'chat.postMessage', {
        channel: user.id,
        text: `${message.subject}\n${message.text}`,
        blocks: slackBlocks(message, buttonsOf(message)),
        unfurl_links: false,
      });
      if (!posted.ok) return failed(posted);
      return { status: 'sent', providerMessageId: `${String(posted.body.channel)}/${String(posted.body.ts)}` };
    },
  };
}

export type SignatureCheck = { ok: true } | { ok: false; message: string };

/**
 * Slack's request signing: `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw
 * body>` with the signing secret, compared in constant time; a timestamp more than 5 minutes from now is refused
 * (a replay), before the MAC is even computed.
 */
export function verifySlackSignature(input: { secret: string; timestamp: string | undefined; signature: string | undefined; body: string; now: number }): SignatureCheck {
  const { secret, timestamp, signature, body, now } = input;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, message: 'X-Slack-Request-Timestamp is missing or not a Unix time' };
  if (Math.abs(now - Number(timestamp) * 1000) > SLACK_REQUEST_MAX_AGE_MS) return { ok: false, message: 'X-Slack-Request-Timestamp is more than 5 minutes from now' };
  if (!signature || !/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, message: 'X-Slack-Signature is missing or malformed' };
  const expected = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`, 'utf8').digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return timingSafeEqual(given, expected) ? { ok: true } : { ok: false, message: 'X-Slack-Signature does not match' };
}

/** The Slack adapter the configuration names, or undefined without a bot token. */
export function slackAdapter(config: HarkConfig, services: Pick<AdapterServices, 'primaryEmailOf'>): ChannelAdapter | undefined {
  const { botToken, apiUrl } = config.slack;
  return botToken ? slackAdapterOf({ apiUrl, botToken, emailOf: services.primaryEmailOf }) : undefined;
}
