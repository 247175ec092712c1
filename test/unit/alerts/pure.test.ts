// The pure parts of the alert service: which channels and addresses a page uses, which index answers a list,
// the counter writes of a change, and HARK_TIME_SCALE as the runtime reads it. Rules: docs/alerts.md.
import { describe, expect, it } from 'vitest';
import { addressFor, chooseChannels, defaultChannels, type PersonContact } from '#lib/alerts/channels.ts';
import { alertCountChanges, alertCounter, statusesEntered, statusMove } from '#lib/alerts/items.ts';
import { mergeCounterWrites } from '#lib/db/counters.ts';
import { planAlertList, type AlertListQuery } from '#lib/alerts/list.ts';
import { hasDestination, tagsOf } from '#lib/alerts/schema.ts';
import { isDeployed, timeScale } from '#lib/config.ts';

const person = (over: Partial<PersonContact> = {}): PersonContact => ({
  account_user_id: 'au1',
  notify_push: true,
  notify_email: true,
  notify_sms: false,
  notify_voice: false,
  emails: [
    { email: 'second@example.test', primary: false },
    { email: 'first@example.test', primary: true },
  ],
  phones: [
    { phone: '+14155550100', primary: true, blocked: true },
    { phone: '+14155550101', primary: false, blocked: false },
  ],
  rule: null,
  ...over,
});
const alert = { title: 'db down', urgency: 'high', tag_list: [] };
const now = new Date('2030-01-01T12:00:00Z');

describe('channels', () => {
  it('defaults follow notify_* in a fixed order', () => {
    expect(defaultChannels(person({ notify_voice: true, notify_sms: true }))).toEqual(['push', 'email', 'sms', 'voice']);
    expect(chooseChannels(person(), alert, 'alert.open', now)).toEqual({ kind: 'channels', channels: ['push', 'email'], via: 'defaults' });
  });

  it('an enabled rule that matches gives its first notify action’s channels; ignore sends nothing', () => {
    const rules = 'rules:\n- match: {alert.urgency: high}\n  actions: [{type: notify, channels: [sms, voice, sms]}]\n';
    expect(chooseChannels(person({ rule: { enabled: true, rules } }), alert, 'alert.open', now)).toEqual({ kind: 'channels', channels: ['sms', 'voice'], via: 'rule' });
    const ignore = 'rules:\n- match: {always: true}\n  actions: [{type: ignore}]\n';
    expect(chooseChannels(person({ rule: { enabled: true, rules: ignore } }), alert, 'alert.open', now)).toEqual({ kind: 'ignored' });
  });

  it('a disabled rule, no match, or a rule for another type → the defaults', () => {
    const rules = 'rules:\n- match: {alert.urgency: low}\n  actions: [{type: notify, channels: [sms]}]\n';
    const defaults = { kind: 'channels', channels: ['push', 'email'], via: 'defaults' };
    expect(chooseChannels(person({ rule: { enabled: true, rules } }), alert, 'alert.open', now)).toEqual(defaults);
    const matching = 'rules:\n- match: {always: true}\n  actions: [{type: notify, channels: [sms]}]\n';
    expect(chooseChannels(person({ rule: { enabled: false, rules: matching } }), alert, 'alert.open', now)).toEqual(defaults);
    expect(chooseChannels(person({ rule: { enabled: true, rules: matching } }), alert, 'alert.dropped', now)).toEqual(defaults);
  });

  it('addresses: primary email, primary unblocked phone, the account user for push; failures say why', () => {
    expect(addressFor(person(), 'email')).toEqual({ ok: true, to: 'first@example.test' });
    expect(addressFor(person(), 'sms')).toEqual({ ok: true, to: '+14155550101' });
    expect(addressFor(person(), 'push')).toEqual({ ok: true, to: 'au1' });
    expect(addressFor(person({ phones: [] }), 'voice')).toEqual({ ok: false, reason: 'the person has no usable phone number' });
    expect(addressFor(person({ emails: [] }), 'email')).toEqual({ ok: false, reason: 'the person has no email address' });
  });
});

