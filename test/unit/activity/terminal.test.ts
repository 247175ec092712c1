// `npm start`'s terminal (lib/local/terminal.ts): each event record of lib/activity/events.ts as one human line
// naming the alert by prefix id and title, other records only when they are warnings, and HARK_LOG_LEVEL / --quiet
// deciding how much. Times come from the record and a fixed formatter, so the lines are exact.
import { afterEach, describe, expect, it } from 'vitest';
import { alertAcknowledged, alertCreated, alertDropped, alertEscalated, notificationOutcome, webhookApplied } from '#lib/activity/events.ts';
import { notificationFields } from '#lib/delivery/activity.ts';
import { subjectOfPayload } from '#lib/activity/webhooks.ts';
import { ConfigError } from '#lib/config.ts';
import { eventsNotice, terminalLevel, terminalLine, useTerminal } from '#lib/local/terminal.ts';
import { logger } from '#lib/logger.ts';

const utc = (date: Date) => date.toISOString().slice(11, 19);
const at = '2026-03-01T09:15:42.123+00:00';
const line = (record: Record<string, unknown>, verbose = false) => terminalLine({ level: 'INFO', message: 'x', timestamp: at, service: 'hark', ...record }, { timeOf: utc, verbose });
const alert = { alert_id: '01KAQ', alert_prefix_id: 'alt_Ab12Cd34Ef56', title: 'Disk full' };

