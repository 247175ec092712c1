// What other domains use of outgoing webhooks: recording events in their own transactions. Each domain builds its own
// events (lib/alerts/webhook-events.ts, lib/broadcasts/webhook-events.ts): webhooks know no domain (decision 0034).
export { wakeWebhookTimers } from './wake.ts';
export { changeSequence, webhookEventWrites, WEBHOOK_CHANGE_WRITES, type WebhookEventDraft, type WebhookScope, type WebhookWrites } from './events.ts';
