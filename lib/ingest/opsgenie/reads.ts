// Opsgenie's reads for scripts that read back (docs/migrating.md, "From Opsgenie"): a request's record
// (`GET /v2/alerts/requests/{requestId}`, from the request's log), one alert (`GET /v2/alerts/{identifier}`) and a
// list (`GET /v2/alerts`, by status and alias, offset and limit), in Opsgenie's shapes, of the key's account.
import type { AlertItem } from '../../alerts/items.ts';
import { alertPage, findAlert, getAlertItems, type AlertIndex } from '../../alerts/store.ts';
import type { IntegrationLookupItem } from '../../integrations/lookup.ts';
import { findEntity } from '../../db/repository.ts';
import { TINY_ID_SEARCH } from '../../limits.ts';
import { findSourceLogItem, requestPartsOf } from '../source-log.ts';
import { answerOf, opsgenieAlert, OpsgenieError, requestRecord, unprocessable, type OpsgenieAnswer } from './shapes.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const alertMissing = () => new OpsgenieError(404, 'Alert does not exist');

/** The segments after `/v2/alerts` of a read's path. */
const afterAlerts = (path: string): string[] => {
  const at = path.indexOf('/v2/alerts');
  const rest = path.slice(at + '/v2/alerts'.length);
  return rest === '' ? [] : rest.slice(1).split('/').map((segment) => decodeURIComponent(segment));
};

/** GET /v2/alerts, /v2/alerts/{identifier} and /v2/alerts/requests/{requestId}. */
export async function readCall(integration: IntegrationLookupItem, path: string, query: Record<string, string>, took: () => number, requestId: string): Promise<OpsgenieAnswer> {
  let segments: string[];
  try {
    segments = afterAlerts(path);
  } catch {
    throw alertMissing();
  }
  if (segments.length === 0) return answerOf(200, { data: await listAlerts(integration.accountId, query) }, took(), requestId);
  if (segments.length === 2 && segments[0] === 'requests') return answerOf(200, { data: await requestOf(integration, segments[1]!) }, took(), requestId);
  if (segments.length !== 1) throw new OpsgenieError(404, 'No handler found for this method and path');
  const alert = await alertNamed(integration.accountId, segments[0]!, query.identifierType ?? 'id');
  if (!alert) throw alertMissing();
  return answerOf(200, { data: opsgenieAlert(alert, true) }, took(), requestId);
}

/** The account's alert an identifier names: by id or prefix id, by alias (the newest with it), by tiny id (recent ones). */
export async function alertNamed(accountId: string, identifier: string, identifierType: string): Promise<AlertItem | undefined> {
  if (identifierType === 'id') return findAlert(accountId, identifier);
  if (identifierType === 'alias') return (await alertPage(accountId, { by: 'thirdparty', thirdpartyId: identifier }, 0, 1))[0];
  if (identifierType === 'tiny') return (await alertPage(accountId, { by: 'account' }, 0, TINY_ID_SEARCH)).find((alert) => String(alert.tinyId) === identifier);
  throw unprocessable({ identifierType: 'identifierType must be one of id, alias, tiny.' });
}

/** Opsgenie's `status` words as Hark's statuses: open is every status but resolved. */
const STATUSES: Readonly<Record<string, readonly string[]>> = {
  open: ['queued', 'open', 'acknowledged', 'dropped'],
  closed: ['resolved'],
};

/** The query Hark reads: `status:open|closed` and `alias:<alias>`, joined by spaces or AND; any other term is 422. */
export function parseAlertQuery(text: string): { status?: string; alias?: string } {
  const terms = text.split(/\s+(?:AND\s+)?/i).filter((term) => term !== '' && term.toUpperCase() !== 'AND');
  const found: { status?: string; alias?: string } = {};
  for (const term of terms) {
    const match = /^(status|alias):(.+)$/i.exec(term);
    const field = match?.[1]!.toLowerCase();
    const value = match?.[2]!.replace(/^"(.*)"$/, '$1');
    if (field === 'status' && value !== undefined && Object.hasOwn(STATUSES, value.toLowerCase())) found.status = value.toLowerCase();
    else if (field === 'alias' && value !== undefined) found.alias = value;
    else throw unprocessable({ query: `Hark reads status:open, status:closed and alias:<alias> in a query; got "${term}"` });
  }
  return found;
}

const whole = (value: string | undefined, fallback: number, max: number, field: string): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) throw unprocessable({ [field]: `${field} must be a whole number from 0 to ${max}` });
  return n;
};

/** Newest first, `offset` then `limit` (at most 100, Opsgenie's own bound); `order=asc` reverses. */
async function listAlerts(accountId: string, query: Record<string, string>): Promise<Record<string, unknown>[]> {
  const { status, alias } = parseAlertQuery(query.query ?? '');
  const offset = whole(query.offset, 0, 20_000, 'offset');
  const limit = whole(query.limit, DEFAULT_LIMIT, MAX_LIMIT, 'limit');
  const ascending = query.order === 'asc';
  const indexes: AlertIndex[] = alias !== undefined ? [{ by: 'thirdparty', thirdpartyId: alias }] : status ? STATUSES[status]!.map((s) => ({ by: 'status', status: s })) : [{ by: 'account' }];
  const pages = await Promise.all(indexes.map((index) => alertPage(accountId, index, 0, offset + limit, ascending)));
  const wanted = alias !== undefined && status ? new Set(STATUSES[status]) : undefined;
  const alerts = pages
    .flat()
    .filter((alert) => !wanted || wanted.has(alert.data.status))
    .sort((a, b) => (ascending ? 1 : -1) * (a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)));
  return alerts.slice(offset, offset + limit).map((alert) => opsgenieAlert(alert, false));
}

/** A request's record, from its log: only the key's integration's requests; not yet applied (or unknown) is 404. */
async function requestOf(integration: IntegrationLookupItem, requestId: string): Promise<Record<string, unknown>> {
  const log = await findSourceLogItem(integration.accountId, requestId);
  if (!log || log.integrationId !== integration.integrationId || log.notes.length === 0) {
    throw new OpsgenieError(404, 'Request not found. It might not be processed, yet.');
  }
  const alertIds = [...new Set(log.notes.flatMap((note) => (note.alert_id ? [note.alert_id] : [])))];
  const [alerts, owner] = await Promise.all([getAlertItems(integration.accountId, alertIds), findEntity('INTEGRATION', integration.accountId, integration.integrationId)]);
  const { query } = requestPartsOf(log);
  return requestRecord(
    { integrationId: log.integrationId, method: log.method, path: log.path, query, notes: log.notes },
    owner?.prefixId ?? integration.integrationId,
    new Map(alerts.map((alert) => [alert.id, alert])),
  );
}