describe('planAlertList', () => {
  const query = (over: Partial<AlertListQuery> = {}): AlertListQuery => ({ limit: 10, offset: 0, filters: [], sort: undefined, direction: undefined, q: undefined, ...over });
  const status = (value: string, op = 'equals') => ({ attribute: 'status', op, value });

  it('one page of an index for the common lists', () => {
    expect(planAlertList(query())).toEqual({ kind: 'page', index: { by: 'account' }, ascending: false });
    expect(planAlertList(query({ direction: 'asc' }))).toEqual({ kind: 'page', index: { by: 'account' }, ascending: true });
    expect(planAlertList(query({ sort: 'created_at' }))).toEqual({ kind: 'page', index: { by: 'account' }, ascending: true });
    expect(planAlertList(query({ sort: 'created_at', direction: 'desc' }))).toEqual({ kind: 'page', index: { by: 'account' }, ascending: false });
    expect(planAlertList(query({ filters: [status('open')] }))).toEqual({ kind: 'page', index: { by: 'status', status: 'open' }, ascending: false });
    expect(planAlertList(query(), { teamId: 't1' })).toEqual({ kind: 'page', index: { by: 'team', teamId: 't1' }, ascending: false });
  });

  it('the list engine over the narrowest index for everything else', () => {
    expect(planAlertList(query({ q: 'db' }))).toEqual({ kind: 'scan', index: { by: 'account' } });
    expect(planAlertList(query({ sort: 'title' }))).toEqual({ kind: 'scan', index: { by: 'account' } });
    expect(planAlertList(query({ filters: [status('open'), { attribute: 'urgency', op: 'equals', value: 'low' }] }))).toEqual({
      kind: 'scan',
      index: { by: 'status', status: 'open' },
    });
    expect(planAlertList(query({ filters: [status('open', 'ne')] }))).toEqual({ kind: 'scan', index: { by: 'account' } });
    expect(planAlertList(query({ filters: [status('open')] }), { teamId: 't1' })).toEqual({ kind: 'scan', index: { by: 'team', teamId: 't1' } });
  });

  it('thirdparty_id=<x> alone is one page of the identity index; with more filters its index is read whole', () => {
    const thirdparty = { attribute: 'thirdparty_id', op: 'equals', value: 'ext-1' };
    expect(planAlertList(query({ filters: [thirdparty] }))).toEqual({ kind: 'page', index: { by: 'thirdparty', thirdpartyId: 'ext-1' }, ascending: false });
    expect(planAlertList(query({ filters: [thirdparty, status('open')] }))).toEqual({ kind: 'scan', index: { by: 'thirdparty', thirdpartyId: 'ext-1' } });
    expect(planAlertList(query({ filters: [{ ...thirdparty, op: 'ne' }] }))).toEqual({ kind: 'scan', index: { by: 'account' } });
  });
});

