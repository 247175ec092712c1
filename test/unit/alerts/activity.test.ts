// The alert events a committed alert transaction tells, read from its own writes (lib/alerts/activity.ts), and the
// names that replace ids in people's messages and event lines (lib/activity/names.ts). Pure.
import { describe, expect, it } from 'vitest';
import { alertActivity } from '#lib/alerts/activity.ts';
import { idsInText, withNames, type Names } from '#lib/activity/names.ts';
import type { TransactItem } from '#lib/db/writes.ts';
import { logEntry, logPuts, type AlertLogEvent } from '#lib/alerts/log-items.ts';

const TEAM = '01KAQ3W5Y8M2J7X0B6C4D9E1FZ';
const ADA = '01KAQ3W5Y8M2J7X0B6C4D9E1AA';
const GRACE = '01KAQ3W5Y8M2J7X0B6C4D9E1GG';
const GRAFANA = '01KAQ3W5Y8M2J7X0B6C4D9E1IN';

const alert = (status: string, source: { type: string; id: string } = { type: 'Integration', id: GRAFANA }): TransactItem => ({
  Put: {
    Item: {
      pk: 'A#acc#AL#al1',
      sk: 'ALERT',
      type: 'ALERT',
      accountId: 'acc',
      id: 'al1',
      prefixId: 'alt_Ab12Cd34Ef56',
      data: { title: 'Disk full', urgency: 'high', status, source_type: source.type, source_id: source.id },
      escalation: { status },
    },
  },
});
const log = (event: string, fields: Record<string, unknown> = {}, message = ''): TransactItem => ({
  Put: { Item: { type: 'ALERT_LOG', alertId: 'al1', event, message, ...fields } },
});

