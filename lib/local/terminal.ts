// `npm start`'s terminal: the logger's records (lib/logger.ts) rendered as one human line each instead of JSON. The
// event records of lib/activity/events.ts become sentences naming the alert (prefix id and title), who and what;
// other records show at WARN and above as `LEVEL message key=value`. HARK_LOG_LEVEL (or `--quiet`) sets how much.
// docs/configuration.md, "What npm start prints".
import type { ActivityRecord } from '../activity/events.ts';
import { ConfigError, TERMINAL_LEVELS, type TerminalLevel } from '../config.ts';
import { logger, type LogRecord } from '../logger.ts';

export interface LineOptions {
  /** The time of day a line starts with; the machine's local time by default. */
  timeOf?: (date: Date) => string;
  /** Show records that are not events below WARN (HARK_LOG_LEVEL=debug). */
  verbose?: boolean;
}

const localTime = (date: Date) => date.toTimeString().slice(0, 8);

/** Control characters (a newline in a title) would let a value fake a line of its own. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const clean = (value: unknown): string => String(value).replace(/[\u0000-\u001f\u007f]+/g, ' ');
const quoted = (text: string | null | undefined) => (text ? ` "${clean(text)}"` : '');
const list = (names: readonly string[]) => (names.length === 0 ? 'nobody' : names.map(clean).join(', '));

const CHANNEL_WORDS: Record<string, string> = { api: 'the API', webhook: 'webhook', sms: 'SMS', voice: 'a phone call', whatsapp: 'WhatsApp', slack: 'Slack', message: 'a message' };
const channelWords = (channel: string) => CHANNEL_WORDS[channel] ?? clean(channel);

const MESSAGE_KINDS: Record<string, string> = {
  'alert.open': 'page',
  'alert.acknowledged': '"acknowledged" message',
  'alert.resolved': '"resolved" message',
  'alert.dropped': '"dropped" message',
  'alert.handoff': '"handed on" message',
  'broadcast.sent': 'broadcast',
};

const timeOfIso = (iso: string | null, timeOf: (date: Date) => string) => (iso ? timeOf(new Date(iso)) : 'later');

/** The sentence of one event record (without time and level). Pure. */
export function eventSentence(record: ActivityRecord, timeOf: (date: Date) => string = localTime): string {
  switch (record.event) {
    case 'webhook.applied':
      return `webhook from ${clean(record.integration_name ?? record.integration_prefix_id ?? record.integration_id)} (${record.log_id}): ${clean(record.note)}${record.title ? ` —${quoted(record.title)}` : ''}`;
    case 'webhook.refused':
      return `webhook to /integration/${clean(record.integration)} refused with ${record.status}: ${clean(record.reason)}`;
    case 'alert.created':
      return `${record.alert_prefix_id}${quoted(record.title)} created by ${record.by_type === 'integration' ? 'integration ' : ''}${clean(record.by_name)} (${record.urgency}, ${record.status})`;
    case 'alert.escalated':
      return `${record.alert_prefix_id}${quoted(record.title)}: ${escalation(record)}`;
    case 'alert.dropped':
      return `${record.alert_prefix_id}${quoted(record.title)} dropped, nobody is paged: ${record.reasons.map(clean).join('; ')}`;
    case 'alert.acknowledged':
    case 'alert.resolved':
      return `${record.alert_prefix_id}${quoted(record.title)} ${record.event.slice(6)} by ${record.by_type === 'integration' ? 'integration ' : ''}${clean(record.by_name)} via ${channelWords(record.channel)}`;
    case 'notification.sent':
    case 'notification.suppressed':
    case 'notification.failed':
    case 'notification.retrying': {
      const what = `${MESSAGE_KINDS[record.notification_type] ?? clean(record.notification_type)} to ${clean(record.person)} by ${channelWords(record.channel)}`;
      const about = `${record.owner_prefix_id}${quoted(record.title)}: ${what}`;
      if (record.outcome === 'sent') return `${about} sent${record.provider ? ` (${clean(record.provider)})` : ''}`;
      if (record.outcome === 'suppressed') return `${about} not sent: ${clean(record.reason)}`;
      if (record.outcome === 'failed') return `${about} failed after ${record.attempt} ${record.attempt === 1 ? 'attempt' : 'attempts'}: ${clean(record.reason)}`;
      return `${about} not sent (attempt ${record.attempt}): ${clean(record.reason)}; next try at ${timeOfIso(record.next_attempt_at, timeOf)}`;
    }
    case 'broadcast.sent':
      return `${record.broadcast_prefix_id}${quoted(record.title)} sent to ${record.recipients} ${record.recipients === 1 ? 'person' : 'people'} (${record.reached} reached), ${record.status}`;
    case 'broadcast.answered':
      return `${record.broadcast_prefix_id}${quoted(record.title)}: ${clean(record.person)} answered${quoted(record.answer)} via ${channelWords(record.channel)}`;
    case 'outgoing_webhook.delivered':
    case 'outgoing_webhook.retrying':
    case 'outgoing_webhook.failed':
    case 'outgoing_webhook.disabled': {
      const subject = record.subject_prefix_id ? `${record.subject_prefix_id}${quoted(record.title)}: ` : '';
      const hook = `${subject}outgoing webhook ${clean(record.webhook_name ?? record.webhook_prefix_id ?? record.webhook_id)} (${clean(record.event_type)})`;
      if (record.outcome === 'delivered') return `${hook} delivered (${record.status_code})`;
      if (record.outcome === 'retrying') return `${hook} not delivered (attempt ${record.attempt}): ${clean(record.reason)}; next try at ${timeOfIso(record.next_attempt_at, timeOf)}`;
      if (record.outcome === 'failed') return `${hook} failed for good after ${record.attempt} ${record.attempt === 1 ? 'attempt' : 'attempts'}: ${clean(record.reason)}`;
      return `${hook} not delivered; the webhook is disabled: ${clean(record.reason)}`;
    }
  }
}

