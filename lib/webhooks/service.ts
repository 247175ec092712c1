// Outgoing webhook subscriptions (admin only): create (the secret shown once), read, update (re-enabling resumes
// paused deliveries), delete, secret rotation with a grace period, the delivery log, replay and a test event.
// docs/outgoing-webhooks.md.
import { monotonicFactory } from 'ulid';
import { nowMs } from '../clock.ts';
import { getItem, queryAll, transact } from '../db/items.ts';
import { subscriptionDeliveriesGsi, webhookHealthKey } from '../db/keys.ts';
import { resolveIdList } from '../db/references.ts';
import { countOf, createEntities, getEntity, newEntityItem, putNewVersion, removeEntity, renderCommon, type EntityItem } from '../db/repository.ts';
import { changedMeanwhile, retryOnConflict } from '../db/retry.ts';
import { entityCollection } from '../db/pages.ts';
import { putNew } from '../db/writes.ts';
import { conflict, invalid, limitExceeded, notFound } from '../errors.ts';
import { MAX_OUTGOING_WEBHOOKS, WEBHOOK_DEFAULT_TIMEOUT_SECONDS, WEBHOOK_SECRET_GRACE_SECONDS } from '../limits.ts';
import type { DurableTimer } from '../timers/index.ts';
import { wakeWebhookTimers } from './wake.ts';
import { urlProblem } from './address.ts';
import { attemptTimer, attemptTimerPut, deliveryWrite, newDelivery, renderDelivery, type DeliveryItem } from './deliveries.ts';
import { changeSequence } from './events.ts';
import {
  TEST_EVENT_TYPE,
  type OutgoingWebhookCreateInput,
  type OutgoingWebhookData,
  type OutgoingWebhookUpdateInput,
} from './schema.ts';
import { newSigningSecret, rotatedSecrets, signingSecrets } from './signing.ts';
import { addressPolicy } from './address-policy.ts';

const nextId = monotonicFactory();
export type OutgoingWebhookItem = EntityItem<OutgoingWebhookData>;

/** The API object: never a secret, only when the secrets that sign now were created and until when. */
export function renderOutgoingWebhook(item: OutgoingWebhookItem): Record<string, unknown> {
  const { meta, created_at, updated_at, ...ids } = renderCommon(item);
  const d = item.data;
  return {
    ...ids,
    name: d.name,
    url: d.url,
    events: d.events,
    filters: d.filters,
    enabled: d.enabled,
    timeout_seconds: d.timeout_seconds,
    disabled_reason: d.disabled_reason,
    disabled_at: d.disabled_at,
    secrets: signingSecrets(d.secrets, new Date(nowMs()).toISOString()).map((s) => ({ created_at: s.created_at, expires_at: s.expires_at })),
    meta,
    created_at,
    updated_at,
  };
}

export const getOutgoingWebhook = (accountId: string, id: string) => getEntity<OutgoingWebhookData>('OUTGOING_WEBHOOK', accountId, id);
export const outgoingWebhookListSource = (accountId: string) =>
  entityCollection('OUTGOING_WEBHOOK', accountId, (items: OutgoingWebhookItem[]) => items.map(renderOutgoingWebhook));

async function checkedFields(accountId: string, input: OutgoingWebhookUpdateInput, current?: OutgoingWebhookData) {
  const problems: string[] = [];
  const url = input.url ?? current?.url;
  if (input.url !== undefined) {
    const problem = urlProblem(input.url, addressPolicy());
    if (problem) problems.push(problem);
  }
  const teamIds = input.filters?.team_ids ?? (input.filters ? [] : (current?.filters.team_ids ?? []));
  const teams = await resolveIdList('TEAM', accountId, 'filters.team_ids', 'team', teamIds);
  problems.push(...teams.problems);
  if (problems.length > 0) throw invalid(problems);
  return { url: url!, filters: { team_ids: teams.ids, urgencies: [...new Set(input.filters?.urgencies ?? (input.filters ? [] : (current?.filters.urgencies ?? [])))] } };
}

