// Every accepted webhook request is kept as one log owned by its integration (docs/ingest.md, "Logs"), written once
// per request so a redelivered message changes nothing; the worker's processing notes are added to it, once per step.
// Storage: the log item holds the request and the notes; a body too large to sit in it beside them is gzipped into
// chunk items of the same partition, so the 400 KB item limit never makes a request fail.

import { gunzipSync, gzipSync } from 'node:zlib';
import { nowIso } from '../clock.ts';
import { counterGroupAdd, pickCounterShard, shardedCounterAdd } from '../db/counters.ts';
import { accountPk } from '../db/keys.ts';
import { isConditionCheckFailed, isConditionFailure } from '../db/conditions.ts';
import { getItem, queryIndexNewest, queryPrefix, transact } from '../db/items.ts';
import { putNew, type TransactItem } from '../db/writes.ts';
import { LOG_INLINE_BODY_BYTES, MAX_LOG_NOTE_LENGTH, MAX_LOG_NOTES_PER_STEP } from '../limits.ts';
import type { IngestMessage } from '../queue/ingest.ts';
import { logIdsOf } from './request-ids.ts';

// The log's ids come from the request (./request-ids.ts), so the webhook can answer with the log id before the log exists.
export { logIdsOf };

/** A body whose JSON text is at most this many bytes is kept in the log item and shown in lists. */
export const INLINE_BODY_BYTES = LOG_INLINE_BODY_BYTES;
/** Bytes of gzipped body per chunk item: far below the 400 KB item limit. */
export const BODY_CHUNK_BYTES = 300_000;
/** Notes kept per step of the worker, and characters per note: a log item stays small whatever the worker says. */
export const MAX_LOG_NOTES = MAX_LOG_NOTES_PER_STEP;
export const MAX_NOTE_LENGTH = MAX_LOG_NOTE_LENGTH;

export const logPk = (accountId: string, logId: string) => `${accountPk(accountId)}#LOG#${logId}`;
export const LOG_SK = 'LOG';
export const sourceLogKey = (accountId: string, logId: string) => ({ pk: logPk(accountId, logId), sk: LOG_SK });
export const BODY_CHUNK_SK_PREFIX = 'BODY#';
const bodyChunkSk = (index: number) => `${BODY_CHUNK_SK_PREFIX}${String(index).padStart(4, '0')}`;
/** The logs of one integration, newest first by `<receivedAt>#<logId>` (gsi1). */
export const integrationLogsGsi = (accountId: string, integrationId: string) => `${accountPk(accountId)}#INTLOGS#${integrationId}`;
/** Every log of the account, newest first by `<receivedAt>#<logId>` (gsi2). */
export const accountLogsGsi = (accountId: string) => `${accountPk(accountId)}#LOGS`;
/** Resolves a log's prefix_id (`log_…`) to its id. */
export const logAliasKey = (accountId: string, prefixId: string) => ({ pk: `${accountPk(accountId)}#LOGPID#${prefixId}`, sk: 'ALIAS' });
/** Exact counts of logs, in the account partition: all of them and per integration (sharded: lib/db/counters.ts). */
export const LOG_COUNTER_SK = 'COUNTER#LOG';
export const integrationLogCounterSk = (integrationId: string) => `COUNTER#LOG#INT#${integrationId}`;

/** One processing note of a request: what the worker did, skipped or could not read. */
export interface LogNote {
  message: string;
  /** The alert the request created, changed or was deduplicated into. */
  alert_id?: string;
  /** The maintenance window that silenced the integration. */
  maintenance_window_id?: string;
}
export interface StoredLogNote extends LogNote {
  created_at: string;
}

export interface SourceLogItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  type: 'SOURCE_LOG';
  id: string;
  prefixId: string;
  requestId: string;
  accountId: string;
  integrationId: string;
  receivedAt: string;
  method: string;
  path: string;
  /**
   * The headers and query parameters as JSON text: a query parameter may have an empty name (`?=x`), which a
   * DynamoDB map cannot hold, and a request must never fail to be logged.
   */
  headersText: string;
  queryText: string;
  sourceIp?: string;
  /** The body's JSON text when it is at most INLINE_BODY_BYTES; otherwise it is in `bodyChunks` chunk items, gzipped. */
  bodyText?: string;
  bodyChunks?: number;
  bodyBytes: number;
  notes: StoredLogNote[];
  /** The worker steps whose notes are in; a step's notes are added once. */
  noteSteps?: Set<string>;
  /** A refused request's log (./refusals.ts): why, and how many of the minute it stands for. */
  refusedReason?: string;
  refusedCount?: number;
}

/** A log as read back: the item with its headers, query and body parsed. */
export type SourceLog = Omit<SourceLogItem, 'bodyText' | 'noteSteps' | 'headersText' | 'queryText'> & {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
};