describe('event lines', () => {
  it('a webhook request and what it became, with the alert and its title', () => {
    const applied = {
      event: 'webhook.applied',
      integration_id: '01KIN',
      integration_prefix_id: 'int_Xy12',
      integration_name: 'Grafana',
      log_id: 'log_aB3cD4eF5gH6iJ',
      result: 'created',
      note: 'Created alert alt_Ab12Cd34Ef56 (open)',
      alert_prefix_id: 'alt_Ab12Cd34Ef56',
      title: 'Disk full',
    };
    expect(line(applied)).toBe('09:15:42 webhook from Grafana (log_aB3cD4eF5gH6iJ): Created alert alt_Ab12Cd34Ef56 (open) — "Disk full"');
    expect(line({ ...applied, result: 'ignored', note: 'Ignored: No Title: a create needs a non-blank Title; no alert was created', alert_prefix_id: null, title: null })).toBe(
      '09:15:42 webhook from Grafana (log_aB3cD4eF5gH6iJ): Ignored: No Title: a create needs a non-blank Title; no alert was created',
    );
    expect(line({ event: 'webhook.refused', integration: 'int_Xy12', status: 403, reason: 'Missing or invalid service-token header' })).toBe(
      '09:15:42 webhook to /integration/int_Xy12 refused with 403: Missing or invalid service-token header',
    );
  });

  it('created, escalated (each reason), dropped, acknowledged and resolved', () => {
    expect(line({ event: 'alert.created', ...alert, by_type: 'integration', by_id: '01KIN', by_name: 'Grafana', urgency: 'high', status: 'open' })).toBe(
      '09:15:42 alt_Ab12Cd34Ef56 "Disk full" created by integration Grafana (high, open)',
    );
    const escalated = { event: 'alert.escalated', ...alert, team_id: '01KTE', team_name: 'Payments', layer: 1, pass: 1, reason: 'new', account_user_ids: ['a', 'b'], people: ['Ada Lovelace', 'Grace Hopper'] };
    expect(line(escalated)).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": paging layer 1 of team Payments: Ada Lovelace, Grace Hopper');
    expect(line({ ...escalated, layer: 2, reason: 'timeout', people: ['Grace Hopper'] })).toBe(
      '09:15:42 alt_Ab12Cd34Ef56 "Disk full": escalated to layer 2 of team Payments (not acknowledged in time): Grace Hopper',
    );
    expect(line({ ...escalated, pass: 2, reason: 'repeat' })).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": escalated to layer 1 of team Payments, pass 2 (a new pass through the layers): Ada Lovelace, Grace Hopper');
    expect(line({ ...escalated, team_id: null, team_name: null, people: ['Ada Lovelace'] })).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": paging Ada Lovelace directly');
    // As printed: the logger leaves null fields out of the record.
    const { team_id: _id, team_name: _name, ...direct } = escalated;
    expect(line({ ...direct, people: ['Ada Lovelace'] })).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": paging Ada Lovelace directly');
    expect(line({ event: 'alert.dropped', level: 'WARN', ...alert, reasons: ["team Payments: nobody is on call on any layer of team Payments's schedule"] })).toBe(
      `09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full" dropped, nobody is paged: team Payments: nobody is on call on any layer of team Payments's schedule`,
    );
    const acted = { ...alert, by_type: 'account_user', by_id: 'a', by_name: 'Ada Lovelace' };
    expect(line({ event: 'alert.acknowledged', ...acted, channel: 'api' })).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full" acknowledged by Ada Lovelace via the API');
    expect(line({ event: 'alert.acknowledged', ...acted, channel: 'sms' })).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full" acknowledged by Ada Lovelace via SMS');
    expect(line({ event: 'alert.resolved', ...alert, by_type: 'integration', by_id: 'i', by_name: 'Grafana', channel: 'webhook' })).toBe(
      '09:15:42 alt_Ab12Cd34Ef56 "Disk full" resolved by integration Grafana via webhook',
    );
  });

  it('a message sent, suppressed for want of a provider, retried and failed', () => {
    const about = { ownerType: 'alert' as const, prefixId: 'alt_Ab12Cd34Ef56' };
    const record = { id: 'n1', account_user_id: 'a', channel: 'email', notification_type: 'alert.open' };
    const named = { title: 'Disk full', person: 'Ada Lovelace' };
    const render = (fields: object, level = 'INFO') => line({ level, event: `notification.${(fields as { outcome: string }).outcome}`, ...fields });
    const sent = notificationFields(about, record, { kind: 'sent', provider: 'smtp', providerMessageId: 'm', at }, 1, named);
    expect(render(sent)).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": page to Ada Lovelace by email sent (smtp)');
    const suppressed = notificationFields(about, { ...record, channel: 'sms' }, { kind: 'suppressed', reason: 'no SMS provider is configured: set HARK_SMS_PROVIDER', provider: null, at }, 1, named);
    expect(render(suppressed)).toBe('09:15:42 alt_Ab12Cd34Ef56 "Disk full": page to Ada Lovelace by SMS not sent: no SMS provider is configured: set HARK_SMS_PROVIDER');
    const retry = notificationFields(about, record, { kind: 'retry', provider: 'smtp', error: '450 Try again later', at, nextAttemptAt: '2026-03-01T09:16:12.000Z' }, 1, named);
    expect(render(retry, 'WARN')).toBe('09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full": page to Ada Lovelace by email not sent (attempt 1): 450 Try again later; next try at 09:16:12');
    const failed = notificationFields(about, { ...record, notification_type: 'alert.acknowledged' }, { kind: 'failed', provider: 'smtp', error: '550 Mailbox unavailable', at }, 3, named);
    expect(render(failed, 'WARN')).toBe('09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full": "acknowledged" message to Ada Lovelace by email failed after 3 attempts: 550 Mailbox unavailable');
  });

  it('broadcasts sent and answered; outgoing webhooks delivered, retried, failed and disabled', () => {
    const broadcast = { broadcast_id: 'b', broadcast_prefix_id: 'brd_Ab12Cd34Ef56', title: 'Maintenance tonight' };
    expect(line({ event: 'broadcast.sent', ...broadcast, status: 'open', recipients: 3, reached: 2 })).toBe('09:15:42 brd_Ab12Cd34Ef56 "Maintenance tonight" sent to 3 people (2 reached), open');
    expect(line({ event: 'broadcast.answered', ...broadcast, account_user_id: 'g', person: 'Grace Hopper', answer: 'I can be on standby', channel: 'email' })).toBe(
      '09:15:42 brd_Ab12Cd34Ef56 "Maintenance tonight": Grace Hopper answered "I can be on standby" via email',
    );
    const payload = JSON.stringify({ type: 'alert.created', timestamp: at, data: { alert: { prefix_id: 'alt_Ab12Cd34Ef56', title: 'Disk full' } } });
    const subject = subjectOfPayload(payload);
    expect(subjectOfPayload('{"type":"webhook.test","data":{}}')).toEqual({ prefixId: null, title: null });
    expect(subjectOfPayload('not json')).toEqual({ prefixId: null, title: null });
    const hook = { webhook_id: 'w', webhook_prefix_id: 'owh_x', webhook_name: 'Ticketing', event_type: 'alert.created', subject_prefix_id: subject.prefixId, title: subject.title, attempt: 1 };
    expect(line({ event: 'outgoing_webhook.delivered', ...hook, outcome: 'delivered', status_code: 200, reason: null, next_attempt_at: null })).toBe(
      '09:15:42 alt_Ab12Cd34Ef56 "Disk full": outgoing webhook Ticketing (alert.created) delivered (200)',
    );
    expect(line({ level: 'WARN', event: 'outgoing_webhook.retrying', ...hook, outcome: 'retrying', status_code: null, reason: 'connect ECONNREFUSED', next_attempt_at: '2026-03-01T09:15:47.000Z' })).toBe(
      '09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full": outgoing webhook Ticketing (alert.created) not delivered (attempt 1): connect ECONNREFUSED; next try at 09:15:47',
    );
    expect(line({ level: 'WARN', event: 'outgoing_webhook.failed', ...hook, attempt: 8, outcome: 'failed', status_code: 500, reason: 'answered 500', next_attempt_at: null })).toBe(
      '09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full": outgoing webhook Ticketing (alert.created) failed for good after 8 attempts: answered 500',
    );
    expect(line({ level: 'WARN', event: 'outgoing_webhook.disabled', ...hook, outcome: 'disabled', status_code: 410, reason: 'the receiver answered 410 Gone', next_attempt_at: null })).toBe(
      '09:15:42 WARN alt_Ab12Cd34Ef56 "Disk full": outgoing webhook Ticketing (alert.created) not delivered; the webhook is disabled: the receiver answered 410 Gone',
    );
  });

  it('a value cannot fake a line of its own: control characters become spaces', () => {
    expect(line({ event: 'alert.created', ...alert, title: 'Disk\nfull\r\n12:00:00 alt_fake "x" acknowledged', by_type: 'account_user', by_id: 'a', by_name: 'Ada', urgency: 'low', status: 'open' })).toBe(
      '09:15:42 alt_Ab12Cd34Ef56 "Disk full 12:00:00 alt_fake "x" acknowledged" created by Ada (low, open)',
    );
  });
});

