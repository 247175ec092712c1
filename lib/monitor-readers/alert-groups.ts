// Alertmanager's notification groups, as Prometheus Alertmanager (payload version 4) and Grafana Alerting (its
// Alertmanager's webhook, version 1) post them: one Hark alert per group, or per member with `alert_per: alert`
// (docs/monitors.md, "Prometheus Alertmanager" and "Grafana Alerting"). Pure.
import { z } from 'zod';
import type { Urgency } from '../rule-engine/index.ts';
import { isJsonObject } from './wrapper-key.ts';
import {
  actOn,
  alertKey,
  createData,
  descriptionWithin,
  generatedKey,
  ignoredReading,
  labelText,
  linkData,
  mappedUrgency,
  record,
  records,
  text,
  titleWithin,
  urgencyOr,
} from './monitor-fields.ts';
import type { ReadEvent, ReaderOptions, ReaderRequest, Reading } from './types.ts';

export const ALERT_PER = ['group', 'alert'] as const;

/** The options of both types: `alert_per` (default `group`). */
export const alertGroupOptions = z.object(
  {
    alert_per: z
      .enum(ALERT_PER, { error: `must be one of ${ALERT_PER.join(', ')}` })
      .optional()
      .meta({ description: 'group (the default): one Hark alert per notification group; alert: one per alert fingerprint' }),
  },
  { error: 'must be an object' },
);

/** The `severity` label's words (lower-cased) and the urgency each means; any other word: the integration's urgency. */
export const SEVERITY_URGENCY: Readonly<Record<string, Urgency>> = {
  critical: 'critical',
  error: 'high',
  high: 'high',
  page: 'high',
  warning: 'medium',
  info: 'low',
  low: 'low',
  none: 'low',
};
const URGENCY_RANK: readonly Urgency[] = ['low', 'medium', 'high', 'critical'];

export interface GroupSender {
  /** The sender's name in notes and links. */
  name: string;
  /** The payload version it sends; another is noted, not refused. */
  version: string;
  /** Each member's links besides generatorURL, with their labels. */
  memberLinks: readonly [field: string, label: string][];
  /** The group's key when `groupKey` is missing (Grafana: the members' ruleUID). */
  fallbackKey?: (members: Record<string, unknown>[]) => string | undefined;
  /** A title of the sender's own to use before the generic one (Grafana's `title`). */
  ownTitle?: (payload: Record<string, unknown>) => string | undefined;
}

/** Top-level fields the readers read; with Capture Additional Data the others (receiver, version, orgId, …) are kept. */
const READ_KEYS: ReadonlySet<string> = new Set([
  'status',
  'alerts',
  'groupkey',
  'grouplabels',
  'commonlabels',
  'commonannotations',
  'externalurl',
  'truncatedalerts',
  'title',
]);

const labelsOf = (member: Record<string, unknown>) => record(member.labels);
const annotationsOf = (member: Record<string, unknown>) => record(member.annotations);
const statusOf = (value: unknown): 'firing' | 'resolved' | undefined => {
  const word = text(value)?.toLowerCase();
  return word === 'firing' || word === 'resolved' ? word : undefined;
};

/** The highest urgency the members' severity labels name, if any names one. */
function urgencyOfMembers(members: Record<string, unknown>[]): Urgency | undefined {
  let best: Urgency | undefined;
  for (const member of members) {
    const urgency = mappedUrgency(labelsOf(member).severity, SEVERITY_URGENCY);
    if (urgency && (!best || URGENCY_RANK.indexOf(urgency) > URGENCY_RANK.indexOf(best))) best = urgency;
  }
  return best;
}

/** One member as the description lists it: its summary and description, its labels and when it started or ended. */
function memberText(member: Record<string, unknown>): string {
  const annotations = annotationsOf(member);
  const labels = labelsOf(member);
  const head = text(annotations.summary) ?? text(labels.alertname) ?? 'alert';
  const lines = [`- ${head}`];
  const description = text(annotations.description) ?? text(annotations.message);
  if (description) lines.push(`  ${description.replace(/\n/g, '\n  ')}`);
  if (Object.keys(labels).length > 0) lines.push(`  labels: ${labelText(labels)}`);
  const started = text(member.startsAt);
  if (started) lines.push(`  started: ${started}`);
  return lines.join('\n');
}

/** The group's description: its firing members, then its resolved ones, then how many the sender left out. */
function groupDescription(members: Record<string, unknown>[], truncated: number): string {
  const firing = members.filter((m) => statusOf(m.status) !== 'resolved');
  const resolved = members.filter((m) => statusOf(m.status) === 'resolved');
  const parts: string[] = [];
  if (firing.length > 0) parts.push(`Firing (${firing.length}):\n${firing.map(memberText).join('\n')}`);
  if (resolved.length > 0) parts.push(`Resolved (${resolved.length}):\n${resolved.map(memberText).join('\n')}`);
  if (truncated > 0) parts.push(`${truncated} more alert(s) of this group were left out by the sender (truncatedAlerts).`);
  return parts.join('\n\n');
}

/** commonAnnotations.summary, else the sender's own title, else the alert name with the group labels. */
function groupTitle(payload: Record<string, unknown>, sender: GroupSender): string {
  const summary = text(record(payload.commonAnnotations).summary);
  if (summary) return summary;
  const own = sender.ownTitle?.(payload);
  if (own) return own;
  const groupLabels = record(payload.groupLabels);
  const name = text(record(payload.commonLabels).alertname) ?? text(groupLabels.alertname);
  const others = Object.fromEntries(Object.entries(groupLabels).filter(([key]) => key !== 'alertname'));
  const labels = Object.keys(others).length > 0 ? ` (${labelText(others)})` : '';
  return `${name ?? `${sender.name} alert group`}${labels}`;
}

