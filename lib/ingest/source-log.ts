// Every accepted webhook request is kept as a source log owned by its integration (docs/ingest.md, "Source logs"),
// written once per request id so a redelivered message changes nothing.

import { putIfAbsent, queryIndexNewest } from '../db/items.ts';
import type { IngestMessage } from '../queue/ingest.ts';

export const sourceLogKey = (accountId: string, requestId: string) => ({ pk: `A#${accountId}#LOG#${requestId}`, sk: 'LOG' });
export const integrationLogsGsi = (accountId: string, integrationId: string) => `A#${accountId}#INTLOGS#${integrationId}`;

export interface SourceLog {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  type: 'SOURCE_LOG';
  id: string;
  accountId: string;
  integrationId: string;
  receivedAt: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  sourceIp?: string;
  notes: string[];
}

/** Returns false when the log already existed (the message was delivered before). */
export async function recordSourceLog(message: IngestMessage, notes: string[] = []): Promise<boolean> {
  const item: SourceLog = {
    ...sourceLogKey(message.accountId, message.requestId),
    gsi1pk: integrationLogsGsi(message.accountId, message.integrationId),
    gsi1sk: `${message.receivedAt}#${message.requestId}`,
    type: 'SOURCE_LOG',
    id: message.requestId,
    accountId: message.accountId,
    integrationId: message.integrationId,
    receivedAt: message.receivedAt,
    headers: message.headers,
    query: message.query,
    body: message.body,
    ...(message.sourceIp ? { sourceIp: message.sourceIp } : {}),
    notes,
  };
  return putIfAbsent(item);
}

/** Newest first. */
export async function sourceLogsOf(accountId: string, integrationId: string, limit = 50): Promise<SourceLog[]> {
  return queryIndexNewest<SourceLog>(integrationLogsGsi(accountId, integrationId), limit);
}
