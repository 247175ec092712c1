// An SNS subscription of an aws_cloudwatch integration: confirmed by Hark once its SubscriptionConfirmation is
// verified (GET SubscribeURL, only SNS's hosts), shown on the integration with its status; a failed confirmation keeps
// the SubscribeURL so an admin can open it by hand (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)").
import { nowIso } from '../../clock.ts';
import { isConditionFailure } from '../../db/conditions.ts';
import { queryPrefix, transact } from '../../db/items.ts';
import { snsSubscriptionKey, snsSubscriptionsPk } from '../../db/keys.ts';
import { SNS_CERTIFICATE_FETCH_MS } from '../../limits.ts';
import type { IntakeContext, ReaderRequest } from '../../monitor-readers/types.ts';
import { isSnsUrl, snsMessageOf, type SnsMessage } from '../../monitor-readers/sns/message.ts';

export type SubscriptionStatus = 'pending' | 'confirmed' | 'failed';

interface SubscriptionItem {
  pk: string;
  sk: string;
  type: 'SNS_SUBSCRIPTION';
  topicArn: string;
  status: SubscriptionStatus;
  confirmedAt: string | null;
  updatedAt: string;
  /** Kept while not confirmed, so an admin can confirm by hand. */
  subscribeUrl?: string;
  reason?: string;
}

export interface RenderedSubscription {
  topic_arn: string;
  status: SubscriptionStatus;
  confirmed_at: string | null;
  subscribe_url?: string;
  failure_reason?: string;
}

/**
 * Writes the topic's status. A confirmed subscription stays confirmed: a pending or failed status (a repeated
 * confirmation message that could not reach SNS) does not overwrite it; false then.
 */
async function store(accountId: string, integrationId: string, item: Omit<SubscriptionItem, 'pk' | 'sk' | 'type' | 'updatedAt'>): Promise<boolean> {
  const Item = { ...snsSubscriptionKey(accountId, integrationId, item.topicArn), type: 'SNS_SUBSCRIPTION', ...item, updatedAt: nowIso() };
  const condition =
    item.status === 'confirmed'
      ? {}
      : { ConditionExpression: 'attribute_not_exists(pk) OR #status <> :confirmed', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':confirmed': 'confirmed' } };
  try {
    await transact([{ Put: { Item, ...condition } }]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** GETs the SubscribeURL (SNS's hosts only, no redirects, bounded in time); the reason when it did not confirm. */
async function confirm(url: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!isSnsUrl(url)) return { ok: false, reason: 'SubscribeURL is not an Amazon SNS URL' };
  try {
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(SNS_CERTIFICATE_FETCH_MS) });
    await response.body?.cancel();
    return response.ok ? { ok: true } : { ok: false, reason: `SNS answered ${response.status}` };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    return { ok: false, reason: `the SubscribeURL could not be reached (${cause ?? (error as Error).message})` };
  }
}

/**
 * Confirms a verified SubscriptionConfirmation and records the outcome on the integration: pending while it is tried,
 * then confirmed, or failed with the reason and the SubscribeURL. Returns the log's note. Repeating it is harmless (SNS
 * confirms a subscription once; a later try overwrites the status).
 */
export async function confirmSubscription(accountId: string, integrationId: string, message: SnsMessage): Promise<string> {
  const url = message.SubscribeURL!;
  if (!(await store(accountId, integrationId, { topicArn: message.TopicArn, status: 'pending', confirmedAt: null, subscribeUrl: url }))) {
    return `The subscription to topic ${message.TopicArn} is already confirmed`;
  }
  const outcome = await confirm(url);
  if (outcome.ok) {
    await store(accountId, integrationId, { topicArn: message.TopicArn, status: 'confirmed', confirmedAt: nowIso() });
    return `Confirmed the subscription to topic ${message.TopicArn}`;
  }
  await store(accountId, integrationId, { topicArn: message.TopicArn, status: 'failed', confirmedAt: null, subscribeUrl: url, reason: outcome.reason });
  return `Could not confirm the subscription to topic ${message.TopicArn}: ${outcome.reason}. Open its SubscribeURL by hand to confirm it: ${url}`;
}

/** The integration's subscriptions as `GET /integrations/:id` shows them, by topic. */
export async function subscriptionsOf(accountId: string, integrationId: string): Promise<RenderedSubscription[]> {
  const items = await queryPrefix<SubscriptionItem>(snsSubscriptionsPk(accountId, integrationId), 'SUB#');
  return items.map((item) => ({
    topic_arn: item.topicArn,
    status: item.status,
    confirmed_at: item.confirmedAt,
    ...(item.status !== 'confirmed' && item.subscribeUrl ? { subscribe_url: item.subscribeUrl } : {}),
    ...(item.reason && item.status === 'failed' ? { failure_reason: item.reason } : {}),
  }));
}

/** The aws_cloudwatch intake step: a verified SubscriptionConfirmation is confirmed at once; other messages pass. */
export async function confirmOnIntake(request: ReaderRequest, context: IntakeContext): Promise<{ notes: string[] }> {
  const parsed = snsMessageOf(request.body);
  if (!parsed.ok || parsed.message.Type !== 'SubscriptionConfirmation') return { notes: [] };
  return { notes: [await confirmSubscription(context.accountId, context.integrationId, parsed.message)] };
}
