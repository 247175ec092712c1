// Sentry's integration-platform webhooks (an internal integration): Sentry-Hook-Resource decides what a request means,
// and with the option client_secret set, Sentry-Hook-Signature must be the HMAC-SHA256 of the raw body
// (docs/monitors.md, "Sentry"). The legacy webhooks plugin's payload (no headers) creates. `read` is pure.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import {
  actOn,
  alertKey,
  createData,
  descriptionWithin,
  ignoredReading,
  linkData,
  mappedUrgency,
  record,
  text,
  titleWithin,
  urgencyOr,
} from './monitor-fields.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

export const RESOURCE_HEADER = 'sentry-hook-resource';
export const SIGNATURE_HEADER = 'sentry-hook-signature';

/** An issue's (or event's) level → urgency. */
export const SENTRY_LEVEL: Readonly<Record<string, Urgency>> = { fatal: 'critical', error: 'high', warning: 'medium', info: 'low', debug: 'low' };
/** A metric alert's action → urgency. */
const METRIC_URGENCY: Readonly<Record<string, Urgency>> = { critical: 'critical', warning: 'medium' };
/** An issue's action → event; archived (and any other) changes nothing. */
const ISSUE_EVENTS: Readonly<Record<string, 'create' | 'resolve' | 'acknowledge'>> = { created: 'create', unresolved: 'create', resolved: 'resolve', assigned: 'acknowledge' };

export const sentryOptions = z.object(
  {
    // Sentry signs with it, so Hark keeps it to check; it is never shown (has_client_secret) nor logged.
    client_secret: z
      .string({ error: 'must be a string' })
      .min(16, 'must be at least 16 characters')
      .max(256, 'must be at most 256 characters')
      .nullable()
      .optional()
      .meta({ description: "The internal integration's Client Secret: Sentry-Hook-Signature must then match (write-only)" }),
  },
  { error: 'must be an object' },
);

