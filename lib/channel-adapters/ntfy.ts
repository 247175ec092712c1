// The push channel through ntfy (docs/notifications.md, "Push"): people install the ntfy app (or use its web app)
// and subscribe to their own topic; Hark publishes to it with ntfy's JSON publish API, with the alert's signed
// links as `http` action buttons (the app POSTs the link: the same as the confirmation page's form) and a
// `view` button opening the confirmation page. Each person's topic is derived with an HMAC, so it cannot be
// guessed from their ids, and the server can keep topics open (ntfy.sh) without leaking pages.
import { createHmac } from 'node:crypto';
import type { HarkConfig } from '../config.ts';
import type { ChannelAdapter, OutgoingMessage, SendResult } from './port.ts';

/** ntfy's "high" priority: a long vibration and a pop-over on phones. */
const PUSH_PRIORITY = 4;
const PUBLISH_TIMEOUT_MS = 10_000;

/** The person's topic: `hark_` and 24 characters of an HMAC of their account and account user ids. */
export function pushTopic(topicKey: string, accountId: string, accountUserId: string): string {
  return `hark_${createHmac('sha256', topicKey).update(`ntfy-topic:${accountId}:${accountUserId}`, 'utf8').digest('base64url').slice(0, 24)}`;
}

export interface NtfyOptions {
  /** The server, such as https://ntfy.sh. */
  readonly url: string;
  readonly token?: string | undefined;
  readonly topicKey: string;
}

/** ntfy's JSON publish body for one message. */
function ntfyPublication(message: OutgoingMessage, topic: string) {
  return {
    topic,
    title: message.subject,
    message: message.text,
    priority: PUSH_PRIORITY,
    tags: [message.about.ownerType === 'alert' ? 'rotating_light' : 'loudspeaker'],
    actions: message.actions.map((a) => ({ action: 'http', label: a.label, url: a.url, method: 'POST', clear: true })),
    // Tapping the notification opens the confirmation page of the first action (nothing acts on a GET).
    ...(message.actions[0] ? { click: message.actions[0].url } : {}),
  };
}

/** 429 and 5xx are the server's trouble and retried; other 4xx (bad token, refused topic) are permanent. */
function ntfyFailure(status: number, body: string): SendResult {
  const retryable = status === 429 || status >= 500;
  const error = `ntfy ${status}: ${body.slice(0, 300)}`;
  // The server's own trouble counts toward its breaker (docs/decisions/0032-provider-breaker.md).
  return retryable ? { status: 'failed', retryable, error, scope: 'provider' } : { status: 'failed', retryable, error };
}

/** The id ntfy answers a publication with (null if the answer is not ntfy's JSON). */
function messageIdOf(body: string): string | null {
  try {
    return (JSON.parse(body) as { id?: string }).id ?? null;
  } catch {
    return null;
  }
}

export function ntfyAdapterOf(options: NtfyOptions): ChannelAdapter {
  const endpoint = options.url.replace(/\/+$/, '');
  return {
    channel: 'push',
    provider: 'ntfy',
    async send(message) {
      const topic = pushTopic(options.topicKey, message.accountId, message.accountUserId);
      let response: Response;
      try {
        response = await fetch(`${endpoint}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
          body: JSON.stringify(ntfyPublication(message, topic)),
          signal: AbortSignal.timeout(PUBLISH_TIMEOUT_MS),
        });
      } catch (error) {
        return { status: 'failed', retryable: true, error: `ntfy unreachable: ${(error as Error).message}`, scope: 'provider' };
      }
      const body = await response.text();
      if (!response.ok) return ntfyFailure(response.status, body);
      return { status: 'sent', providerMessageId: messageIdOf(body) };
    },
  };
}

/** Where a person subscribes, for GET /account_users/{id}/push. */
export function pushSubscriptionOf(config: HarkConfig, accountId: string, accountUserId: string) {
  const { url, topicKey } = config.ntfy;
  if (!url || !topicKey) return { provider: null, server: null, topic: null, subscribe_url: null };
  const server = url.replace(/\/+$/, '');
  const topic = pushTopic(topicKey, accountId, accountUserId);
  return { provider: 'ntfy', server, topic, subscribe_url: `${server}/${topic}` };
}

/** The push adapter the configuration names, or undefined when HARK_NTFY_URL (or a topic key) is unset. */
export function ntfyAdapter(config: HarkConfig): ChannelAdapter | undefined {
  const { url, token, topicKey } = config.ntfy;
  return url && topicKey ? ntfyAdapterOf({ url, token, topicKey }) : undefined;
}