describe('other records', () => {
  it('show from WARN up as LEVEL message (details), errors by name and message; below WARN only when verbose', () => {
    expect(line({ level: 'WARN', message: 'Delivery adapter threw', notificationId: 'n1', error: new TypeError('boom') })).toBe(
      '09:15:42 WARN Delivery adapter threw (notificationId=n1, error=TypeError: boom)',
    );
    expect(line({ message: 'Timer sweep finished', found: 2 })).toBeUndefined();
    expect(line({ level: 'DEBUG', message: 'Webhook request queued', integrationId: 'i' }, true)).toBe('09:15:42 DEBUG Webhook request queued (integrationId=i)');
  });
});

describe('the logger to the terminal', () => {
  afterEach(() => {
    logger.setSink(undefined);
    logger.setLogLevel('INFO');
  });

  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, write: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };
  const created = { ...alert, by_type: 'integration' as const, by_id: 'i', by_name: 'Grafana', urgency: 'high', status: 'open' };

  it('info: every event as a line on stdout, warnings on stderr', () => {
    const { out, err, write } = capture();
    useTerminal('info', write);
    alertCreated(created);
    alertEscalated({ ...alert, team_id: 't', team_name: 'Payments', layer: 1, pass: 1, reason: 'new', account_user_ids: ['a'], people: ['Ada Lovelace'] });
    alertAcknowledged({ ...alert, by_type: 'account_user', by_id: 'a', by_name: 'Ada Lovelace', channel: 'api' });
    alertDropped({ ...alert, reasons: ['nobody acknowledged and nobody is left to page'] });
    expect(out).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d alt_Ab12Cd34Ef56 "Disk full" created by integration Grafana \(high, open\)$/),
      expect.stringMatching(/: paging layer 1 of team Payments: Ada Lovelace$/),
      expect.stringMatching(/"Disk full" acknowledged by Ada Lovelace via the API$/),
    ]);
    expect(err).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d WARN alt_Ab12Cd34Ef56 "Disk full" dropped, nobody is paged: nobody acknowledged/)]);
  });

  it('warn (HARK_LOG_LEVEL=warn, npm start -- --quiet): only problems; silent: nothing', () => {
    const quiet = capture();
    useTerminal('warn', quiet.write);
    // Powertools puts its start-up level back at each warm Lambda invocation; the terminal's level stays.
    logger.refreshSampleRateCalculation();
    logger.refreshSampleRateCalculation();
    alertCreated(created);
    webhookApplied({ integration_id: 'i', integration_prefix_id: null, integration_name: 'Grafana', log_id: 'log_x', result: 'created', note: 'Created alert alt_x (open)', alert_prefix_id: 'alt_x', title: 'x' });
    notificationOutcome({ outcome: 'retrying', owner_type: 'alert', owner_prefix_id: 'alt_x', title: 'x', notification_type: 'alert.open', notification_id: 'n', account_user_id: 'a', person: 'Ada', channel: 'email', provider: 'smtp', attempt: 1, reason: '450', next_attempt_at: null });
    expect(quiet.out).toEqual([]);
    expect(quiet.err).toEqual([expect.stringContaining('WARN alt_x "x": page to Ada by email not sent (attempt 1): 450')]);

    const silent = capture();
    useTerminal('silent', silent.write);
    alertDropped({ ...alert, reasons: ['x'] });
    logger.error('Unhandled error');
    expect([...silent.out, ...silent.err]).toEqual([]);
  });

  it('without a sink (AWS) the same event is one JSON line with its fields', () => {
    const lines: string[] = [];
    // Powertools prints through its own console; catch what it prints.
    const console = (logger as unknown as { console: { info: (line: string) => void } }).console;
    const info = console.info;
    console.info = (l: string) => void lines.push(l);
    try {
      alertCreated(created);
    } finally {
      console.info = info;
    }
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'INFO', message: 'Alert created', event: 'alert.created', alert_prefix_id: 'alt_Ab12Cd34Ef56', title: 'Disk full', by_name: 'Grafana' });
  });
});

