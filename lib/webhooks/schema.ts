// Outgoing webhook subscriptions: the API's fields, their validation and the stored shape.
// Behaviour: docs/outgoing-webhooks.md.
import { z } from 'zod';
import { booleanFlag, idList, metaSchema, requiredText, wordOf } from '../api-shapes/schemas.ts';
import { MAX_TEAMS_PER_REQUEST, WEBHOOK_MAX_SECRET_GRACE_SECONDS, WEBHOOK_MAX_TIMEOUT_SECONDS } from '../limits.ts';
import { URGENCIES } from '../rule-engine/index.ts';

/** The events a subscription may ask for: alerts' (lib/alerts) and broadcasts' (lib/broadcasts/webhook-events.ts). */
export const WEBHOOK_EVENT_TYPES = [
  'alert.created',
  'alert.open',
  'alert.acknowledged',
  'alert.rejected',
  'alert.timeout',
  'alert.resolved',
  'alert.dropped',
  'alert.updated',
  'alert.commented',
  'broadcast.created',
  'broadcast.open',
  'broadcast.closed',
  'broadcast.errored',
  'broadcast.responded',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The sample event of POST /outgoing_webhooks/:id/test; never subscribed to. */
export const TEST_EVENT_TYPE = 'webhook.test';

const url = z.string({ error: 'must be a string' }).trim().min(1, "can't be blank").max(2048, 'is longer than 2048 characters');
const timeoutSeconds = z
  .number({ error: 'must be a whole number of seconds' })
  .int('must be a whole number of seconds')
  .min(1, `must be from 1 to ${WEBHOOK_MAX_TIMEOUT_SECONDS}`)
  .max(WEBHOOK_MAX_TIMEOUT_SECONDS, `must be from 1 to ${WEBHOOK_MAX_TIMEOUT_SECONDS}`);
const events = z.array(wordOf(WEBHOOK_EVENT_TYPES), { error: 'must be a list of event types' }).min(1, 'must name at least one event type');
const filters = z
  .object(
    {
      team_ids: idList.max(MAX_TEAMS_PER_REQUEST, `must hold at most ${MAX_TEAMS_PER_REQUEST} ids`).optional(),
      urgencies: z.array(wordOf(URGENCIES), { error: 'must be a list of urgencies' }).optional(),
    },
    { error: 'must be an object' },
  )
  .strict();

export const outgoingWebhookCreate = z.object({
  name: requiredText(),
  url,
  events,
  filters: filters.optional(),
  enabled: booleanFlag.optional(),
  timeout_seconds: timeoutSeconds.optional(),
  meta: metaSchema,
});
export const outgoingWebhookUpdate = outgoingWebhookCreate.partial();
export const rotateSecretInput = z.object({
  grace_seconds: z
    .number({ error: 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, `must be from 0 to ${WEBHOOK_MAX_SECRET_GRACE_SECONDS}`)
    .max(WEBHOOK_MAX_SECRET_GRACE_SECONDS, `must be from 0 to ${WEBHOOK_MAX_SECRET_GRACE_SECONDS}`)
    .optional(),
});

export type OutgoingWebhookCreateInput = z.output<typeof outgoingWebhookCreate>;
export type OutgoingWebhookUpdateInput = z.output<typeof outgoingWebhookUpdate>;

/** One signing secret; a rotated-out one keeps signing until `expires_at`. */
export interface SigningSecret {
  secret: string;
  created_at: string;
  expires_at: string | null;
}

/** Stored fields of an OUTGOING_WEBHOOK. The secrets are never rendered. */
export interface OutgoingWebhookData {
  name: string;
  url: string;
  events: WebhookEventType[];
  filters: { team_ids: string[]; urgencies: string[] };
  enabled: boolean;
  timeout_seconds: number;
  /** Why Hark disabled it (410 Gone, days of failure); null when enabled or disabled by a person. */
  disabled_reason: string | null;
  disabled_at: string | null;
  secrets: SigningSecret[];
}