function memberTitle(member: Record<string, unknown>, sender: GroupSender): string {
  const labels = labelsOf(member);
  const summary = text(annotationsOf(member).summary);
  if (summary) return summary;
  const others = Object.fromEntries(Object.entries(labels).filter(([key]) => key !== 'alertname'));
  const rest = Object.keys(others).length > 0 ? ` (${labelText(others)})` : '';
  return `${text(labels.alertname) ?? `${sender.name} alert`}${rest}`;
}

function linksOf(payload: Record<string, unknown>, members: Record<string, unknown>[], sender: GroupSender, notes: string[]) {
  const links: [string, unknown][] = [[sender.name, payload.externalURL]];
  for (const member of members) {
    links.push(['Source', member.generatorURL]);
    for (const [field, label] of sender.memberLinks) links.push([label, member[field]]);
  }
  return linkData(links, notes);
}

/** Reads one notification: firing → create (+ update of the description), resolved → resolve. */
export function readAlertGroup(request: ReaderRequest, options: ReaderOptions, sender: GroupSender): Reading {
  const payload = request.body;
  if (!isJsonObject(payload)) return ignoredReading(`The payload is not a JSON object; ${sender.name} posts one`);
  if (!Array.isArray(payload.alerts)) return ignoredReading(`No alerts list: not a webhook notification of ${sender.name}`);
  const notes: string[] = [];
  const version = text(payload.version);
  if (version !== undefined && version !== sender.version) notes.push(`version "${version}": read as version ${sender.version}`);
  const members = records(payload.alerts);
  if (members.length < payload.alerts.length) notes.push(`alerts: left out ${payload.alerts.length - members.length} entries that are not objects`);
  if (options.options.alert_per === 'alert') return readMembers(payload, members, options, sender, notes);

  const status = statusOf(payload.status);
  if (!status) return ignoredReading(`status ${JSON.stringify(payload.status ?? null)} is neither firing nor resolved`, notes);
  const eventNotes: string[] = [];
  const sent = text(payload.groupKey) ?? sender.fallbackKey?.(members);
  const key = sent !== undefined ? { thirdpartyId: alertKey(sent, eventNotes), idGenerated: false } : generatedKey(options, 0, 'groupKey', eventNotes);
  eventNotes.push(`Group ${status}: ${members.map((m) => `${text(m.fingerprint) ?? '?'} ${statusOf(m.status) ?? '?'}`).join(', ') || 'no members'}`);
  if (status === 'resolved') return { events: [actOn('resolve', key, eventNotes)], notes };

  const truncated = typeof payload.truncatedAlerts === 'number' ? payload.truncatedAlerts : 0;
  const description = descriptionWithin(groupDescription(members, truncated), eventNotes);
  const firing = members.filter((m) => statusOf(m.status) !== 'resolved');
  const severity = text(record(payload.commonLabels).severity);
  const mapped = mappedUrgency(severity, SEVERITY_URGENCY) ?? (severity === undefined ? urgencyOfMembers(firing) : undefined);
  const create: ReadEvent = {
    event: 'create',
    ...key,
    fields: {
      title: titleWithin(groupTitle(payload, sender), eventNotes),
      description,
      urgency: urgencyOr(mapped, severity, 'severity label', options, eventNotes),
    },
    notes: eventNotes,
  };
  const data = createData(linksOf(payload, members, sender, eventNotes), payload, READ_KEYS, options, eventNotes);
  if (data) create.fields.additional_data = data;
  // A repeat of an active group is the applier's duplicate (count + 1, nobody paged); the update then writes the
  // members' current state, and changes nothing when they are as they were.
  const update: ReadEvent = { event: 'update', ...key, fields: { description }, notes: [] };
  return { events: [create, update], notes };
}

/** `alert_per: alert`: each member is its own alert, keyed by its fingerprint, in the order sent. */
function readMembers(payload: Record<string, unknown>, members: Record<string, unknown>[], options: ReaderOptions, sender: GroupSender, notes: string[]): Reading {
  const events: ReadEvent[] = [];
  members.forEach((member, index) => {
    const eventNotes: string[] = [];
    const status = statusOf(member.status);
    const fingerprint = text(member.fingerprint);
    if (!status) {
      notes.push(`alerts[${index}]: status ${JSON.stringify(member.status ?? null)} is neither firing nor resolved; left out`);
      return;
    }
    const key = fingerprint !== undefined ? { thirdpartyId: alertKey(fingerprint, eventNotes), idGenerated: false } : generatedKey(options, index, `fingerprint on alerts[${index}]`, eventNotes);
    eventNotes.push(`Alert ${key.thirdpartyId} ${status}`);
    if (status === 'resolved') {
      events.push(actOn('resolve', key, eventNotes));
      return;
    }
    const severity = text(labelsOf(member).severity);
    const create: ReadEvent = {
      event: 'create',
      ...key,
      fields: {
        title: titleWithin(memberTitle(member, sender), eventNotes),
        description: descriptionWithin(memberText(member), eventNotes),
        urgency: urgencyOr(mappedUrgency(severity, SEVERITY_URGENCY), severity, 'severity label', options, eventNotes),
      },
      notes: eventNotes,
    };
    const data = createData(linksOf(payload, [member], sender, eventNotes), payload, READ_KEYS, options, eventNotes);
    if (data) create.fields.additional_data = data;
    events.push(create);
  });
  if (events.length === 0) return ignoredReading('No alert in the notification has a status of firing or resolved', notes);
  return { events, notes };
}