/** The hex HMAC-SHA256 of the raw body with the client secret, compared in constant time. */
export function signatureMatches(rawBody: string, secret: string, signature: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex'), 'utf8');
  const given = Buffer.from(signature.trim().toLowerCase(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function verifySentry(request: ReaderRequest, options: Record<string, unknown>) {
  const secret = typeof options.client_secret === 'string' ? options.client_secret : undefined;
  if (secret === undefined) return { ok: true } as const;
  const signature = request.headers[SIGNATURE_HEADER];
  if (signature === undefined || signature.trim() === '') return { ok: false, status: 403, reason: 'Missing Sentry-Hook-Signature header', refusal: 'invalid_signature' } as const;
  if (!signatureMatches(request.rawBody, secret, signature)) {
    return { ok: false, status: 403, reason: "Sentry-Hook-Signature does not match the body signed with the integration's client_secret", refusal: 'invalid_signature' } as const;
  }
  return { ok: true } as const;
}

/** Top-level fields of the legacy plugin's payload the reader reads. */
const LEGACY_KEYS: ReadonlySet<string> = new Set(['id', 'message', 'culprit', 'level', 'url', 'project_name']);
const HOOK_KEYS: ReadonlySet<string> = new Set(['action', 'data']);

function lines(...parts: [label: string, value: unknown][]): string {
  return parts
    .map(([label, value]) => [label, text(value)] as const)
    .filter(([, value]) => value !== undefined)
    .map(([label, value]) => `${label}: ${value}`)
    .join('\n');
}

interface CreateParts {
  key: string;
  title: string | undefined;
  description: string;
  level: unknown;
  levelTable: Readonly<Record<string, Urgency>>;
  link: unknown;
  readKeys: ReadonlySet<string>;
}

function createEvent(payload: Record<string, unknown>, parts: CreateParts, options: ReaderOptions, notes: string[]): ReadEvent {
  const event: ReadEvent = {
    event: 'create',
    thirdpartyId: alertKey(parts.key, notes),
    idGenerated: false,
    fields: {
      title: titleWithin(parts.title ?? `Sentry issue ${parts.key}`, notes),
      description: descriptionWithin(parts.description, notes),
      urgency: urgencyOr(mappedUrgency(parts.level, parts.levelTable), parts.level, 'level', options, notes),
    },
    notes,
  };
  const data = createData(linkData([['Sentry', parts.link]], notes), payload, parts.readKeys, options, notes);
  if (data) event.fields.additional_data = data;
  return event;
}

function readIssue(payload: Record<string, unknown>, action: string, options: ReaderOptions): Reading {
  const issue = record(record(payload.data).issue);
  const id = text(issue.id);
  if (id === undefined) return ignoredReading('issue webhook without data.issue.id');
  const event = ISSUE_EVENTS[action];
  if (!event) return ignoredReading(`issue ${action}: Hark changes no alert for it`);
  const notes = [`issue ${id} ${action} → ${event}`];
  const key = { thirdpartyId: alertKey(id, notes), idGenerated: false };
  if (event !== 'create') return { events: [actOn(event, key, notes)], notes: [] };
  const project = record(issue.project);
  const description = lines(['Culprit', issue.culprit], ['Level', issue.level], ['Project', project.name ?? project.slug], ['Short id', issue.shortId], ['Events', issue.count], ['First seen', issue.firstSeen], ['Last seen', issue.lastSeen]);
  const title = text(issue.title);
  return { events: [createEvent(payload, { key: id, title, description, level: issue.level, levelTable: SENTRY_LEVEL, link: issue.web_url ?? issue.permalink, readKeys: HOOK_KEYS }, options, notes)], notes: [] };
}

function readMetricAlert(payload: Record<string, unknown>, action: string, options: ReaderOptions): Reading {
  const data = record(payload.data);
  const alert = record(data.metric_alert);
  const id = text(alert.id);
  if (id === undefined) return ignoredReading('metric_alert webhook without data.metric_alert.id');
  if (action === 'resolved') return { events: [actOn('resolve', { thirdpartyId: alertKey(id, []), idGenerated: false }, [`metric alert ${id} resolved → resolve`])], notes: [] };
  if (action !== 'critical' && action !== 'warning') return ignoredReading(`metric_alert ${action}: Hark changes no alert for it`);
  const notes = [`metric alert ${id} ${action} → create`];
  const title = text(data.description_title) ?? text(alert.title) ?? text(record(alert.alert_rule).name);
  const create = createEvent(payload, { key: id, title, description: text(data.description_text) ?? '', level: action, levelTable: METRIC_URGENCY, link: data.web_url, readKeys: HOOK_KEYS }, options, notes);
  // warning → critical on an active alert: the create counts a duplicate; the update raises its urgency.
  const update: ReadEvent = { event: 'update', thirdpartyId: create.thirdpartyId, idGenerated: false, fields: { urgency: create.fields.urgency!, ...(create.fields.title ? { title: create.fields.title } : {}) }, notes: [] };
  return { events: [create, update], notes: [] };
}

function readEventAlert(payload: Record<string, unknown>, options: ReaderOptions): Reading {
  const data = record(payload.data);
  const event = record(data.event);
  // Keyed by the issue, so the issue's own webhooks (resolved, assigned) act on the alert its alert rule opened.
  const id = text(event.issue_id) ?? text(event.event_id);
  if (id === undefined) return ignoredReading('event_alert webhook without data.event.issue_id');
  const notes = [`event alert "${text(data.triggered_rule) ?? '?'}" on issue ${id} → create`];
  const description = lines(['Alert rule', data.triggered_rule], ['Culprit', event.culprit], ['Level', event.level], ['Message', event.message]);
  return { events: [createEvent(payload, { key: id, title: text(event.title), description, level: event.level, levelTable: SENTRY_LEVEL, link: event.web_url ?? event.url, readKeys: HOOK_KEYS }, options, notes)], notes: [] };
}

/** The webhooks plugin (Legacy Integrations): `{id, project_name, culprit, message, url, level, event, …}`. */
function readLegacy(payload: Record<string, unknown>, options: ReaderOptions): Reading {
  const id = text(payload.id);
  if (id === undefined) return ignoredReading('No Sentry-Hook-Resource header and no id: neither an integration-platform webhook nor the webhooks plugin\'s payload');
  const notes = [`webhooks plugin: issue ${id} → create`];
  const title = text(payload.message) ?? text(record(payload.event).title) ?? text(payload.culprit);
  const description = lines(['Culprit', payload.culprit], ['Level', payload.level], ['Project', payload.project_name ?? payload.project]);
  return { events: [createEvent(payload, { key: id, title, description, level: payload.level, levelTable: SENTRY_LEVEL, link: payload.url, readKeys: LEGACY_KEYS }, options, notes)], notes: [] };
}

export function readSentry(request: ReaderRequest, options: ReaderOptions): Reading {
  const payload = request.body;
  if (!isJsonObject(payload)) return ignoredReading('The payload is not a JSON object; Sentry posts one');
  const resource = request.headers[RESOURCE_HEADER]?.trim().toLowerCase();
  if (resource === undefined || resource === '') return readLegacy(payload, options);
  const action = text(payload.action)?.toLowerCase() ?? '';
  if (resource === 'issue') return readIssue(payload, action, options);
  if (resource === 'metric_alert') return readMetricAlert(payload, action, options);
  if (resource === 'event_alert') return readEventAlert(payload, options);
  return ignoredReading(`Sentry-Hook-Resource "${resource}" carries no alert; nothing to do`);
}

export const sentryReader: IntegrationReader = {
  id: 'sentry',
  name: 'Sentry',
  description: 'Sentry internal integration webhooks (issue, metric_alert, event_alert) and the legacy webhooks plugin',
  docs: 'docs/monitors.md#sentry',
  options: sentryOptions,
  verify: verifySentry,
  read: readSentry,
};