describe('alertActivity', () => {
  it('a new alert paging layer 1 of a team: created by its integration, then one escalation line for the layer', () => {
    const change = alertActivity([
      alert('open'),
      log('created'),
      log('routed', { team_id: TEAM }),
      log('paged', { account_user_id: ADA, team_id: TEAM, layer: 1, pass: 1 }),
      log('paged', { account_user_id: GRACE, team_id: TEAM, layer: 1, pass: 1 }),
      log('notified', { account_user_id: ADA }),
    ])!;
    expect(change.alert.prefixId).toBe('alt_Ab12Cd34Ef56');
    expect(change.drafts).toEqual([
      { kind: 'created', actor: { type: 'integration', id: GRAFANA } },
      { kind: 'escalated', team_id: TEAM, layer: 1, pass: 1, reason: 'new', account_user_ids: [ADA, GRACE] },
    ]);
  });

  it('reads a log item holding several entries as it reads single-entry items, and no other alert’s', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const group = (alertId: string, entries: [string, Record<string, unknown>][]): TransactItem =>
      logPuts('acc', alertId, entries.map(([event, fields], i) => logEntry(`01JD00000000000000000000${i}0`, at, { event: event as AlertLogEvent, message: '', ...fields })))[0]!;
    const change = alertActivity([
      alert('open'),
      group('al1', [
        ['created', {}],
        ['routed', { team_id: TEAM }],
        ['paged', { account_user_id: ADA, team_id: TEAM, layer: 1, pass: 1 }],
        ['paged', { account_user_id: GRACE, team_id: TEAM, layer: 1, pass: 1 }],
      ]),
      group('parent', [
        ['deduplicated', {}],
        ['acknowledged', { account_user_id: ADA }],
      ]),
    ])!;
    expect(change.drafts).toEqual([
      { kind: 'created', actor: { type: 'integration', id: GRAFANA } },
      { kind: 'escalated', team_id: TEAM, layer: 1, pass: 1, reason: 'new', account_user_ids: [ADA, GRACE] },
    ]);
  });

  it('a layer timing out pages the next one: the reason is the timeout; a new pass is a repeat', () => {
    expect(alertActivity([alert('open'), log('timeout', { team_id: TEAM, layer: 1 }), log('paged', { account_user_id: GRACE, team_id: TEAM, layer: 2, pass: 1 })])!.drafts).toEqual([
      { kind: 'escalated', team_id: TEAM, layer: 2, pass: 1, reason: 'timeout', account_user_ids: [GRACE] },
    ]);
    const repeat = alertActivity([alert('open'), log('timeout'), log('repeated'), log('paged', { account_user_id: ADA, team_id: TEAM, layer: 1, pass: 2 })])!;
    expect(repeat.drafts).toEqual([expect.objectContaining({ reason: 'repeat', layer: 1, pass: 2 })]);
    const direct = alertActivity([alert('open'), log('created'), log('paged', { account_user_id: ADA, layer: 1, pass: 1 })])!;
    expect(direct.drafts[1]).toEqual({ kind: 'escalated', team_id: null, layer: 1, pass: 1, reason: 'new', account_user_ids: [ADA] });
  });

  it('an acknowledgement names the person and where it came from: the API, a message channel, or the webhook', () => {
    expect(alertActivity([alert('acknowledged'), log('acknowledged', { account_user_id: ADA })])!.drafts).toEqual([
      { kind: 'acknowledged', actor: { type: 'account_user', id: ADA }, channel: 'api' },
    ]);
    const fromSms = alertActivity([
      alert('acknowledged'),
      log('message_action', { account_user_id: ADA }, `Acknowledged from SMS by account user ${ADA}.`),
      log('acknowledged', { account_user_id: ADA }),
    ])!;
    expect(fromSms.drafts).toEqual([{ kind: 'acknowledged', actor: { type: 'account_user', id: ADA }, channel: 'sms' }]);
    const fromCall = alertActivity([alert('resolved'), log('message_action', {}, `Resolved from a phone call by account user ${ADA}.`), log('resolved', { account_user_id: ADA })])!;
    expect(fromCall.drafts).toEqual([{ kind: 'resolved', actor: { type: 'account_user', id: ADA }, channel: 'voice' }]);
    expect(alertActivity([alert('resolved'), log('resolved')])!.drafts).toEqual([{ kind: 'resolved', actor: { type: 'integration', id: GRAFANA }, channel: 'webhook' }]);
  });

  it('a dropped alert says why: each ended escalation, or the drop itself', () => {
    const ended = alertActivity([
      alert('dropped'),
      log('created'),
      log('exhausted', { team_id: TEAM }, `Escalation of team ${TEAM} ended: nobody is on call on any layer of team ${TEAM}'s schedule.`),
      log('dropped', {}, 'Alert dropped: nobody acknowledged and nobody is left to page.'),
    ])!;
    expect(ended.drafts.at(-1)).toEqual({ kind: 'dropped', reasons: [`team ${TEAM}: nobody is on call on any layer of team ${TEAM}'s schedule`] });
    const bare = alertActivity([alert('dropped', { type: 'AccountUser', id: ADA }), log('created'), log('dropped', {}, 'Alert dropped: the alert has no destination to page.')])!;
    expect(bare.drafts).toEqual([
      { kind: 'created', actor: { type: 'account_user', id: ADA } },
      { kind: 'dropped', reasons: ['the alert has no destination to page'] },
    ]);
  });

  it('tells nothing of other alerts written alongside, and nothing of a transaction that is not one alert change', () => {
    const otherLog: TransactItem = { Put: { Item: { type: 'ALERT_LOG', alertId: 'parent', event: 'created', message: '' } } };
    expect(alertActivity([alert('open'), otherLog])!.drafts).toEqual([]);
    expect(alertActivity([log('created')])).toBeUndefined();
    expect(alertActivity([alert('open'), alert('open')])).toBeUndefined();
  });
});

describe('names in texts', () => {
  const names: Names = { team: (id) => (id === TEAM ? 'Payments' : id), person: (id) => (id === ADA ? 'Ada Lovelace' : id), integration: () => 'Grafana' };

  it('finds the ids a log text names and replaces them by names; unknown ids stay', () => {
    const text = `Escalation of team ${TEAM} ended: account user ${ADA} and account user ${GRACE} rejected; integration int_Ab12Cd34Ef56 sent it.`;
    expect(idsInText(text)).toEqual({ teams: [TEAM], people: [ADA, GRACE], integrations: ['int_Ab12Cd34Ef56'] });
    expect(withNames(text, names)).toBe(`Escalation of team Payments ended: Ada Lovelace and ${GRACE} rejected; integration Grafana sent it.`);
    expect(withNames('team tem_Ab12Cd34Ef56 and team nothing', names)).toBe('team tem_Ab12Cd34Ef56 and team nothing');
  });
});
