// What other domains use of outgoing webhooks: recording events in their own transactions.
export { alertChangeEvents, alertCommentedEvents, alertEventsToRecord, alertPayload, outgoingWebhookCount } from '../alerts/webhook-events.ts';
export { wakeWebhookTimers } from './wake.ts';
export { changeSequence, webhookEventWrites, WEBHOOK_CHANGE_WRITES, type WebhookEventDraft, type WebhookScope, type WebhookWrites } from './events.ts';
