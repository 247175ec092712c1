// Ids and free-form values in bodies are checked by the shared field schemas before any storage call: an id must be
// something an id can be, `meta` must be storable, and keys built from a client's text always fit DynamoDB's limits.
import { describe, expect, it } from 'vitest';
import { alertCreate } from '#lib/alerts/schema.ts';
import { broadcastResponseCreate } from '#lib/broadcasts/schema.ts';
import { integrationThirdpartyAlertsGsi, thirdpartyAlertsGsi } from '#lib/db/keys.ts';
import { policyUpdate } from '#lib/escalation-policies/schema.ts';
import { eventUpdate } from '#lib/schedule-events/schema.ts';
import { NOT_AN_ID } from '#lib/api-shapes/schemas.ts';
import { DYNAMODB_PARTITION_KEY_BYTES, MAX_ADDITIONAL_DATA_BYTES, MAX_META_BYTES, MAX_META_DEPTH } from '#lib/limits.ts';
import { accountUserUpdate } from '#lib/people/schema.ts';
import { routerUpdate } from '#lib/routers/schema.ts';
import { scheduleCreate } from '#lib/schedules/schema.ts';
import { teamUpdate } from '#lib/teams/schema.ts';
import { validationMessages } from '../support.ts';

const HOSTILE_IDS = ['x'.repeat(10_000), 'x'.repeat(65), 'a b', '../x', 'sch-1', 'é', '💩', '%00', '\u0000'];
const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
};

describe('ids in bodies', () => {
  it('refuses every value that cannot be an id, naming the field, single or in a list', () => {
    for (const id of HOSTILE_IDS) {
      expect(validationMessages(teamUpdate, { schedule_id: id, escalation_policy_id: id }), id).toEqual([`schedule_id ${NOT_AN_ID}`, `escalation_policy_id ${NOT_AN_ID}`]);
      expect(validationMessages(routerUpdate, { default_receiver_team_id: id }), id).toEqual([`default_receiver_team_id ${NOT_AN_ID}`]);
      expect(validationMessages(eventUpdate, { parent_id: id, schedule_ids: ['sch_abcdefghijkl', id] }), id).toEqual([`parent_id ${NOT_AN_ID}`, `schedule_ids[1] ${NOT_AN_ID}`]);
      expect(validationMessages(policyUpdate, { escalation_layers_attributes: [{ id }], reassign_account_user_ids: [id] }), id).toEqual([
        `reassign_account_user_ids[0] ${NOT_AN_ID}`,
        `escalation_layers_attributes[0].id ${NOT_AN_ID}`,
      ]);
      expect(validationMessages(alertCreate, { title: 't', urgency: 'low', destination_account_user_ids: [id] }), id).toEqual([`destination_account_user_ids[0] ${NOT_AN_ID}`]);
      expect(validationMessages(broadcastResponseCreate, { broadcast_response_option_id: id }), id).toEqual([`broadcast_response_option_id ${NOT_AN_ID}`]);
      expect(validationMessages(accountUserUpdate, { member_team_ids: [id] }), id).toEqual([`member_team_ids[0] ${NOT_AN_ID}`]);
    }
  });

  it('takes ids, prefix ids and tiny ids; "" or null clears a clearable one; blank is not an id', () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'sch_a1B2c3D4e5F6', '42', ' tem_abcdefghijkl ']) {
      expect(validationMessages(teamUpdate, { schedule_id: id }), id).toEqual([]);
      expect(validationMessages(routerUpdate, { default_receiver_team_id: id }), id).toEqual([]);
    }
    expect(validationMessages(routerUpdate, { default_receiver_team_id: '' })).toEqual([]);
    expect(validationMessages(eventUpdate, { parent_id: null })).toEqual([]);
    expect(validationMessages(teamUpdate, { schedule_id: '  ' })).toEqual(["schedule_id can't be blank"]);
    expect(validationMessages(teamUpdate, { schedule_id: 5 })).toEqual(['schedule_id must be a string']);
  });
});

describe('meta', () => {
  it('takes any storable object up to the limits', () => {
    expect(validationMessages(scheduleCreate, { name: 's', meta: nested(MAX_META_DEPTH) })).toEqual([]);
    expect(validationMessages(scheduleCreate, { name: 's', meta: { list: [1, 'a', null, { b: true }], n: -2.5 } })).toEqual([]);
  });

  it('refuses what DynamoDB could not store, naming the field, where and the limit', () => {
    expect(validationMessages(scheduleCreate, { name: 's', meta: nested(MAX_META_DEPTH + 1) })).toEqual([`meta nests deeper than ${MAX_META_DEPTH} levels`]);
    expect(validationMessages(scheduleCreate, { name: 's', meta: nested(500) })).toEqual([`meta nests deeper than ${MAX_META_DEPTH} levels`]);
    expect(validationMessages(scheduleCreate, { name: 's', meta: { a: { '': 1 } } })).toEqual(['meta.a has an empty key; keys must have at least one character']);
    expect(validationMessages(scheduleCreate, { name: 's', meta: { a: [0, 1e200] } })[0]).toMatch(/^meta\.a\[1\] is 1e\+200, a number Hark cannot store: .*; send it as a string$/);
    expect(validationMessages(scheduleCreate, { name: 's', meta: { a: 'x'.repeat(MAX_META_BYTES) } })).toEqual([`meta is larger than ${MAX_META_BYTES} bytes as JSON`]);
  });

  it('bounds an alert’s additional_data as JSON', () => {
    const entry = (i: number) => ({ format: 'text', label: `f${i}`, value: 'v'.repeat(10_000) });
    expect(validationMessages(alertCreate, { title: 't', urgency: 'low', additional_data: Array.from({ length: 12 }, (_, i) => entry(i)) })).toEqual([]);
    expect(validationMessages(alertCreate, { title: 't', urgency: 'low', additional_data: Array.from({ length: 14 }, (_, i) => entry(i)) })).toEqual([
      `additional_data is larger than ${MAX_ADDITIONAL_DATA_BYTES} bytes as JSON`,
    ]);
  });
});

describe('keys holding a client’s text', () => {
  it('keep every key that fits as it was, and hold the SHA-256 of a text that would not fit', () => {
    expect(thirdpartyAlertsGsi('acc', 'disk-42')).toBe('A#acc#TPALERTS#disk-42');
    expect(integrationThirdpartyAlertsGsi('acc', 'int', 'x'.repeat(1000))).toBe(`A#acc#INTTP#int#${'x'.repeat(1000)}`);
    const long = 'é'.repeat(1024);
    for (const key of [thirdpartyAlertsGsi('acc', long), integrationThirdpartyAlertsGsi('acc', 'int', long)]) {
      expect(Buffer.byteLength(key)).toBeLessThanOrEqual(DYNAMODB_PARTITION_KEY_BYTES);
      expect(key).toMatch(/~[0-9a-f]{64}$/);
    }
    expect(thirdpartyAlertsGsi('acc', long)).not.toBe(thirdpartyAlertsGsi('acc', `${long}x`));
  });
});
