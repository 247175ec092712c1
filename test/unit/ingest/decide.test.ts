// The applier's pure decision per event (lib/ingest/decide.ts): which write an event becomes from the alerts as read.
import { describe, expect, it } from 'vitest';
import type { AlertItem } from '#lib/alerts/items.ts';
import type { EntityItem } from '#lib/db/repository.ts';
import { decideEvent, readNotesOf, requestIgnored } from '#lib/ingest/decide.ts';
import type { ReadEvent, Reading } from '#lib/monitor-readers/types.ts';
import type { IntegrationData } from '#lib/integrations/schema.ts';
import type { WindowItem } from '#lib/maintenance/service.ts';

const integration = {
  id: 'I',
  prefixId: 'int_x',
  data: { name: 'Monitor', urgency: 'low', team_ids: ['T'], router_ids: [], account_user_ids: ['U'], options: {} },
} as unknown as EntityItem<IntegrationData>;
const alert = (status: string) => ({ id: 'A', prefixId: 'alt_a', data: { status, dedup_count: 2, parent_id: null } }) as unknown as AlertItem;
const event = (kind: ReadEvent['event'], fields: ReadEvent['fields'] = {}): ReadEvent => ({ event: kind, thirdpartyId: 'k', idGenerated: false, fields, notes: [] });
const read = [{ message: 'read' }];

describe('decideEvent', () => {
  it('create: the alert an earlier delivery made, else a duplicate of the active alert, else a new alert', () => {
    expect(decideEvent(event('create', { title: 't' }), integration, read, { made: alert('open') })).toEqual({ kind: 'made', alert: alert('open'), notes: read });
    expect(decideEvent(event('create', { title: 't' }), integration, read, { active: alert('acknowledged') })).toEqual({
      kind: 'dedup',
      target: alert('acknowledged'),
      notes: [...read, { message: 'Deduplicated into alert alt_a (still acknowledged): dedup_count 3, nobody paged', alert_id: 'A' }],
    });
    const create = decideEvent(event('create', { title: 't', tag_list: ['x'] }), integration, read, {});
    expect(create).toMatchObject({ kind: 'create', thirdpartyId: 'k', notes: read, input: { title: 't', urgency: 'low', tags: ['x'], destination_team_ids: ['T'], destination_account_user_ids: ['U'] } });
  });

  it('update: the fields sent on the newest alert; none sent or no alert is a note', () => {
    expect(decideEvent(event('update', { urgency: 'high', description: null }), integration, read, { newest: alert('open') })).toEqual({
      kind: 'update',
      target: alert('open'),
      input: { description: null, urgency: 'high' },
      fields: ['description', 'urgency'],
      notes: [...read, { message: 'Updated alert alt_a: description, urgency', alert_id: 'A' }],
    });
    expect(decideEvent(event('update'), integration, read, { newest: alert('open') })).toEqual({
      kind: 'ignore',
      notes: [...read, { message: 'Ignored: the update names no field to change on alert alt_a', alert_id: 'A' }],
    });
    expect(decideEvent(event('update', { title: 't' }), integration, read, {})).toEqual({
      kind: 'ignore',
      notes: [...read, { message: 'Ignored: no alert of this integration has Id "k", so there is nothing to update' }],
    });
  });

  it('acknowledge and resolve act on the newest alert', () => {
    expect(decideEvent(event('resolve'), integration, [], { newest: alert('open') })).toEqual({ kind: 'act', action: 'resolve', target: alert('open'), notes: [{ message: 'Resolved alert alt_a', alert_id: 'A' }] });
    expect(decideEvent(event('acknowledge'), integration, [], {})).toMatchObject({ kind: 'ignore' });
  });
});

describe('decideEvent: the events of the Opsgenie calls', () => {
  const tagged = { ...alert('open'), data: { ...alert('open').data, tag_list: ['a', 'b'] } } as unknown as AlertItem;

  it('tag adds to the alert\'s tags and untag removes from them, as updates of tag_list', () => {
    expect(decideEvent(event('tag', { tag_list: ['b', 'c'] }), integration, read, { newest: tagged })).toEqual({
      kind: 'update',
      target: tagged,
      input: { tag_list: ['a', 'b', 'c'] },
      fields: ['tag_list'],
      notes: [...read, { message: 'Tags added to alert alt_a: b, c', alert_id: 'A' }],
    });
    expect(decideEvent(event('untag', { tag_list: ['a', 'z'] }), integration, read, { newest: tagged })).toMatchObject({ kind: 'update', input: { tag_list: ['b'] } });
  });

  it('comment is a note on the newest alert; an alert named by reference and not found says so', () => {
    expect(decideEvent(event('comment', { comment: 'hi' }), integration, read, { newest: tagged })).toEqual({
      kind: 'comment',
      target: tagged,
      body: 'hi',
      notes: [...read, { message: 'Noted on alert alt_a', alert_id: 'A' }],
    });
    expect(decideEvent({ ...event('acknowledge'), alertRef: { by: 'tiny', value: '7' } }, integration, [], {})).toEqual({
      kind: 'ignore',
      notes: [{ message: 'Ignored: no alert made by this integration has tiny id "7", so there is nothing to acknowledge' }],
    });
  });

  it('responders found replace the integration\'s destinations; none found keeps them', () => {
    const found = { team_ids: ['T2'], account_user_ids: [], notes: ['Responder team "Ops" found'] };
    expect(decideEvent(event('create', { title: 't' }), integration, read, { responders: found })).toMatchObject({
      input: { destination_team_ids: ['T2'], destination_router_ids: [], destination_account_user_ids: [] },
      notes: [...read, { message: 'Responder team "Ops" found' }],
    });
    const none = { team_ids: [], account_user_ids: [], notes: ['none'] };
    expect(decideEvent(event('create', { title: 't' }), integration, read, { responders: none })).toMatchObject({ input: { destination_team_ids: ['T'], destination_account_user_ids: ['U'] } });
  });
});

describe('requestIgnored and readNotesOf', () => {
  const reading: Reading = { events: [event('create'), { ...event('resolve'), notes: ['second'] }], notes: ['request'] };

  it('ignores a request without its integration, inside a window, or with no event', () => {
    expect(requestIgnored(undefined, undefined)?.[0]?.message).toMatch(/^Ignored: the integration was deleted/);
    const window = { id: 'W', prefixId: 'mw_1', data: { name: 'Deploy', start_datetime: 's', end_datetime: 'e' } } as unknown as WindowItem;
    expect(requestIgnored(integration, window)).toEqual([{ message: 'Ignored: maintenance window "Deploy" (mw_1) silences this integration from s to e; no alert changed', maintenance_window_id: 'W' }]);
    expect(requestIgnored(integration, undefined, { events: [], ignoredReason: 'No Title', notes: ['n'] })).toEqual([{ message: 'n' }, { message: 'Ignored: No Title' }]);
    expect(requestIgnored(integration, undefined, reading)).toBeUndefined();
  });

  it('gives the request’s own notes to its first event only', () => {
    expect(readNotesOf(reading, 0)).toEqual([{ message: 'request' }]);
    expect(readNotesOf(reading, 1)).toEqual([{ message: 'second' }]);
  });
});
