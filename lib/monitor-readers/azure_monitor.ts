// Azure Monitor action groups' webhooks in the common alert schema: essentials.monitorCondition Fired creates,
// Resolved resolves, keyed by essentials.alertId (docs/monitors.md, "Azure Monitor"). Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import { actOn, alertKey, createData, descriptionWithin, ignoredReading, mappedUrgency, record, text, titleWithin, urgencyOr } from './monitor-fields.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

export const AZURE_SEVERITY: Readonly<Record<string, Urgency>> = { sev0: 'critical', sev1: 'high', sev2: 'medium', sev3: 'low', sev4: 'low' };

/** Top-level fields the reader reads; with Capture Additional Data the others (schemaId) are kept. */
const READ_KEYS: ReadonlySet<string> = new Set(['data']);

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text).filter((item) => item !== undefined) : []);

export function readAzureMonitor(request: ReaderRequest, options: ReaderOptions): Reading {
  const payload = request.body;
  if (!isJsonObject(payload)) return ignoredReading('The payload is not a JSON object; Azure Monitor posts one');
  const data = record(payload.data);
  if (!isJsonObject(data.essentials)) return ignoredReading('No data.essentials: not the common alert schema (turn on "Enable the common alert schema" in the action group)');
  const essentials = data.essentials;
  const condition = text(essentials.monitorCondition)?.toLowerCase();
  const alertId = text(essentials.alertId);
  if (alertId === undefined) return ignoredReading('No essentials.alertId to key the alert by');
  if (condition !== 'fired' && condition !== 'resolved') return ignoredReading(`essentials.monitorCondition ${JSON.stringify(essentials.monitorCondition ?? null)} is neither Fired nor Resolved`);
  const notes = [`monitorCondition ${text(essentials.monitorCondition)} → ${condition === 'fired' ? 'create' : 'resolve'}`];
  const key = { thirdpartyId: alertKey(alertId, notes), idGenerated: false };
  if (condition === 'resolved') return { events: [actOn('resolve', key, notes)], notes: [] };

  const targets = list(essentials.configurationItems);
  const rule = text(essentials.alertRule);
  const title = rule ? `${rule}${targets.length > 0 ? ` on ${targets.join(', ')}` : ''}` : `Azure Monitor alert ${alertId}`;
  const description = [
    text(essentials.description),
    ...[
      ['Severity', text(essentials.severity)],
      ['Signal', text(essentials.signalType)],
      ['Monitoring service', text(essentials.monitoringService)],
      ['Targets', list(essentials.alertTargetIDs).join('\n  ') || undefined],
      ['Fired', text(essentials.firedDateTime)],
    ].filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`),
  ].filter((line) => line !== undefined).join('\n');
  const create: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title: titleWithin(title, notes),
      description: descriptionWithin(description, notes),
      urgency: urgencyOr(mappedUrgency(essentials.severity, AZURE_SEVERITY), essentials.severity, 'essentials.severity', options, notes),
    },
    notes,
  };
  const captured = createData([], payload, READ_KEYS, options, notes);
  if (captured) create.fields.additional_data = captured;
  return { events: [create], notes: [] };
}

export const azureMonitorReader: IntegrationReader = {
  id: 'azure_monitor',
  name: 'Azure Monitor',
  description: 'Azure Monitor action group webhook with the common alert schema',
  docs: 'docs/monitors.md#azure-monitor',
  options: z.object({}, { error: 'must be an object' }),
  read: readAzureMonitor,
};
