import { describe, expect, it } from 'vitest';
import {
  evaluateNotificationRules,
  matchDataOf,
  parseNotificationRules,
  problemText,
  type NotificationRulesDocument,
} from '#lib/rule-engine/index.ts';

function parsed(text: string): NotificationRulesDocument {
  const result = parseNotificationRules(text);
  if (!result.ok) throw new Error(result.problems.map(problemText).join('\n'));
  return result.document;
}

function problemsOf(text: string): string[] {
  const result = parseNotificationRules(text);
  return result.ok ? [] : result.problems.map(problemText);
}

/** The action sits on line 4. */
const withAction = (action: string) => `rules:\n- match: {always: true}\n  actions:\n  - ${action}\n`;
const now = new Date('2024-06-03T10:00:00Z');

describe('parseNotificationRules', () => {
  it('reads types (default alert.open) and every action', () => {
    const doc = parsed(`rules:
- match: {alert.urgency: critical}
  actions:
  - type: notify
    channels: [push, sms, push]
    channel_options: {sms: "+4915112345678", sms_fallback: true, email: secondary}
    timeout: 5m
  - {type: notify, channels: [voice], channel_options: {voice: primary}}
  - {type: repeat, times: 2}
- types: [alert.resolved, alert.acknowledged, alert.resolved]
  match: {always: true}
  actions: [{type: ignore}]
`);
    expect(doc.rules[0]).toEqual({
      types: ['alert.open'],
      match: { 'alert.urgency': 'critical' },
      actions: [
        {
          type: 'notify',
          channels: ['push', 'sms'],
          channelOptions: { sms: '+4915112345678', sms_fallback: true, email: 'secondary' },
          timeoutMs: 300_000,
        },
        { type: 'notify', channels: ['voice'], channelOptions: { voice: 'primary' } },
        { type: 'repeat', times: 2 },
      ],
    });
    expect(doc.rules[1]?.types).toEqual(['alert.resolved', 'alert.acknowledged']);
  });

  it('accepts every channel, an email address and repeat counts 0 to 3', () => {
    const all = '{type: notify, channels: [push, email, sms, voice, whatsapp, slack], channel_options: {email: oncall@example.com, whatsapp: secondary, voice_fallback: false, whatsapp_fallback: true}}';
    expect(problemsOf(withAction(all))).toEqual([]);
    for (const times of [0, 1, 2, 3]) {
      expect(problemsOf(withAction(`{type: notify, channels: [push]}\n  - {type: repeat, times: ${times}}`))).toEqual([]);
    }
  });

  it('accepts every notification type', () => {
    const types = 'alert.open, alert.acknowledged, alert.rejected, alert.resolved, alert.dropped, alert.timeout, alert.handoff, broadcast.sent';
    expect(parsed(`rules:\n- types: [${types}]\n  match: {always: true}\n  actions: [{type: ignore}]\n`).rules[0]?.types).toHaveLength(8);
  });

  it.each([
    ['notify without channels', '{type: notify}', 'line 4: channels is required'],
    ['notify with no channels', '{type: notify, channels: []}', 'line 4: channels must be a non-empty list of push, email, sms, voice, whatsapp, slack'],
    ['notify with a single channel string', '{type: notify, channels: sms}', 'line 4: channels must be a non-empty list of push, email, sms, voice, whatsapp, slack'],
    ['notify with an unknown channel', '{type: notify, channels: [sms, fax]}', 'line 4: unknown channel "fax"'],
    ['channel_options that are not a mapping', '{type: notify, channels: [sms], channel_options: [sms]}', 'line 4: channel_options must be a mapping'],
    ['channel_options for push', '{type: notify, channels: [push], channel_options: {push: primary}}', 'line 4: unknown key "push" in channel_options'],
    ['a fallback for slack', '{type: notify, channels: [slack], channel_options: {slack_fallback: true}}', 'line 4: unknown key "slack_fallback" in channel_options'],
    ['a bad email target', '{type: notify, channels: [email], channel_options: {email: tertiary}}', 'line 4: email must be primary, secondary or an email address'],
    ['a phone number with spaces', '{type: notify, channels: [sms], channel_options: {sms: "+49 151 12345678"}}', 'line 4: sms must be primary, secondary or a valid phone number in E.164 format such as +4915112345678'],
    ['a phone number without +', '{type: notify, channels: [voice], channel_options: {voice: "4915112345678"}}', 'line 4: voice must be primary, secondary or a valid phone number in E.164 format such as +4915112345678'],
    ['an impossible phone number', '{type: notify, channels: [whatsapp], channel_options: {whatsapp: "+123"}}', 'line 4: whatsapp must be primary, secondary or a valid phone number in E.164 format such as +4915112345678'],
    ['a non-boolean fallback', '{type: notify, channels: [sms], channel_options: {sms_fallback: "yes"}}', 'line 4: sms_fallback must be true or false'],
    ['a bad timeout', '{type: notify, channels: [sms], timeout: later}', 'line 4: timeout must be a duration of 0 or more such as "30s", "5m", "2h", "1d" or milliseconds; got "later"'],
    ['notify with an unknown key', '{type: notify, channels: [sms], delay: 5m}', 'line 4: unknown key "delay" in notify action'],
    ['repeat without times', '{type: notify, channels: [sms]}\n  - {type: repeat}', 'line 5: times is required'],
    ['repeat too often', '{type: notify, channels: [sms]}\n  - {type: repeat, times: 4}', 'line 5: times must be a whole number from 0 to 3'],
    ['repeat a fraction', '{type: notify, channels: [sms]}\n  - {type: repeat, times: 1.5}', 'line 5: times must be a whole number from 0 to 3'],
    ['repeat with an unknown key', '{type: notify, channels: [sms]}\n  - {type: repeat, times: 1, every: 5m}', 'line 5: unknown key "every" in repeat action'],
    ['repeat before any notify', '{type: repeat, times: 1}\n  - {type: notify, channels: [sms]}', 'line 4: repeat needs a notify action above it'],
    ['ignore with parameters', '{type: ignore, channels: [sms]}', 'line 4: unknown key "channels" in ignore action'],
    ['a router action', '{type: assign, receiver: usr_a}', 'line 4: unknown action type "assign"'],
  ])('reports %s', (_case, action, problem) => {
    expect(problemsOf(withAction(action))).toEqual([problem]);
  });

  it.each([
    ['types that are not a list', 'alert.open', 'line 2: types must be a non-empty list of alert.open, alert.acknowledged, alert.rejected, alert.resolved, alert.dropped, alert.timeout, alert.handoff, broadcast.sent'],
    ['empty types', '[]', 'line 2: types must be a non-empty list of alert.open, alert.acknowledged, alert.rejected, alert.resolved, alert.dropped, alert.timeout, alert.handoff, broadcast.sent'],
    ['an unknown type', '[alert.open, alert.opened]', 'line 2: unknown notification type "alert.opened"'],
  ])('reports %s', (_case, types, problem) => {
    expect(problemsOf(`rules:\n- types: ${types}\n  match: {always: true}\n  actions: [{type: ignore}]\n`)).toEqual([problem]);
  });

  it('parses the example of docs/rules.md', () => {
    const doc = parsed(`rules:
- match: {$timeBetween: {timezone: Berlin, starttime: "10:00 pm", endtime: "07:00 am"}}
  actions:
  - {type: notify, channels: [push], timeout: 5m}
  - {type: notify, channels: [voice], channel_options: {voice: secondary, voice_fallback: true}, timeout: 10m}
  - {type: repeat, times: 2}
- types: [alert.resolved, alert.acknowledged]
  match: {always: true}
  actions: [{type: notify, channels: [push]}]
`);
    expect(doc.rules.map((r) => r.actions.length)).toEqual([3, 1]);
    expect(doc.rules[0]?.actions[1]).toEqual({
      type: 'notify',
      channels: ['voice'],
      channelOptions: { voice: 'secondary', voice_fallback: true },
      timeoutMs: 600_000,
    });
  });

  it('shares the router grammar for documents and queries', () => {
    expect(problemsOf('rules: {}\n')).toEqual(['line 1: rules must be a list']);
    expect(problemsOf('rules:\n- match: {alert.title: {$where: x}}\n  actions: [{type: ignore}]\n')).toEqual(['line 2: $where is not allowed']);
    expect(parsed('# nothing yet\n').rules).toEqual([]);
  });
});

