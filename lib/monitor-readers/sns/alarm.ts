// A CloudWatch alarm's state change, as SNS delivers it in a Notification's Message, read into one alert event
// (docs/monitors.md, "Amazon CloudWatch (Amazon SNS)": the mapping table). Pure.
import { NAME_LENGTH, TEXT_LENGTH } from '../../limits.ts';
import { isJsonObject } from '../wrapper-key.ts';
import { additionalDataOf, cutText, labelList, textOf } from '../fields.ts';
import type { AdditionalDatumReading, ReadEvent, ReadFields } from '../types.ts';

export const INSUFFICIENT_DATA_ACTIONS = ['ignore', 'create', 'resolve'] as const;
export type InsufficientDataAction = (typeof INSUFFICIENT_DATA_ACTIONS)[number];

/** Keys of the alarm message Hark reads itself; the others are additional data when captured. */
const ALARM_KEYS: ReadonlySet<string> = new Set([
  'alarmname',
  'alarmdescription',
  'newstatevalue',
  'newstatereason',
  'alarmarn',
  'trigger',
  'alarmrule',
  'triggeringchildren',
  'awsaccountid',
  'region',
  'statechangetime',
  'oldstatevalue',
]);

/** Whether a Notification's Message is a CloudWatch alarm's state change. */
export function isAlarmMessage(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && typeof value.AlarmName === 'string' && typeof value.NewStateValue === 'string';
}

/** `arn:<partition>:cloudwatch:<region>:<account>:alarm:<name>`: its parts, or undefined. */
export function alarmArnParts(arn: unknown): { partition: string; region: string; account: string } | undefined {
  if (typeof arn !== 'string') return undefined;
  const match = /^arn:(aws|aws-cn|aws-us-gov):cloudwatch:([a-z0-9-]+):(\d{12}):alarm:.+$/.exec(arn);
  return match ? { partition: match[1]!, region: match[2]!, account: match[3]! } : undefined;
}

/** The alarm's page in the CloudWatch console, in its own region and partition. */
export function consoleUrlOf(partition: string, region: string, alarmName: string): string {
  const host = partition === 'aws-cn' ? `${region}.console.amazonaws.cn` : partition === 'aws-us-gov' ? 'console.amazonaws-us-gov.com' : `${region}.console.aws.amazon.com`;
  return `https://${host}/cloudwatch/home?region=${region}#alarmsV2:alarm/${encodeURIComponent(alarmName)}`;
}

interface MetricReference {
  namespace?: string;
  metric?: string;
  dimensions: { name: string; value: string }[];
}

function dimensionsOf(value: unknown): { name: string; value: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((d) => {
    if (!isJsonObject(d)) return [];
    const name = textOf(d.name ?? d.Name);
    const text = textOf(d.value ?? d.Value);
    return name !== undefined && text !== undefined ? [{ name, value: text }] : [];
  });
}

/** The metrics an alarm watches: the single metric of Trigger, or each MetricStat of a metric-math alarm's Metrics. */
function metricsOf(trigger: unknown): MetricReference[] {
  if (!isJsonObject(trigger)) return [];
  if (typeof trigger.MetricName === 'string') {
    return [{ namespace: textOf(trigger.Namespace), metric: trigger.MetricName, dimensions: dimensionsOf(trigger.Dimensions) }];
  }
  if (!Array.isArray(trigger.Metrics)) return [];
  return trigger.Metrics.flatMap((entry) => {
    const metric = isJsonObject(entry) && isJsonObject(entry.MetricStat) && isJsonObject(entry.MetricStat.Metric) ? entry.MetricStat.Metric : undefined;
    return metric ? [{ namespace: textOf(metric.Namespace), metric: textOf(metric.MetricName), dimensions: dimensionsOf(metric.Dimensions) }] : [];
  });
}

function tagsOf(trigger: unknown, notes: string[]): string[] {
  const tags: string[] = [];
  for (const metric of metricsOf(trigger)) {
    if (metric.namespace) tags.push(`namespace:${metric.namespace}`);
    if (metric.metric) tags.push(`metric:${metric.metric}`);
    for (const d of metric.dimensions) tags.push(`${d.name}:${d.value}`);
  }
  return labelList(tags, 'tags', notes);
}

/** The expressions of a metric-math alarm, one line each (`e1 = m1*1`). */
function expressionsOf(trigger: unknown): string[] {
  if (!isJsonObject(trigger) || !Array.isArray(trigger.Metrics)) return [];
  return trigger.Metrics.flatMap((entry) => (isJsonObject(entry) && typeof entry.Expression === 'string' ? [`${textOf(entry.Id) ?? '?'} = ${entry.Expression}`] : []));
}

