// The event line of one outgoing webhook attempt (lib/webhooks/worker.ts), once its outcome is stored: which
// webhook, which event about which alert or broadcast, delivered or why not. docs/configuration.md, "What npm start prints".
import { outgoingWebhookAttempt, type OutgoingWebhookAttempt } from './events.ts';

/** What an attempt's commit stored. */
export interface StoredAttempt {
  outcome: OutgoingWebhookAttempt['outcome'];
  attempt: number;
  status_code: number | null;
  reason: string | null;
  next_attempt_at: string | null;
}

/** The alert or broadcast a payload (`{type, timestamp, data: {alert | broadcast}}`) is about. Pure. */
export function subjectOfPayload(body: string): { prefixId: string | null; title: string | null } {
  try {
    const data = (JSON.parse(body) as { data?: Record<string, { prefix_id?: unknown; title?: unknown } | undefined> }).data ?? {};
    const subject = data.alert ?? data.broadcast;
    return {
      prefixId: typeof subject?.prefix_id === 'string' ? subject.prefix_id : null,
      title: typeof subject?.title === 'string' ? subject.title : null,
    };
  } catch {
    return { prefixId: null, title: null };
  }
}

export function announceWebhookAttempt(
  webhook: { id: string; prefixId: string | null; name: string | null },
  delivery: { event_type: string; body: string },
  stored: StoredAttempt,
): void {
  const subject = subjectOfPayload(delivery.body);
  outgoingWebhookAttempt({
    ...stored,
    webhook_id: webhook.id,
    webhook_prefix_id: webhook.prefixId,
    webhook_name: webhook.name,
    event_type: delivery.event_type,
    subject_prefix_id: subject.prefixId,
    title: subject.title,
  });
}
