import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  parseRulesDocument,
  reportUnknownKeys,
  type ActionReader,
  type BaseRule,
  type ParseOptions,
  type ParseResult,
  type RuleGrammar,
} from './document.ts';
import { firstMatchingRule, type Evaluation } from './evaluate.ts';
import { readDuration } from './fields.ts';
import type { Path, Report } from './problems.ts';
import { isMapping } from './values.ts';
import { MAX_REPEAT_TIMES } from '../limits.ts';

export const NOTIFICATION_TYPES = [
  'alert.open',
  'alert.acknowledged',
  'alert.rejected',
  'alert.resolved',
  'alert.dropped',
  'alert.timeout',
  'alert.handoff',
  'broadcast.sent',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const DEFAULT_NOTIFICATION_TYPES: readonly NotificationType[] = ['alert.open'];

export const CHANNELS = ['push', 'email', 'sms', 'voice', 'whatsapp', 'slack'] as const;
export type Channel = (typeof CHANNELS)[number];

/** `primary`, `secondary`, or an explicit address (email) or E.164 number (sms, voice, whatsapp). */
export interface ChannelOptions {
  readonly email?: string;
  readonly sms?: string;
  readonly voice?: string;
  readonly whatsapp?: string;
  /** When the chosen address or number cannot be used, fall back to the primary one. */
  readonly email_fallback?: boolean;
  readonly sms_fallback?: boolean;
  readonly voice_fallback?: boolean;
  readonly whatsapp_fallback?: boolean;
}

export interface NotifyAction {
  readonly type: 'notify';
  readonly channels: readonly Channel[];
  readonly channelOptions: ChannelOptions;
  /** How long to wait before the next action; absent means go on at once. */
  readonly timeoutMs?: number;
}
export interface RepeatAction {
  readonly type: 'repeat';
  readonly times: number;
}
export interface IgnoreNotificationAction {
  readonly type: 'ignore';
}
export type NotificationAction = NotifyAction | RepeatAction | IgnoreNotificationAction;

export interface NotificationRule extends BaseRule<NotificationAction> {
  readonly types: readonly NotificationType[];
}
export interface NotificationRulesDocument {
  readonly rules: readonly NotificationRule[];
}

const TARGETED_CHANNELS = ['email', 'sms', 'voice', 'whatsapp'] as const;
const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isE164(value: string): boolean {
  const phone = parsePhoneNumberFromString(value);
  return phone !== undefined && phone.isValid() && phone.number === value;
}

function targetProblem(channel: (typeof TARGETED_CHANNELS)[number], value: unknown): string | undefined {
  if (value === 'primary' || value === 'secondary') return undefined;
  if (channel === 'email') {
    return typeof value === 'string' && EMAIL_ADDRESS.test(value) ? undefined : 'email must be primary, secondary or an email address';
  }
  if (typeof value === 'string' && isE164(value)) return undefined;
  return `${channel} must be primary, secondary or a valid phone number in E.164 format such as +4915112345678`;
}

function readChannelOptions(value: unknown, path: Path, report: Report): ChannelOptions {
  const at = [...path, 'channel_options'];
  if (value === undefined) return {};
  if (!isMapping(value)) {
    report(at, 'channel_options must be a mapping');
    return {};
  }
  const fallbacks = TARGETED_CHANNELS.map((c) => `${c}_fallback`);
  reportUnknownKeys(value, [...TARGETED_CHANNELS, ...fallbacks], at, report, 'in channel_options');
  for (const channel of TARGETED_CHANNELS) {
    const problem = value[channel] === undefined ? undefined : targetProblem(channel, value[channel]);
    if (problem) report([...at, channel], problem);
  }
  for (const key of fallbacks) {
    if (value[key] !== undefined && typeof value[key] !== 'boolean') report([...at, key], `${key} must be true or false`);
  }
  return value as ChannelOptions;
}

function readChannels(value: unknown, path: Path, report: Report): Channel[] {
  const at = [...path, 'channels'];
  if (value === undefined) report(path, 'channels is required');
  else if (!Array.isArray(value) || value.length === 0) report(at, `channels must be a non-empty list of ${CHANNELS.join(', ')}`);
  if (!Array.isArray(value)) return [];
  value.forEach((channel, i) => {
    if (!CHANNELS.some((c) => c === channel)) report([...at, i], `unknown channel ${JSON.stringify(channel)}`);
  });
  return [...new Set(value.filter((c): c is Channel => CHANNELS.some((known) => known === c)))];
}

const readNotify: ActionReader<NotificationAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'channels', 'channel_options', 'timeout'], path, report, 'in notify action');
  const channels = readChannels(action.channels, path, report);
  const channelOptions = readChannelOptions(action.channel_options, path, report);
  const timeoutMs = readDuration(action, 'timeout', { required: false, positive: false }, path, report);
  return timeoutMs === undefined ? { type: 'notify', channels, channelOptions } : { type: 'notify', channels, channelOptions, timeoutMs };
};

