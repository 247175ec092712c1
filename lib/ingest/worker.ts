// Applies one ingest message. Effects are keyed by the request id, so at-least-once delivery is safe (docs/ingest.md).

import { webhookApplied } from '../activity/events.ts';
import { logger } from '../logger.ts';
import { ingestMessageSchema } from '../queue/ingest.ts';
import { applyWebhookRequest, type ReaderLookup } from './apply.ts';
import { readerOf } from './readers/index.ts';
import { logIdsOf, recordSourceLog } from './source-log.ts';

/** A message that can never succeed; it is retried by SQS and then parked in the dead-letter queue. */
export class PoisonMessageError extends Error {
  override name = 'PoisonMessageError';
}

export function parseIngestMessage(body: string) {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new PoisonMessageError('Ingest message is not JSON');
  }
  const parsed = ingestMessageSchema.safeParse(json);
  if (!parsed.success) throw new PoisonMessageError(`Ingest message does not fit its schema: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  return parsed.data;
}

/**
 * Keeps the request's log, then applies it to alerts (lib/ingest/apply.ts); both steps are safe to repeat. `readers`
 * finds the reader of an integration type (the list of lib/ingest/readers/index.ts unless a test passes its own).
 */
export async function processIngestBody(body: string, readers: ReaderLookup = readerOf): Promise<void> {
  const message = parseIngestMessage(body);
  const fresh = await recordSourceLog(message);
  const outcomes = await applyWebhookRequest(message, fresh, readers);
  // Debug: the source log records every request; a line per message is I/O on the worker's hot path.
  logger.debug('Ingest message applied', { requestId: message.requestId, integrationId: message.integrationId, duplicate: !fresh, outcome: outcomes.map((o) => o.result).join(',') });
  // One event line per event applied: a redelivery of an event already applied says nothing new.
  for (const outcome of outcomes) {
    if (outcome.result === 'already-applied' || !outcome.note) continue;
    webhookApplied({
      integration_id: message.integrationId,
      integration_prefix_id: outcome.integration?.prefixId ?? null,
      integration_name: outcome.integration?.data.name ?? null,
      log_id: logIdsOf(message).prefixId,
      result: outcome.result,
      note: outcome.note.message,
      alert_prefix_id: outcome.alert?.prefixId ?? null,
      title: outcome.alert?.data.title ?? null,
    });
  }
}
