// The logs resource: GET /logs and GET /logs/:id, one log per accepted webhook request with the worker's notes as
// sublogs (docs/ingest.md, "Logs"). Read-only; the worker writes them (source-log.ts).
import { readShardedCounter } from '../db/counters.ts';
import { queryAll, queryFirst, type QueryInput } from '../db/items.ts';
import { notFound } from '../errors.ts';
import type { KeyOrderPage, ListSource } from '../list-engine/index.ts';
import { findEntity } from '../db/repository.ts';
import { couldBeId } from '../ids.ts';
import {
  accountLogsGsi,
  bodyOf,
  findSourceLogItem,
  integrationLogsGsi,
  logCounter,
  requestPartsOf,
  type SourceLogItem,
} from './source-log.ts';

export const LOG_OWNER_TYPE = 'Integration';

/**
 * The API object. `body` is the request's JSON body; a list leaves out bodies stored in chunks (over 16 KiB), which
 * GET /logs/:id always shows, so a page of 100 logs stays a small answer.
 */
export function renderLog(item: SourceLogItem, body: { value: unknown } | undefined): Record<string, unknown> {
  const { headers, query } = requestPartsOf(item);
  const updatedAt = item.notes.reduce((latest, note) => (note.created_at > latest ? note.created_at : latest), item.receivedAt);
  return {
    id: item.id,
    prefix_id: item.prefixId,
    account_id: item.accountId,
    format: 'json',
    // A refused request (docs/ingest.md, "Refused requests") is a warning, with its reason and count.
    level: item.refusedReason ? 'warn' : 'info',
    owner_id: item.integrationId,
    owner_type: LOG_OWNER_TYPE,
    details: {
      message: `${item.method} ${item.path}`,
      request_id: item.requestId,
      method: item.method,
      url: item.path,
      headers,
      params: query,
      remote_ip: item.sourceIp ?? null,
      body: body ? body.value : null,
      body_bytes: item.bodyBytes,
      body_omitted: body === undefined,
      ...(item.refusedReason ? { refused: { reason: item.refusedReason, count: item.refusedCount ?? 1 } } : {}),
      sublogs: item.notes.map((note) => ({
        message: note.message,
        alert_id: note.alert_id ?? null,
        maintenance_window_id: note.maintenance_window_id ?? null,
        created_at: note.created_at,
      })),
    },
    meta: {},
    created_at: item.receivedAt,
    updated_at: updatedAt,
  };
}

/** A list's rendering: the body when it is in the item, never a read of chunks. */
export const renderListedLog = (item: SourceLogItem) => renderLog(item, item.bodyText !== undefined ? { value: JSON.parse(item.bodyText) as unknown } : undefined);

/** GET /logs/:id by id or prefix_id: 404 for another account's or an unknown log. */
export async function getLog(accountId: string, idOrPrefixId: string): Promise<Record<string, unknown>> {
  const item = await findSourceLogItem(accountId, idOrPrefixId);
  if (!item) throw notFound('Log');
  return renderLog(item, { value: await bodyOf(item) });
}

/** Which logs a list reads: every log of the account, or those of one integration. */
export type LogScope = { by: 'account' } | { by: 'integration'; integrationId: string } | { by: 'none' };

function indexQuery(accountId: string, scope: Exclude<LogScope, { by: 'none' }>): QueryInput {
  return scope.by === 'integration'
    ? { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': integrationLogsGsi(accountId, scope.integrationId) } }
    : { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': accountLogsGsi(accountId) } };
}

async function logCount(accountId: string, scope: Exclude<LogScope, { by: 'none' }>): Promise<number> {
  const counter = logCounter(accountId, scope.by === 'integration' ? scope.integrationId : undefined);
  return readShardedCounter(counter.key, counter.grouped);
}

/**
 * The list engine's source: the default order (newest first, or oldest first) reads one page of the scope's
 * index and takes total_count from its counter; other queries read the scope's index whole.
 */
export function logListSource(accountId: string, scope: LogScope): ListSource<Record<string, unknown>> {
  if (scope.by === 'none') return { all: async () => [] };
  return {
    all: async () => (await queryAll<SourceLogItem>(indexQuery(accountId, scope))).map(renderListedLog),
    firstInKeyOrder: async (count: number, newestFirst: boolean): Promise<KeyOrderPage<Record<string, unknown>>> => {
      const [items, total] = await Promise.all([queryFirst<SourceLogItem>({ ...indexQuery(accountId, scope), ScanIndexForward: !newestFirst }, count), logCount(accountId, scope)]);
      return { objects: items.map(renderListedLog), total };
    },
  };
}

/**
 * The scope a list query names, and the query left for the list engine. `owner_id` (an integration's id or
 * prefix_id, also of a deleted one) and `owner_type` as plain equality filters choose the index and are taken out
 * of the query (every log of the scope matches them); with `ops` on them, the engine filters the account's logs.
 */
export async function logScopeOf(accountId: string, query: Record<string, string | undefined>): Promise<{ scope: LogScope; query: Record<string, string | undefined> }> {
  const opsNameOwner = /\bowner_(id|type)\s*:/.test(query.ops ?? '');
  if (opsNameOwner) return { scope: { by: 'account' }, query };
  const { owner_id: ownerId, owner_type: ownerType, ...rest } = query;
  if (ownerType !== undefined && ownerType !== LOG_OWNER_TYPE) return { scope: { by: 'none' }, query: rest };
  if (ownerId === undefined || ownerId === '') return { scope: { by: 'account' }, query: rest };
  // A value that cannot be an id owns no logs (and would break the index key's length limit).
  if (!couldBeId(ownerId)) return { scope: { by: 'none' }, query: rest };
  const integration = await findEntity('INTEGRATION', accountId, ownerId);
  return { scope: { by: 'integration', integrationId: integration?.id ?? ownerId }, query: rest };
}