describe('evaluateNotificationRules', () => {
  const doc = parsed(`rules:
- match: {alert.urgency: low}
  actions: [{type: notify, channels: [email]}]
- types: [alert.resolved, broadcast.sent]
  match: {always: true}
  actions: [{type: notify, channels: [push]}]
- types: [alert.open, alert.resolved]
  match: {always: true}
  actions: [{type: notify, channels: [sms]}, {type: repeat, times: 1}]
`);
  const low = matchDataOf({ urgency: 'low' });
  const high = matchDataOf({ urgency: 'high' });

  it('takes the first rule whose types include the event and whose match holds', () => {
    expect(evaluateNotificationRules(doc, low, 'alert.open', now)).toEqual({
      matched: true,
      ruleIndex: 0,
      actions: [{ type: 'notify', channels: ['email'], channelOptions: {} }],
    });
    expect(evaluateNotificationRules(doc, high, 'alert.open', now)).toMatchObject({ ruleIndex: 2 });
  });

  it('skips rules for other types, even when their match holds', () => {
    expect(evaluateNotificationRules(doc, low, 'alert.resolved', now)).toMatchObject({ ruleIndex: 1 });
    expect(evaluateNotificationRules(doc, low, 'broadcast.sent', now)).toMatchObject({ ruleIndex: 1 });
  });

  it('answers no match (default channels) when no rule covers the type', () => {
    expect(evaluateNotificationRules(doc, high, 'alert.acknowledged', now)).toEqual({ matched: false });
    expect(evaluateNotificationRules(parsed(''), high, 'alert.open', now)).toEqual({ matched: false });
  });

  it('applies special functions with the given now', () => {
    const quiet = parsed(`rules:
- match: {$timeBetween: {timezone: Europe/Berlin, starttime: "10:00 pm", endtime: "07:00 am"}}
  actions: [{type: notify, channels: [push]}]
- match: {always: true}
  actions: [{type: notify, channels: [voice]}]
`);
    expect(evaluateNotificationRules(quiet, high, 'alert.open', new Date('2024-06-03T01:00:00+02:00'))).toMatchObject({ ruleIndex: 0 });
    expect(evaluateNotificationRules(quiet, high, 'alert.open', new Date('2024-06-03T14:00:00+02:00'))).toMatchObject({ ruleIndex: 1 });
  });
});