/** The request's headers and query parameters, parsed from the item. */
export const requestPartsOf = (item: Pick<SourceLogItem, 'headersText' | 'queryText'>) => ({
  headers: JSON.parse(item.headersText) as Record<string, string>,
  query: JSON.parse(item.queryText) as Record<string, string>,
});

const cutNote = (note: LogNote): LogNote => (note.message.length > MAX_NOTE_LENGTH ? { ...note, message: `${note.message.slice(0, MAX_NOTE_LENGTH - 1)}…` } : note);

/** Notes as stored: each cut to MAX_NOTE_LENGTH; beyond MAX_LOG_NOTES (after `existing`), the last kept one says how many were left out. */
export function storedNotes(existing: number, notes: readonly LogNote[], at: string): StoredLogNote[] {
  const room = MAX_LOG_NOTES - existing;
  if (room <= 0) return [];
  const kept = notes.length <= room ? notes : [...notes.slice(0, room - 1), { message: `${notes.length - room + 1} more notes were not kept` }];
  return kept.map((note) => ({ ...cutNote(note), created_at: at }));
}

/** The body as stored: inline JSON text when small, else gzipped chunks. Pure. */
export function bodyStorage(body: unknown): { bodyText?: string; chunks: Buffer[]; bodyBytes: number } {
  const text = JSON.stringify(body) ?? 'null';
  const bodyBytes = Buffer.byteLength(text, 'utf8');
  if (bodyBytes <= INLINE_BODY_BYTES) return { bodyText: text, chunks: [], bodyBytes };
  // The fastest level: the worker pays the CPU, and the size only has to stay far below the item limit.
  const zipped = gzipSync(text, { level: 1 });
  const chunks: Buffer[] = [];
  for (let start = 0; start < zipped.length; start += BODY_CHUNK_BYTES) chunks.push(zipped.subarray(start, start + BODY_CHUNK_BYTES));
  return { chunks, bodyBytes };
}

/**
 * The writes of a new log: the item (only if absent, always the first write), its body chunks and its prefix-id alias.
 * `steps` marks the worker steps whose notes the log is born with (a first event applied in the same transaction). Pure.
 */
export function sourceLogWrites(message: IngestMessage, notes: readonly LogNote[] = [], steps: readonly string[] = []): { item: SourceLogItem; writes: TransactItem[] } {
  const { id, prefixId } = logIdsOf(message);
  const { bodyText, chunks, bodyBytes } = bodyStorage(message.body);
  const listSk = `${message.receivedAt}#${id}`;
  // Notes written by the worker are stamped when written; a log born without them has none to stamp.
  const at = steps.length > 0 ? nowIso() : message.receivedAt;
  const item: SourceLogItem = {
    ...sourceLogKey(message.accountId, id),
    gsi1pk: integrationLogsGsi(message.accountId, message.integrationId),
    gsi1sk: listSk,
    gsi2pk: accountLogsGsi(message.accountId),
    gsi2sk: listSk,
    type: 'SOURCE_LOG',
    id,
    prefixId,
    requestId: message.requestId,
    accountId: message.accountId,
    integrationId: message.integrationId,
    receivedAt: message.receivedAt,
    method: message.method ?? 'POST',
    path: message.path ?? `/integration/${message.integrationId}`,
    headersText: JSON.stringify(message.headers),
    queryText: JSON.stringify(message.query),
    ...(message.sourceIp ? { sourceIp: message.sourceIp } : {}),
    ...(bodyText !== undefined ? { bodyText } : { bodyChunks: chunks.length }),
    bodyBytes,
    notes: storedNotes(0, notes, at),
    ...(steps.length > 0 ? { noteSteps: new Set(steps) } : {}),
  };
  return {
    item,
    writes: [
      putNew(item),
      ...chunks.map((data, index) => putNew({ pk: item.pk, sk: bodyChunkSk(index), type: 'SOURCE_LOG_BODY', data })),
      putNew({ ...logAliasKey(message.accountId, prefixId), logId: id }),
    ],
  };
}


/**
 * The counter behind total_count of the account's logs (in the account's counter group, with its alert counts), or of
 * one integration's (items of its own: an account has as many as it has integrations).
 */
export const logCounter = (accountId: string, integrationId?: string) =>
  integrationId === undefined
    ? { key: { pk: accountPk(accountId), sk: LOG_COUNTER_SK }, grouped: true }
    : { key: { pk: accountPk(accountId), sk: integrationLogCounterSk(integrationId) }, grouped: false };

/**
 * The counters behind total_count (all logs, logs of the integration), each + 1 in the transaction of a new log, in
 * one shard picked at random, since every request adds to them in a transaction: the account's count in its group
 * item (with the alert counts of a change in the same transaction: lib/alerts/store.ts merges them), the
 * integration's in its own item (docs/decisions/0022-sharded-alert-counters.md).
 */