/** POST /outgoing_webhooks: the answer carries `secret` this once. */
export async function createOutgoingWebhook(accountId: string, input: OutgoingWebhookCreateInput): Promise<{ item: OutgoingWebhookItem; secret: string }> {
  const fields = await checkedFields(accountId, input);
  // Checked before the write: two creates racing at the cap may both pass (the collection's own cap still holds).
  if ((await countOf(accountId, 'OUTGOING_WEBHOOK')) >= MAX_OUTGOING_WEBHOOKS) throw limitExceeded(`An account can hold at most ${MAX_OUTGOING_WEBHOOKS} outgoing webhooks`);
  const secret = newSigningSecret();
  const now = new Date(nowMs()).toISOString();
  const data: OutgoingWebhookData = {
    name: input.name,
    url: fields.url,
    events: [...new Set(input.events)],
    filters: fields.filters,
    enabled: input.enabled ?? true,
    timeout_seconds: input.timeout_seconds ?? WEBHOOK_DEFAULT_TIMEOUT_SECONDS,
    disabled_reason: null,
    disabled_at: null,
    secrets: [{ secret, created_at: now, expires_at: null }],
  };
  const item = await newEntityItem<OutgoingWebhookData>('OUTGOING_WEBHOOK', accountId, data, { meta: input.meta ?? {} });
  await createEntities([item as EntityItem<unknown>]);
  return { item, secret };
}

/** PUT: only the fields sent change. Enabling a disabled subscription resumes its paused deliveries, oldest first in each lane. */
export async function updateOutgoingWebhook(accountId: string, id: string, input: OutgoingWebhookUpdateInput): Promise<OutgoingWebhookItem> {
  const next = await retryOnConflict(
    async () => {
      const current = await getOutgoingWebhook(accountId, id);
      const fields = await checkedFields(accountId, input, current.data);
      const enabled = input.enabled ?? current.data.enabled;
      const data: OutgoingWebhookData = {
        ...current.data,
        name: input.name ?? current.data.name,
        url: fields.url,
        events: input.events ? [...new Set(input.events)] : current.data.events,
        filters: fields.filters,
        enabled,
        timeout_seconds: input.timeout_seconds ?? current.data.timeout_seconds,
        disabled_reason: enabled ? null : current.data.disabled_reason,
        disabled_at: enabled ? null : current.data.disabled_at,
      };
      // Enabling again starts a new failure streak (docs/outgoing-webhooks.md, "When Hark gives up").
      const restart = enabled && !current.data.enabled ? [{ Delete: { Key: webhookHealthKey(accountId, current.id) } }] : [];
      return putNewVersion(current, data, { ...(input.meta !== undefined ? { meta: input.meta } : {}), extraItems: () => restart });
    },
    { exhausted: changedMeanwhile('Outgoing webhook') },
  );
  // Only a PUT that sends `enabled: true` resumes (docs/outgoing-webhooks.md): a rename does not read the delivery log.
  if (input.enabled === true) await resumePaused(next);
  return next;
}

