// Datadog's Webhooks integration: the payload template docs/monitors.md gives ("Datadog"), or Datadog's unedited
// default payload, whose `[Triggered …]` / `[Recovered …]` title prefix decides. Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import { labelList } from './fields.ts';
import {
  actOn,
  alertKey,
  createData,
  descriptionWithin,
  ignoredReading,
  linkData,
  mappedUrgency,
  text,
  titleWithin,
  urgencyOr,
} from './monitor-fields.ts';
import type { IntegrationReader, ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

/** $ALERT_TRANSITION values (lower-cased) and what each does; any other is ignored with its name. */
export const DATADOG_TRANSITIONS: Readonly<Record<string, 'create' | 'resolve'>> = {
  triggered: 'create',
  're-triggered': 'create',
  warn: 'create',
  're-warn': 'create',
  'no data': 'create',
  're-no data': 'create',
  renotify: 'create',
  recovered: 'resolve',
};

/** $ALERT_PRIORITY → urgency. */
export const DATADOG_PRIORITY: Readonly<Record<string, Urgency>> = { p1: 'critical', p2: 'high', p3: 'medium', p4: 'low', p5: 'low' };

/** Fields of the template the reader reads; with Capture Additional Data the others are kept. */
const READ_KEYS: ReadonlySet<string> = new Set(['transition', 'cycle_key', 'alert_id', 'title', 'body', 'priority', 'tags', 'link']);

/** A template variable's value: blank, or the variable left unexpanded (`$ALERT_CYCLE_KEY`), is absent. */
const variable = (value: unknown): string | undefined => {
  const sent = text(value);
  return sent !== undefined && !/^\$[A-Z_]+$/.test(sent) ? sent : undefined;
};

/**
 * A default payload's title: `[P1] [Triggered on {host:web01}] Host is down` → the transition, the scope and the
 * rest. Undefined when the title does not start with a transition in brackets.
 */
export function titlePrefix(title: string): { transition: string; scope?: string; rest: string } | undefined {
  const match = /^(?:\[P\d\]\s*)?\[([A-Za-z -]+?)(?: on (\{.*?\}))?\]\s*(.*)$/s.exec(title);
  if (!match || !Object.hasOwn(DATADOG_TRANSITIONS, match[1]!.toLowerCase())) return undefined;
  return { transition: match[1]!, ...(match[2] ? { scope: match[2] } : {}), rest: match[3]! };
}

/** $EVENT_MSG is wrapped in `%%%` markers for Datadog's markdown: they are dropped. */
const messageText = (body: string) => body.replace(/^%%%\s*\n?/, '').replace(/\n?\s*%%%\s*$/, '').trim();

export function readDatadog(request: ReaderRequest, options: ReaderOptions): Reading {
  const payload = request.body;
  if (!isJsonObject(payload)) return ignoredReading('The payload is not a JSON object; Datadog posts one');
  const notes: string[] = [];
  const title = variable(payload.title);
  const prefix = title === undefined ? undefined : titlePrefix(title);
  const transition = variable(payload.transition) ?? prefix?.transition;
  if (transition === undefined) return ignoredReading('No transition: neither the template\'s "transition" nor a [Triggered …] or [Recovered …] title prefix');
  const event = DATADOG_TRANSITIONS[transition.toLowerCase()];
  if (!event) return ignoredReading(`Transition "${transition}" neither opens nor recovers an alert; nothing to do`);

  const eventNotes: string[] = [];
  const cycle = variable(payload.cycle_key);
  const monitor = variable(payload.alert_id);
  // The default payload has neither: its title without the transition (with the scope) names the monitor's alert.
  const sent = cycle ?? monitor ?? (prefix ? [prefix.rest, prefix.scope].filter(Boolean).join(' ') : undefined);
  if (sent === undefined || sent === '') return ignoredReading('No cycle_key, alert_id or titled alert to key the alert by');
  if (cycle === undefined && monitor !== undefined) eventNotes.push(`No cycle_key; keyed by the monitor id ${monitor}`);
  const key = { thirdpartyId: alertKey(sent, eventNotes), idGenerated: false };
  eventNotes.push(`${transition} → ${event}`);
  if (event === 'resolve') return { events: [actOn('resolve', key, eventNotes)], notes };

  const priority = variable(payload.priority);
  const body = variable(payload.body);
  const create: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title: titleWithin(title ?? `Datadog monitor ${sent}`, eventNotes),
      description: body === undefined ? null : descriptionWithin(messageText(body), eventNotes),
      urgency: urgencyOr(mappedUrgency(priority, DATADOG_PRIORITY), priority, 'priority', options, eventNotes),
    },
    notes: eventNotes,
  };
  const tags = variable(payload.tags);
  if (tags !== undefined) create.fields.tag_list = labelList(tags.split(','), 'tags', eventNotes);
  const data = createData(linkData([['Datadog', variable(payload.link)]], eventNotes), payload, READ_KEYS, options, eventNotes);
  if (data) create.fields.additional_data = data;
  return { events: [create], notes };
}

export const datadogReader: IntegrationReader = {
  id: 'datadog',
  name: 'Datadog',
  description: "Datadog Webhooks integration: Hark's payload template or Datadog's default payload",
  docs: 'docs/monitors.md#datadog',
  options: z.object({}, { error: 'must be an object' }),
  read: readDatadog,
};
