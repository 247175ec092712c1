// Google Cloud Monitoring (formerly Stackdriver) webhook notification channels: incident.state open creates, closed
// resolves, keyed by incident.incident_id (docs/monitors.md, "Google Cloud Monitoring"). Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import { actOn, alertKey, createData, descriptionWithin, ignoredReading, linkData, mappedUrgency, record, text, titleWithin, urgencyOr } from './monitor-fields.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

/** An alerting policy's severity (newer payloads carry it) → urgency. */
export const GCP_SEVERITY: Readonly<Record<string, Urgency>> = { critical: 'critical', error: 'high', warning: 'medium' };

/** Top-level fields the reader reads; with Capture Additional Data the others (version) are kept. */
const READ_KEYS: ReadonlySet<string> = new Set(['incident']);

export function readStackdriver(request: ReaderRequest, options: ReaderOptions): Reading {
  const payload = request.body;
  if (!isJsonObject(payload)) return ignoredReading('The payload is not a JSON object; Google Cloud Monitoring posts one');
  if (!isJsonObject(payload.incident)) return ignoredReading('No incident object: not a Google Cloud Monitoring notification');
  const incident = payload.incident;
  const id = text(incident.incident_id);
  if (id === undefined) return ignoredReading('No incident.incident_id to key the alert by');
  const state = text(incident.state)?.toLowerCase();
  if (state !== 'open' && state !== 'closed') return ignoredReading(`incident.state ${JSON.stringify(incident.state ?? null)} is neither open nor closed`);
  const notes = [`incident ${id} ${state} → ${state === 'open' ? 'create' : 'resolve'}`];
  const key = { thirdpartyId: alertKey(id, notes), idGenerated: false };
  if (state === 'closed') return { events: [actOn('resolve', key, notes)], notes: [] };

  const policy = text(incident.policy_name);
  const condition = text(incident.condition_name);
  const title = policy ? `${policy}${condition ? `: ${condition}` : ''}` : (condition ?? `Google Cloud incident ${id}`);
  const description = [
    text(incident.summary),
    text(incident.resource_name) && `Resource: ${text(incident.resource_name)}`,
    text(record(incident.documentation).content),
  ].filter(Boolean).join('\n\n');
  const severity = incident.severity;
  const create: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title: titleWithin(title, notes),
      description: descriptionWithin(description, notes),
      urgency: urgencyOr(mappedUrgency(severity, GCP_SEVERITY), text(severity)?.toLowerCase() === 'no severity' ? undefined : severity, 'incident.severity', options, notes),
    },
    notes,
  };
  const data = createData(linkData([['Google Cloud incident', incident.url]], notes), payload, READ_KEYS, options, notes);
  if (data) create.fields.additional_data = data;
  return { events: [create], notes: [] };
}

export const stackdriverReader: IntegrationReader = {
  id: 'stackdriver',
  name: 'Google Cloud Monitoring',
  description: 'Google Cloud Monitoring (Stackdriver) webhook notification channel',
  docs: 'docs/monitors.md#google-cloud-monitoring',
  options: z.object({}, { error: 'must be an object' }),
  read: readStackdriver,
};