const deliveriesOf = (accountId: string, subscriptionId: string) =>
  queryAll<DeliveryItem>({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': subscriptionDeliveriesGsi(accountId, subscriptionId) } });

/** Every paused delivery (each the head of its lane) gets an attempt now; a delivery changed meanwhile is left as it is. */
async function resumePaused(sub: OutgoingWebhookItem): Promise<void> {
  const paused = (await deliveriesOf(sub.accountId, sub.id)).filter((d) => d.state === 'paused');
  const timers: DurableTimer[] = [];
  for (const stale of paused) {
    await retryOnConflict(
      async () => {
        const d = await getItem<DeliveryItem>(stale);
        if (!d || d.state !== 'paused') return;
        const now = nowMs();
        const at = new Date(now).toISOString();
        const timer = attemptTimer(d, nextId(now), at);
        await transact([deliveryWrite(d, { ...d, state: 'pending', next_attempt_at: at, updated_at: at }), attemptTimerPut(d, timer, at)]);
        timers.push(timer);
      },
      { exhausted: changedMeanwhile('Delivery') },
    );
  }
  await wakeWebhookTimers(timers);
}

/** DELETE: the subscription goes; its deliveries still queued are failed when their timers fire, then expire. */
export async function deleteOutgoingWebhook(accountId: string, id: string): Promise<void> {
  await removeEntity<OutgoingWebhookData>('OUTGOING_WEBHOOK', accountId, id);
}

/** POST /outgoing_webhooks/:id/rotate_secret: a new secret (answered this once); the old ones sign until the grace ends. */
export async function rotateSecret(accountId: string, id: string, graceSeconds = WEBHOOK_SECRET_GRACE_SECONDS): Promise<{ item: OutgoingWebhookItem; secret: string }> {
  const secret = newSigningSecret();
  const item = await retryOnConflict(
    async () => {
      const current = await getOutgoingWebhook(accountId, id);
      const now = new Date(nowMs()).toISOString();
      return putNewVersion(current, { ...current.data, secrets: rotatedSecrets(current.data.secrets, secret, now, graceSeconds) });
    },
    { exhausted: changedMeanwhile('Outgoing webhook') },
  );
  return { item, secret };
}

// The delivery log ---------------------------------------------------------------------------------------------

/** GET /outgoing_webhooks/:id/deliveries: every delivery kept (WEBHOOK_DELIVERY_RETENTION_DAYS after it ended). */
export async function deliveryList(accountId: string, id: string): Promise<Record<string, unknown>[]> {
  const sub = await getOutgoingWebhook(accountId, id);
  return (await deliveriesOf(accountId, sub.id)).map(renderDelivery);
}

async function findDelivery(accountId: string, subscriptionId: string, deliveryId: string): Promise<DeliveryItem> {
  const [found] = await queryAll<DeliveryItem>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :id',
    ExpressionAttributeValues: { ':pk': subscriptionDeliveriesGsi(accountId, subscriptionId), ':id': deliveryId },
  });
  if (!found) throw notFound('Delivery');
  return found;
}

/**
 * POST …/deliveries/:delivery_id/replay: one more attempt now, with the event's own `webhook-id` and body, outside
 * the lane's order. Only a finished delivery can be replayed (one still being sent answers 409).
 */
export async function replayDelivery(accountId: string, id: string, deliveryId: string): Promise<DeliveryItem> {
  const sub = await getOutgoingWebhook(accountId, id);
  const { next, timer } = await retryOnConflict(
    async () => {
      const listed = await findDelivery(accountId, sub.id, deliveryId);
      const d = await getItem<DeliveryItem>(listed);
      if (!d) throw notFound('Delivery');
      if (d.state !== 'delivered' && d.state !== 'failed') throw conflict(`Delivery is ${d.state}; only a delivered or failed delivery can be replayed`);
      const now = nowMs();
      const at = new Date(now).toISOString();
      const timer = attemptTimer(d, nextId(now), at);
      const { ttl: _ttl, ...kept } = d;
      const next: DeliveryItem = { ...kept, state: 'pending', trigger: 'manual', next_attempt_at: at, final_reason: null, updated_at: at };
      await transact([deliveryWrite(d, next), attemptTimerPut(d, timer, at)]);
      return { next: { ...next, version: d.version + 1 }, timer };
    },
    { exhausted: changedMeanwhile('Delivery') },
  );
  await wakeWebhookTimers([timer]);
  return next;
}

/** POST /outgoing_webhooks/:id/test: a `webhook.test` event with a sample alert, sent once now (also when disabled). */
export async function sendTestEvent(accountId: string, id: string): Promise<DeliveryItem> {
  const sub = await getOutgoingWebhook(accountId, id);
  const now = nowMs();
  const at = new Date(now).toISOString();
  const event = {
    id: `msg_${nextId(now)}`,
    type: TEST_EVENT_TYPE,
    timestamp: at,
    data: { alert: { id: '00000000000000000000000000', prefix_id: 'alt_SampleAlert1', title: 'Test event from Hark', urgency: 'low', status: 'open' } },
  };
  // A test has a lane of its own (the subscription's id as subject), so it never waits behind real events.
  const delivery = newDelivery(
    { accountId, subscriptionId: sub.id, subjectId: sub.id, sequence: changeSequence(0, now), index: 0, event, alertId: null },
    nextId(now),
    'pending',
    'manual',
    at,
  );
  const timer = attemptTimer(delivery, nextId(now), at);
  await transact([putNew(delivery), attemptTimerPut(delivery, timer, at)]);
  await wakeWebhookTimers([timer]);
  return delivery;
}
