// Applies one ingest message. Effects are keyed by the request id, so at-least-once delivery is safe (docs/ingest.md).

import { webhookApplied } from '../activity/events.ts';
import { logger } from '../logger.ts';
import { ingestMessageSchema } from '../queue/ingest.ts';
import { applyWebhookRequest, type ReaderLookup } from './apply.ts';
import type { ApplyOutcome } from './commit.ts';
import { LogAlreadyKept } from './mark.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { readerOf } from '../monitor-readers/index.ts';
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
 * Keeps the request's log and applies it to alerts (lib/ingest/apply.ts); safe to repeat. `readers` finds the reader
 * of an integration type (the list of lib/monitor-readers/index.ts unless a test passes its own). `firstDelivery`: the
 * queue hands the message over for the first time (SQS's receive count is 1), so its log is most likely not stored
 * yet and is written in the transaction of the first event's change; a redelivery keeps its log first and reads what
 * an earlier delivery did (docs/ingest.md, "Exactly-once effects").
 */
export async function processIngestBody(body: string, readers: ReaderLookup = readerOf, firstDelivery = true): Promise<void> {
  const message = parseIngestMessage(body);
  const outcomes = firstDelivery ? await applyFirstDelivery(message, readers) : await applyRedelivery(message, readers);
  // Debug: the source log records every request; a line per message is I/O on the worker's hot path.
  logger.debug('Ingest message applied', { requestId: message.requestId, integrationId: message.integrationId, firstDelivery, outcome: outcomes.map((o) => o.result).join(',') });
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

async function applyRedelivery(message: IngestMessage, readers: ReaderLookup): Promise<ApplyOutcome[]> {
  return applyWebhookRequest(message, (await recordSourceLog(message)) ? 'fresh' : 'redelivered', readers);
}

/**
 * The log rides in the first write. When the log turns out to be there, the request is applied as a redelivery; when
 * applying fails (storage unavailable, a race lost every time), the log is kept alone before the message goes back to
 * the queue, so a request that keeps failing still shows in the logs with the request as sent.
 */
async function applyFirstDelivery(message: IngestMessage, readers: ReaderLookup): Promise<ApplyOutcome[]> {
  try {
    return await applyWebhookRequest(message, 'new', readers);
  } catch (error) {
    if (error instanceof LogAlreadyKept) return applyWebhookRequest(message, 'redelivered', readers);
    // The message is retried whatever this write does; its own failure must not hide the first one.
    await recordSourceLog(message).catch((keepError: unknown) => logger.warn('Could not keep the log of a request that failed', { requestId: message.requestId, error: keepError as Error }));
    throw error;
  }
}
