// The ingest queue carries accepted webhook requests from the webhook Lambda to the worker.
// FIFO: one message group per integration and alert Id keeps each alert's events in order while
// different alerts are processed in parallel; the deduplication id makes a retried send harmless.

import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { config } from '../config.ts';
import { sqsClient } from './client.ts';

export const ingestMessageSchema = z.object({
  kind: z.literal('webhook'),
  /** Unique per accepted request; the worker's effects are keyed by it, so redelivery is idempotent. */
  requestId: z.string().min(1),
  accountId: z.string().min(1),
  integrationId: z.string().min(1),
  receivedAt: z.string().min(1),
  /** The request's method and path as sent (absent in messages queued before they were added: POST /integration/<id>). */
  method: z.string().optional(),
  path: z.string().optional(),
  /** The alert Id of the payload (thirdparty_id), when the payload names one. */
  alertKey: z.string().optional(),
  headers: z.record(z.string(), z.string()),
  query: z.record(z.string(), z.string()),
  sourceIp: z.string().optional(),
  body: z.unknown(),
  /** What the intake did for the request before queueing it (a reader's `accepted` step), for its log. */
  intakeNotes: z.array(z.string()).optional(),
});
export type IngestMessage = z.infer<typeof ingestMessageSchema>;

/** FIFO group ids are at most 128 characters of a restricted set, so the alert key is hashed. */
export function messageGroupOf(integrationId: string, alertKey: string | undefined): string {
  const key = alertKey ? createHash('sha256').update(alertKey).digest('hex').slice(0, 32) : 'none';
  return `${integrationId}:${key}`;
}

/**
 * The message as the queue's text: JSON whose characters beyond the Basic Multilingual Plane (an emoji in Uptime Kuma's
 * "🔴 Down") are written as their \uD83D\uDD34 escapes. The same JSON once parsed; SQS takes those characters, but the
 * local emulator refuses any (docs/ingest.md, section 2), and a sender would be answered 503 forever.
 */
export const ingestMessageText = (message: IngestMessage): string =>
  JSON.stringify(message).replace(/[\u{10000}-\u{10FFFF}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`);

/** Queues a message; `body` is its text (ingestMessageText) when the caller already has it (the webhook measures its size). */
export async function enqueueIngest(message: IngestMessage, body: string = ingestMessageText(message)): Promise<void> {
  const queueUrl = config().ingestQueueUrl;
  if (!queueUrl) throw new Error('HARK_INGEST_QUEUE_URL is not set');
  await sqsClient().send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      MessageGroupId: messageGroupOf(message.integrationId, message.alertKey),
      MessageDeduplicationId: createHash('sha256').update(message.requestId).digest('hex'),
    }),
  );
}
