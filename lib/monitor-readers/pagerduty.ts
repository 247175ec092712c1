// PagerDuty Events API v2 (docs/monitors.md, "PagerDuty Events API v2"): a sender configured for PagerDuty
// (Alertmanager's pagerduty_configs, Grafana's PagerDuty contact point, Uptime Kuma, Zabbix, Kibana…) pages Hark by its
// URL and the integration's routing_key. The intake checked the event (pagerduty-event.ts) and answered PagerDuty's 202;
// the reader turns it into one event keyed by its dedup_key. Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { MAX_DESTINATIONS } from '../limits.ts';
import { additionalDataOf } from './fields.ts';
import {
  actOn,
  alertKey,
  createData,
  descriptionWithin,
  generatedKey,
  ignoredReading,
  linkData,
  mappedUrgency,
  record,
  records,
  text,
  titleWithin,
  urgencyOr,
} from './monitor-fields.ts';
import { isJsonObject } from './wrapper-key.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

/** The path of PagerDuty's change events: recorded in the request's log, they page no one (docs/monitors.md). */
export const PAGERDUTY_CHANGE_PATH = '/v2/change/enqueue';

/**
 * payload.severity → urgency: each word to the Hark urgency the other readers give it (Alertmanager's and Google
 * Cloud's `critical`, `error`, `warning`, `info`), so a router's rule reads one scale whatever the sender. PagerDuty's
 * own dynamic notifications page high for critical and error, low for warning and info: rules on
 * `alert.urgency in [high, critical]` do the same (docs/monitors.md).
 */
export const PAGERDUTY_SEVERITY: Readonly<Record<string, Urgency>> = { critical: 'critical', error: 'high', warning: 'medium', info: 'low' };

/** The top-level fields the reader reads; with Capture Additional Data the others are kept. */
const READ_KEYS: ReadonlySet<string> = new Set(['routing_key', 'event_action', 'dedup_key', 'payload', 'links', 'images', 'client', 'client_url']);

/** The payload's own fields kept on the alert, in this order, before its custom_details. */
const PAYLOAD_FIELDS = ['severity', 'source', 'component', 'group', 'class', 'timestamp'] as const;

/** A custom detail as text: strings as sent, other JSON values (Grafana sends numbers and objects) as JSON. */
const detailText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** The description: the whole summary when the title had to be cut, the payload's fields, then the custom details. */
function descriptionOf(payload: Record<string, unknown>, summary: string, titleCut: boolean): string {
  const lines: string[] = titleCut ? [summary, ''] : [];
  for (const field of PAYLOAD_FIELDS) {
    const value = text(payload[field]);
    if (value !== undefined) lines.push(`${field[0]!.toUpperCase()}${field.slice(1)}: ${value}`);
  }
  const details = payload.custom_details;
  if (isJsonObject(details) && Object.keys(details).length > 0) {
    lines.push('', 'Details:');
    for (const [key, value] of Object.entries(details)) lines.push(`${key}: ${detailText(value)}`);
  } else if (details !== undefined && details !== null && !isJsonObject(details)) lines.push('', `Details: ${detailText(details)}`);
  return lines.join('\n');
}

/** links[] by their text, images[] by their alt (an image's href, else its src), the client by its name. */
function linksOf(body: Record<string, unknown>, notes: string[]) {
  const links: [string, unknown][] = [
    ...records(body.links).map((link): [string, unknown] => [text(link.text) ?? 'Link', link.href]),
    ...records(body.images).map((image): [string, unknown] => [text(image.alt) ?? 'Image', image.href ?? image.src]),
  ];
  if (body.client_url !== undefined) links.push([text(body.client) ?? 'Client', body.client_url]);
  return linkData(links, notes);
}

/** The payload's fields, then each custom detail (a detail named like a field is labelled `custom_details.<name>`). */
function detailData(payload: Record<string, unknown>, notes: string[]) {
  const fields = new Map<string, unknown>();
  for (const field of PAYLOAD_FIELDS) if (text(payload[field]) !== undefined) fields.set(field, text(payload[field]));
  const details = payload.custom_details;
  if (isJsonObject(details)) for (const [key, value] of Object.entries(details)) fields.set(fields.has(key) ? `custom_details.${key}` : key, value);
  else if (details !== undefined && details !== null) fields.set('custom_details', details);
  return additionalDataOf(Object.fromEntries(fields), new Set(), notes);
}

function trigger(body: Record<string, unknown>, key: { thirdpartyId: string; idGenerated: boolean }, options: ReaderOptions, notes: string[]): ReadEvent {
  const payload = record(body.payload);
  const summary = text(payload.summary) ?? key.thirdpartyId;
  const titleNotes: string[] = [];
  const title = titleWithin(summary, titleNotes);
  notes.push(...titleNotes);
  const severity = payload.severity;
  const meta = Object.fromEntries(PAYLOAD_FIELDS.filter((f) => f !== 'timestamp' && text(payload[f]) !== undefined).map((f) => [f, text(payload[f])]));
  const event: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title,
      description: descriptionWithin(descriptionOf(payload, summary, titleNotes.length > 0), notes),
      urgency: urgencyOr(mappedUrgency(severity, PAGERDUTY_SEVERITY), severity, 'payload.severity', options, notes),
      ...(Object.keys(meta).length ? { meta } : {}),
    },
    notes,
  };
  const data = createData([...linksOf(body, notes), ...detailData(payload, notes)].slice(0, MAX_DESTINATIONS), body, READ_KEYS, options, notes);
  if (data) event.fields.additional_data = data;
  return event;
}

export function readPagerDuty(request: ReaderRequest, options: ReaderOptions): Reading {
  const body = request.body;
  if (!isJsonObject(body)) return ignoredReading('The payload is not a JSON object; the Events API takes one');
  if (request.path?.endsWith(PAGERDUTY_CHANGE_PATH)) {
    const summary = text(record(body.payload).summary) ?? '(no summary)';
    return ignoredReading(`Change event recorded (change events page no one): ${summary}`);
  }
  const action = text(body.event_action);
  const notes: string[] = [];
  const sent = typeof body.dedup_key === 'string' && body.dedup_key.trim() !== '' ? body.dedup_key : undefined;
  if (action === 'trigger') {
    const key = sent !== undefined ? { thirdpartyId: alertKey(sent, notes), idGenerated: false } : generatedKey(options, 0, 'dedup_key', notes);
    notes.push(`trigger → create`);
    return { events: [trigger(body, key, options, notes)], notes: [] };
  }
  if (action !== 'acknowledge' && action !== 'resolve') return ignoredReading(`event_action "${action ?? ''}" is none of trigger, acknowledge, resolve`);
  if (sent === undefined) return ignoredReading(`${action === 'acknowledge' ? 'An' : 'A'} ${action} without a dedup_key names no alert`);
  notes.push(`${action} → ${action}`);
  return { events: [actOn(action, { thirdpartyId: alertKey(sent, notes), idGenerated: false }, notes)], notes: [] };
}

export const pagerdutyReader: IntegrationReader = {
  id: 'pagerduty',
  name: 'PagerDuty Events API v2',
  description: 'PagerDuty Events API v2 (POST /v2/enqueue with the routing_key): senders configured for PagerDuty page Hark by changing the URL',
  docs: 'docs/monitors.md#pagerduty-events-api-v2',
  options: z.object({}, { error: 'must be an object' }),
  senderKey: { option: 'routing_key', url: '/v2/enqueue' },
  read: readPagerDuty,
};