/** A composite alarm's children that changed its state: `<child arn> (ALARM)`. */
function childrenOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((child) => {
    if (!isJsonObject(child)) return [];
    const arn = textOf(child.Arn);
    const state = isJsonObject(child.State) ? textOf(child.State.Value) : undefined;
    return arn ? [state ? `${arn} (${state})` : arn] : [];
  });
}

function descriptionOf(alarm: Record<string, unknown>, consoleUrl: string | undefined): string | null {
  const lines: string[] = [];
  const reason = textOf(alarm.NewStateReason)?.trim();
  const about = textOf(alarm.AlarmDescription)?.trim();
  if (reason) lines.push(reason);
  if (about) lines.push(about);
  const rule = textOf(alarm.AlarmRule)?.trim();
  if (rule) lines.push(`Rule: ${rule}`);
  const children = childrenOf(alarm.TriggeringChildren);
  if (children.length) lines.push(`Triggered by: ${children.join(', ')}`);
  const expressions = expressionsOf(alarm.Trigger);
  if (expressions.length) lines.push(`Expressions: ${expressions.join('; ')}`);
  if (consoleUrl) lines.push(`Console: ${consoleUrl}`);
  return lines.length ? cutText(lines.join('\n\n'), TEXT_LENGTH) : null;
}

export interface AlarmReading {
  event?: ReadEvent;
  /** Set when the state change makes no event. */
  ignoredReason?: string;
}

/**
 * ALARM creates, OK resolves, INSUFFICIENT_DATA does what the option says; the key is the AlarmArn (an old message
 * without one: `<account>:<AlarmName>`), so ALARM → OK → ALARM makes two alerts.
 */
export function readAlarm(alarm: Record<string, unknown>, options: { insufficientData: InsufficientDataAction; captureAdditionalData: boolean }): AlarmReading {
  const notes: string[] = [];
  const name = (alarm.AlarmName as string).trim() || 'CloudWatch alarm';
  const state = (alarm.NewStateValue as string).trim().toUpperCase();
  let event: ReadEvent['event'];
  if (state === 'ALARM') event = 'create';
  else if (state === 'OK') event = 'resolve';
  else if (state === 'INSUFFICIENT_DATA') {
    if (options.insufficientData === 'ignore') {
      return { ignoredReason: `alarm "${cutText(name, 64)}" went to INSUFFICIENT_DATA, which the integration ignores (option insufficient_data is ignore; set create or resolve to act on it)` };
    }
    event = options.insufficientData;
    notes.push(`INSUFFICIENT_DATA read as ${event} (option insufficient_data)`);
  } else return { ignoredReason: `alarm state ${JSON.stringify(cutText(state, 32))} is not ALARM, OK or INSUFFICIENT_DATA` };

  const arn = textOf(alarm.AlarmArn)?.trim();
  const parts = alarmArnParts(arn);
  let thirdpartyId: string;
  if (arn) thirdpartyId = arn;
  else {
    thirdpartyId = `${textOf(alarm.AWSAccountId) ?? 'unknown-account'}:${name}`;
    notes.push(`The alarm message has no AlarmArn; keyed the alert by account and alarm name (${thirdpartyId})`);
  }
  if (event !== 'create') return { event: { event, thirdpartyId, idGenerated: false, fields: {}, notes } };

  const consoleUrl = parts ? consoleUrlOf(parts.partition, parts.region, name) : undefined;
  const links: AdditionalDatumReading[] = consoleUrl ? [{ format: 'link', label: 'CloudWatch console', value: consoleUrl }] : [];
  if (name.length > NAME_LENGTH) notes.push(`Title cut to ${NAME_LENGTH} characters`);
  const captured = options.captureAdditionalData ? additionalDataOf(alarm, ALARM_KEYS, notes) : [];
  const fields: ReadFields = {
    title: cutText(name, NAME_LENGTH),
    description: descriptionOf(alarm, consoleUrl),
    tag_list: tagsOf(alarm.Trigger, notes),
    meta: {
      alarm_arn: arn ?? null,
      aws_account_id: textOf(alarm.AWSAccountId) ?? parts?.account ?? null,
      region: parts?.region ?? textOf(alarm.Region) ?? null,
      state_change_time: textOf(alarm.StateChangeTime) ?? null,
      old_state: textOf(alarm.OldStateValue) ?? null,
    },
    additional_data: [...links, ...captured],
  };
  return { event: { event, thirdpartyId, idGenerated: false, fields, notes } };
}