function escalation(record: Extract<ActivityRecord, { event: 'alert.escalated' }>): string {
  const people = list(record.people);
  // Powertools leaves null fields out of a record: a direct page has no team_name at all.
  if (!record.team_name) return `paging ${people} directly`;
  const layer = `layer ${record.layer} of team ${clean(record.team_name)}`;
  const pass = record.pass !== null && record.pass > 1 ? `, pass ${record.pass}` : '';
  switch (record.reason) {
    case 'new':
      return `paging ${layer}${pass}: ${people}`;
    case 'timeout':
      return `escalated to ${layer}${pass} (not acknowledged in time): ${people}`;
    case 'rejected':
      return `escalated to ${layer}${pass} (rejected): ${people}`;
    case 'repeat':
      return `escalated to ${layer}${pass} (a new pass through the layers): ${people}`;
    case 'reassigned':
      return `handed on, paging ${layer}${pass}: ${people}`;
    case 'delayed':
      return `paging ${layer}${pass} (the router's delay is over): ${people}`;
  }
}

const EVENT = /^(webhook|alert|notification|broadcast|outgoing_webhook)\./;
/** Keys every record carries, left out of a non-event record's line. */
const COMMON_KEYS = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id', 'cold_start', 'function_arn', 'function_memory_size', 'function_name', 'function_request_id', 'function_version', 'correlation_id']);

function detail(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value && typeof value === 'object') {
    const error = value as { name?: unknown; message?: unknown };
    if (typeof error.message === 'string') return `${typeof error.name === 'string' ? `${error.name}: ` : ''}${error.message}`;
    return JSON.stringify(value);
  }
  return String(value);
}

/** One record as a terminal line, or undefined when it is not shown (a non-event record below WARN, unless verbose). Pure. */
export function terminalLine(record: LogRecord, options: LineOptions = {}): string | undefined {
  const timeOf = options.timeOf ?? localTime;
  const level = String(record.level ?? 'INFO');
  const time = timeOf(typeof record.timestamp === 'string' ? new Date(record.timestamp) : new Date());
  const tag = level === 'INFO' || level === 'DEBUG' ? '' : `${level} `;
  if (typeof record.event === 'string' && EVENT.test(record.event)) return `${time} ${tag}${eventSentence(record as unknown as ActivityRecord, timeOf)}`;
  if (!tag && !options.verbose) return undefined;
  const details = Object.entries(record)
    .filter(([key, value]) => !COMMON_KEYS.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${clean(detail(value))}`);
  return `${time} ${tag || `${level} `}${clean(record.message)}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

const terminalWriters = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };

const POWERTOOLS_LEVELS: Record<TerminalLevel, 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT'> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'SILENT' };

/** Sends the logger's records to the terminal as lines, at `level`: information to stdout, warnings and errors to stderr. */
export function useTerminal(level: TerminalLevel, write: { out: (line: string) => void; err: (line: string) => void } = terminalWriters): void {
  logger.pinLogLevel(POWERTOOLS_LEVELS[level]);
  logger.setSink((record) => {
    const line = terminalLine(record, { verbose: level === 'debug' });
    if (line === undefined) return;
    if (record.level === 'INFO' || record.level === 'DEBUG') write.out(line);
    else write.err(line);
  });
}


/** `npm start`'s arguments: `--quiet` (HARK_LOG_LEVEL=warn at most), `--bundles` (bundle mode, docs/architecture.md) and
 * `--one-thread` (the background functions on the gateway's thread, docs/decisions/0033-functions-in-threads-locally.md). */
export const START_ARGUMENTS = ['--quiet', '--bundles', '--one-thread'] as const;

/**
 * The level `npm start` prints at: HARK_LOG_LEVEL, made at most `warn` by `--quiet` (`npm start -- --quiet`, its
 * shorthand). An argument that is not one of START_ARGUMENTS is refused in one line, as a bad setting is.
 */
export function terminalLevel(args: readonly string[], setting: TerminalLevel): TerminalLevel {
  for (const arg of args) {
    if (!(START_ARGUMENTS as readonly string[]).includes(arg)) {
      throw new ConfigError('HARK_LOG_LEVEL', `npm start takes no argument but --quiet (HARK_LOG_LEVEL=warn) --bundles (the functions from cdk.out) and --one-thread (the background functions on the gateway’s thread), got ${JSON.stringify(arg)}; every other setting is an environment variable`);
    }
  }
  return args.includes('--quiet') && TERMINAL_LEVELS.indexOf(setting) < TERMINAL_LEVELS.indexOf('warn') ? 'warn' : setting;
}

/** The start-up line that says where events go. */
export const eventsNotice = (level: TerminalLevel): string =>
  level === 'silent'
    ? 'Events: not printed (HARK_LOG_LEVEL=silent).'
    : `Events: one line each, below (HARK_LOG_LEVEL=${level}${level === 'info' || level === 'debug' ? '; HARK_LOG_LEVEL=warn or npm start -- --quiet prints only problems' : ''}).`;