const readRepeat: ActionReader<NotificationAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type', 'times'], path, report, 'in repeat action');
  const times = action.times;
  const valid = Number.isInteger(times) && (times as number) >= 0 && (times as number) <= MAX_REPEAT_TIMES;
  if (times === undefined) report(path, 'times is required');
  else if (!valid) report([...path, 'times'], `times must be a whole number from 0 to ${MAX_REPEAT_TIMES}`);
  return { type: 'repeat', times: valid ? (times as number) : 0 };
};

const readIgnore: ActionReader<NotificationAction> = (action, path, report) => {
  reportUnknownKeys(action, ['type'], path, report, 'in ignore action');
  return { type: 'ignore' };
};

function readTypes(rule: Record<string, unknown>, path: Path, report: Report): NotificationType[] {
  const value = rule.types;
  const at = [...path, 'types'];
  if (value === undefined) return [...DEFAULT_NOTIFICATION_TYPES];
  if (!Array.isArray(value) || value.length === 0) {
    report(at, `types must be a non-empty list of ${NOTIFICATION_TYPES.join(', ')}`);
    return [];
  }
  value.forEach((type, i) => {
    if (!NOTIFICATION_TYPES.some((t) => t === type)) report([...at, i], `unknown notification type ${JSON.stringify(type)}`);
  });
  return [...new Set(value.filter((t): t is NotificationType => NOTIFICATION_TYPES.some((known) => known === t)))];
}

/** `repeat` reruns the notify actions above it, so one with nothing above it would do nothing. */
function reportLoneRepeats(rule: Record<string, unknown>, path: Path, report: Report): void {
  const actions: unknown = rule.actions;
  if (!Array.isArray(actions)) return;
  const typeAt = (i: number): unknown => {
    const action: unknown = actions[i];
    return isMapping(action) ? action.type : undefined;
  };
  const firstNotify = actions.findIndex((_, i) => typeAt(i) === 'notify');
  actions.forEach((_, i) => {
    if (typeAt(i) === 'repeat' && (firstNotify < 0 || i < firstNotify)) {
      report([...path, 'actions', i], 'repeat needs a notify action above it');
    }
  });
}

const NOTIFICATION_GRAMMAR: RuleGrammar<NotificationAction, NotificationRule> = {
  extraRuleKeys: ['types'],
  actions: { notify: readNotify, repeat: readRepeat, ignore: readIgnore },
  finishRule: (rule, base, path, report) => {
    reportLoneRepeats(rule, path, report);
    return { ...base, types: readTypes(rule, path, report) };
  },
};

/** Parses and validates a notification rule's `rules` YAML; call on every write with `{onSave: true}` and refuse the write on problems. */
export function parseNotificationRules(yamlText: string, options: ParseOptions = {}): ParseResult<NotificationRulesDocument> {
  return parseRulesDocument(yamlText, NOTIFICATION_GRAMMAR, options);
}

/**
 * The first rule (top-down) whose types include `type` and whose match holds, with its actions;
 * `{matched: false}` means the user's default channels.
 */
export function evaluateNotificationRules(
  doc: NotificationRulesDocument,
  data: unknown,
  type: NotificationType,
  now: Date,
): Evaluation<NotificationAction> {
  return firstMatchingRule(doc.rules, data, now, (rule) => rule.types.includes(type));
}