export const logCounterWrites = (message: Pick<IngestMessage, 'accountId' | 'integrationId'>, shard: number = pickCounterShard()): TransactItem[] => [
  ...counterGroupAdd([{ key: logCounter(message.accountId).key, delta: 1 }], shard),
  ...shardedCounterAdd(logCounter(message.accountId, message.integrationId).key, 1, shard),
];

/**
 * Everything a new log writes, in one transaction: the log (first, only if absent) with the notes of `steps`, its
 * chunks and alias, and its counters. The worker sends these alone or inside the transaction of the first event's
 * change (docs/ingest.md, "Exactly-once effects"). Pure.
 */
export const newLogWrites = (message: IngestMessage, notes: readonly LogNote[] = [], steps: readonly string[] = []): TransactItem[] => [
  ...sourceLogWrites(message, notes, steps).writes,
  ...logCounterWrites(message),
];

/** True when a transaction holding newLogWrites first failed because the log was already there. */
export const logExisted = (error: unknown, index = 0): boolean => isConditionCheckFailed(error, index);

/**
 * Records a request's log with its counters, in one transaction; returns false when it already existed (the message
 * was delivered before, or its first delivery failed after keeping it).
 */
export async function recordSourceLog(message: IngestMessage, notes: readonly LogNote[] = [], steps: readonly string[] = []): Promise<boolean> {
  try {
    await transact(newLogWrites(message, notes, steps));
  } catch (error) {
    if (logExisted(error)) return false;
    throw error;
  }
  return true;
}

/**
 * The write adding one step's notes to a log, for the worker to send alone (recordLogNotes) or inside the transaction
 * of the change the notes describe, so the two land together. It applies once per step: a redelivered message's
 * repeat fails its condition (and, in a transaction, says the change was made before). Several steps are marked
 * together (an event's step and the request's last one); the write applies only while none of them is in.
 */
export function logNotesWrite(ref: { accountId: string; logId: string }, steps: string | readonly string[], notes: readonly LogNote[], at: string = nowIso()): TransactItem {
  const names = typeof steps === 'string' ? [steps] : [...steps];
  const absent = names.map((_, i) => `NOT contains(#steps, :step${i})`).join(' AND ');
  return {
    Update: {
      Key: sourceLogKey(ref.accountId, ref.logId),
      UpdateExpression: 'SET #notes = list_append(#notes, :notes) ADD #steps :steps',
      ConditionExpression: `attribute_exists(pk) AND ${absent}`,
      ExpressionAttributeNames: { '#notes': 'notes', '#steps': 'noteSteps' },
      ExpressionAttributeValues: { ':notes': storedNotes(0, notes, at), ':steps': new Set(names), ...Object.fromEntries(names.map((name, i) => [`:step${i}`, name])) },
    },
  };
}

/**
 * Adds one step's notes (at most MAX_LOG_NOTES) to a request's log; `steps` names the worker's step, e.g. "apply".
 * Returns false when that step's notes are already in (a redelivered message) or the log does not exist.
 */
export async function recordLogNotes(ref: { accountId: string; logId: string }, steps: string | readonly string[], notes: readonly LogNote[], at: string = nowIso()): Promise<boolean> {
  if (notes.length === 0) return true;
  try {
    await transact([logNotesWrite(ref, steps, notes, at)]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The body of a log: parsed from the item, or gunzipped from its chunk items. */
export async function bodyOf(item: SourceLogItem): Promise<unknown> {
  if (item.bodyText !== undefined) return JSON.parse(item.bodyText) as unknown;
  const chunks = await queryPrefix<{ sk: string; data: Uint8Array }>(item.pk, BODY_CHUNK_SK_PREFIX);
  chunks.sort((a, b) => a.sk.localeCompare(b.sk));
  return JSON.parse(gunzipSync(Buffer.concat(chunks.map((chunk) => chunk.data))).toString('utf8')) as unknown;
}

/** The log item of this account by id or prefix_id; undefined when there is none. */
export async function findSourceLogItem(accountId: string, idOrPrefixId: string): Promise<SourceLogItem | undefined> {
  let id = idOrPrefixId;
  if (idOrPrefixId.startsWith('log_')) {
    const alias = await getItem<{ logId?: string }>(logAliasKey(accountId, idOrPrefixId));
    if (!alias?.logId) return undefined;
    id = alias.logId;
  }
  return getItem<SourceLogItem>(sourceLogKey(accountId, id));
}

/** A log item with its body read. */
export async function withBody(item: SourceLogItem): Promise<SourceLog> {
  const { bodyText: _text, noteSteps: _steps, headersText: _headers, queryText: _query, ...rest } = item;
  return { ...rest, ...requestPartsOf(item), body: await bodyOf(item) };
}

/** The logs of one integration, newest first, with their bodies. */
export async function sourceLogsOf(accountId: string, integrationId: string, limit = 50): Promise<SourceLog[]> {
  return Promise.all((await queryIndexNewest<SourceLogItem>(integrationLogsGsi(accountId, integrationId), limit)).map(withBody));
}