describe('HARK_LOG_LEVEL and --quiet', () => {
  it('--quiet makes it warn unless the setting is quieter; any other argument is refused in one line', () => {
    expect(terminalLevel([], 'info')).toBe('info');
    expect(terminalLevel(['--quiet'], 'info')).toBe('warn');
    expect(terminalLevel(['--quiet'], 'debug')).toBe('warn');
    expect(terminalLevel(['--quiet'], 'error')).toBe('error');
    expect(() => terminalLevel(['--verbose'], 'info')).toThrow(ConfigError);
    expect(() => terminalLevel(['--verbose'], 'info')).toThrow('npm start takes no argument but --quiet (HARK_LOG_LEVEL=warn) --bundles (the functions from cdk.out) and --one-thread (the background functions on the gateway’s thread), got "--verbose"; every other setting is an environment variable');
    expect(terminalLevel(['--bundles'], 'info')).toBe('info');
  });

  it('the start-up line says where events go and how to quiet them', () => {
    expect(eventsNotice('info')).toBe('Events: one line each, below (HARK_LOG_LEVEL=info; HARK_LOG_LEVEL=warn or npm start -- --quiet prints only problems).');
    expect(eventsNotice('warn')).toBe('Events: one line each, below (HARK_LOG_LEVEL=warn).');
    expect(eventsNotice('silent')).toBe('Events: not printed (HARK_LOG_LEVEL=silent).');
  });
});