describe('counters', () => {
  it('a status change moves two status counts in one Update of the account\'s group item, in the shard given; no change writes nothing', () => {
    expect(alertCountChanges('a1', statusMove('open', 'acknowledged'), 3)).toEqual([
      {
        Update: {
          Key: { pk: 'A#a1#CNT#3', sk: 'COUNTS' },
          UpdateExpression: 'ADD #c0 :c0, #c1 :c1',
          ExpressionAttributeNames: { '#c0': 'COUNTER#ALERT#STATUS#open', '#c1': 'COUNTER#ALERT#STATUS#acknowledged' },
          ExpressionAttributeValues: { ':c0': -1, ':c1': 1 },
        },
      },
    ]);
    expect(alertCountChanges('a1', statusMove('open', 'open'))).toEqual([]);
  });

  it('a create counts the account and its status in the group item, each team in an item of its own, without a cap', () => {
    type Update = { Update: { Key: { pk: string; sk: string }; ConditionExpression?: string; ExpressionAttributeNames: Record<string, string>; ExpressionAttributeValues: Record<string, number> } };
    const writes = alertCountChanges('a1', { all: 1, statuses: { open: 1 }, teams: { t1: 1, t2: 1 } }, 0) as unknown as Update[];
    expect(writes.map((w) => [w.Update.Key.sk, Object.values(w.Update.ExpressionAttributeNames), Object.values(w.Update.ExpressionAttributeValues), w.Update.ConditionExpression])).toEqual([
      ['COUNTS', ['COUNTER#ALERT', 'COUNTER#ALERT#STATUS#open'], [1, 1], undefined],
      ['COUNTER#ALERT#TEAM#t1', ['itemCount'], [1], undefined],
      ['COUNTER#ALERT#TEAM#t2', ['itemCount'], [1], undefined],
    ]);
  });

  it('the account-wide counts of one change go to one shard at random; the thirdparty count stays in its own partition', () => {
    const shardsSeen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const writes = alertCountChanges('a1', { all: 1, statuses: { open: 1 }, teams: { t1: 1 }, thirdparty: { x: 1 } });
      const pks = writes.map((w) => ('Update' in w ? w.Update.Key.pk : ''));
      expect(pks).toHaveLength(3);
      expect(pks[2]).toBe('A#a1#TPCOUNT#x');
      expect(pks[1]).toBe(pks[0]);
      expect(pks[0]).toMatch(/^A#a1#CNT#[0-7]$/);
      shardsSeen.add(String(pks[0]));
    }
    expect(shardsSeen.size).toBe(8);
  });

  it('all alerts and each status are read with the group items; a team\'s count from its own items only', () => {
    expect(alertCounter('a1', { by: 'account' })).toEqual({ key: { pk: 'A#a1', sk: 'COUNTER#ALERT' }, grouped: true });
    expect(alertCounter('a1', { by: 'status', status: 'open' })).toEqual({ key: { pk: 'A#a1', sk: 'COUNTER#ALERT#STATUS#open' }, grouped: true });
    expect(alertCounter('a1', { by: 'team', teamId: 't1' })).toEqual({ key: { pk: 'A#a1', sk: 'COUNTER#ALERT#TEAM#t1' }, grouped: false });
  });

  it('the statuses a transaction enters are read from its group Updates (what outgoing webhooks announce)', () => {
    const writes = [...alertCountChanges('a1', statusMove('open', 'resolved'), 1), ...alertCountChanges('a1', { all: 1, statuses: { open: 1 }, teams: { t1: 1 } }, 2)];
    expect(statusesEntered(writes).sort()).toEqual(['open', 'resolved']);
    expect(statusesEntered(mergeCounterWrites(writes))).toEqual(['resolved']);
    expect(statusesEntered(alertCountChanges('a1', { all: -1, statuses: { open: -1 } }, 1))).toEqual([]);
  });
});

describe('schema rules', () => {
  it('tags: `tags` wins over `tag_list`, repeats dropped', () => {
    expect(tagsOf({ tags: ['a', 'b', 'a'], tag_list: ['x'] })).toEqual(['a', 'b']);
    expect(tagsOf({ tag_list: ['x'] })).toEqual(['x']);
    expect(tagsOf({})).toBeUndefined();
  });
  it('a destination is needed across the three lists', () => {
    expect(hasDestination({})).toBe(false);
    expect(hasDestination({ destination_team_ids: [], destination_router_ids: ['r'] })).toBe(true);
  });
});

describe('HARK_TIME_SCALE', () => {
  it('deployed means on Lambda without a local DynamoDB endpoint', () => {
    expect(isDeployed({ AWS_LAMBDA_FUNCTION_NAME: 'alerts' })).toBe(true);
    expect(isDeployed({ AWS_LAMBDA_FUNCTION_NAME: 'alerts', HARK_DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).toBe(false);
    expect(isDeployed({})).toBe(false);
  });
  it('default 1; any whole number up to 3600 locally; only 1 when deployed', () => {
    expect(timeScale({})).toBe(1);
    expect(timeScale({ HARK_TIME_SCALE: '60', HARK_DYNAMODB_ENDPOINT: 'http://x' })).toBe(60);
    expect(() => timeScale({ HARK_TIME_SCALE: '60', AWS_LAMBDA_FUNCTION_NAME: 'alerts' })).toThrow(
      'HARK_TIME_SCALE must be 1 in a deployed stack (got 60); faster time is for the local runtime only',
    );
    expect(timeScale({ HARK_TIME_SCALE: '1', AWS_LAMBDA_FUNCTION_NAME: 'alerts' })).toBe(1);
    expect(() => timeScale({ HARK_TIME_SCALE: 'fast' })).toThrow('HARK_TIME_SCALE must be a whole number from 1 to 3600 (got "fast")');
  });
});
