// The pure rules of broadcasts (lib/broadcasts/rules.ts): create checks, recipients, channels, the status after a
// send, the deadline under HARK_TIME_SCALE, which answers are taken, and counts derived from the answers.
import { describe, expect, it } from 'vitest';
import {
  anyDeliverable,
  answerRefusal,
  countResponses,
  erroredReason,
  createProblems,
  deadlineDueAt,
  duplicateOptionProblems,
  recipientsOf,
  responseOptions,
  selectedChannels,
  statusAfterSend,
  tooManyRecipients,
  withoutVoice,
} from '#lib/broadcasts/rules.ts';
import type { BroadcastData, StoredResponse } from '#lib/broadcasts/schema.ts';
import { MAX_BROADCAST_RECIPIENTS } from '#lib/limits.ts';

const NOW = Date.parse('2026-11-23T10:00:00.000Z');
const flags = { select_specific_channels: true, notify_push: false, notify_email: false, notify_sms: false, notify_slack: false, notify_whatsapp: false };

describe('createProblems', () => {
  it('accepts a broadcast to someone, and one asking for an answer by a future deadline', () => {
    expect(createProblems({ title: 't', destination_account_user_ids: ['u'] }, NOW)).toEqual([]);
    expect(
      createProblems({ title: 't', destination_team_ids: ['t'], response_requested: true, response_requested_by: '2026-11-23T11:00:00Z', broadcast_response_options_attributes: [{ value: 'Yes' }] }, NOW),
    ).toEqual([]);
  });

  it('names every problem at once', () => {
    expect(
      createProblems(
        { title: 't', notify_voice: true, select_specific_channels: true, response_requested: true, response_requested_by: '2026-11-23T10:00:00Z', broadcast_response_options_attributes: [] },
        NOW,
      ),
    ).toEqual([
      'destination_team_ids or destination_account_user_ids must name at least one destination',
      'notify_voice is not available: broadcasts are never sent by voice call',
      'select_specific_channels needs at least one of notify_push, notify_email, notify_sms, notify_slack, notify_whatsapp set to true',
      'response_requested_by must be in the future',
      'broadcast_response_options_attributes must hold at least one option when response_requested is true',
    ]);
  });

  it('ignores the deadline and options when no answer is asked for', () => {
    expect(createProblems({ title: 't', destination_account_user_ids: ['u'], response_requested_by: '2000-01-01T00:00:00Z', broadcast_response_options_attributes: [{ value: 'a' }, { value: 'A' }] }, NOW)).toEqual([]);
  });
});

describe('options', () => {
  it('finds values repeated ignoring case and spaces, each named once', () => {
    expect(duplicateOptionProblems(['Yes', 'no', ' YES', 'No ', 'yes', 'Maybe'])).toEqual([
      'broadcast_response_options_attributes contains the value "Yes" more than once (values are compared ignoring case)',
      'broadcast_response_options_attributes contains the value "no" more than once (values are compared ignoring case)',
    ]);
  });

  it('numbers positions in the order given', () => {
    let n = 0;
    expect(responseOptions([' Yes', 'No'], () => `o${++n}`)).toEqual([
      { id: 'o1', value: 'Yes', position: 1 },
      { id: 'o2', value: 'No', position: 2 },
    ]);
  });
});

describe('recipients and channels', () => {
  it('expands teams to members and admins, each person once, named people first', () => {
    const teams = [
      { member_account_user_ids: ['a', 'b'], admin_account_user_ids: ['c'] },
      { member_account_user_ids: ['b'], admin_account_user_ids: ['a', 'd'] },
    ];
    expect(recipientsOf(['d', 'x'], teams)).toEqual(['d', 'x', 'a', 'b', 'c']);
  });

  it('caps the reach', () => {
    expect(tooManyRecipients(MAX_BROADCAST_RECIPIENTS)).toBeUndefined();
    expect(tooManyRecipients(MAX_BROADCAST_RECIPIENTS + 1)).toBe(`The destinations reach ${MAX_BROADCAST_RECIPIENTS + 1} people; a broadcast reaches at most ${MAX_BROADCAST_RECIPIENTS}`);
  });

  it('sends exactly the flagged channels, or leaves the choice to each person, never voice', () => {
    expect(selectedChannels({ ...flags, notify_sms: true, notify_whatsapp: true })).toEqual(['sms', 'whatsapp']);
    expect(selectedChannels({ ...flags, select_specific_channels: false, notify_sms: true })).toBeUndefined();
    expect(withoutVoice(['voice', 'sms', 'email'])).toEqual(['sms', 'email']);
  });
});

describe('status and deadline', () => {
  it('ends a send errored when nobody was reached, closed without an answer asked, else open', () => {
    expect(statusAfterSend({ response_requested: true }, 0)).toBe('errored');
    expect(statusAfterSend({ response_requested: false }, 3)).toBe('closed');
    expect(statusAfterSend({ response_requested: true }, 3)).toBe('open');
  });

  it('counts a broadcast delivered while any message is queued, sent or delivered', () => {
    expect(anyDeliverable([{ status: 'failed' }, { status: 'suppressed' }])).toBe(false);
    for (const status of ['queued', 'sent', 'delivered']) expect(anyDeliverable([{ status: 'failed' }, { status }])).toBe(true);
  });

  it('says why a broadcast is errored: nobody to send to, or each reason its messages failed or were suppressed, with counts', () => {
    expect(erroredReason(0, [])).toBe('Nobody to send to: the destination teams have no members or admins');
    const records = [
      { account_user_id: 'A', status: 'failed', reason: 'the person has no usable phone number' },
      { account_user_id: 'A', status: 'suppressed', reason: 'no push provider is configured' },
      { account_user_id: 'B', status: 'failed', reason: 'the person has no usable phone number' },
      { account_user_id: 'C', status: 'failed', reason: null },
    ];
    expect(erroredReason(4, records)).toBe(
      'No message could be delivered to any of its 4 recipients: 2 messages failed (the person has no usable phone number), ' +
        '1 message suppressed (no push provider is configured), 1 message failed, 1 person with no channel to send on',
    );
    expect(erroredReason(1, [records[0]!])).toBe('No message could be delivered to its one recipient: 1 message failed (the person has no usable phone number)');
    expect(erroredReason(2, [])).toBe('No message could be delivered to any of its 2 recipients: 2 people with no channel to send on');
  });

  it(`cuts the reason at ERRORED_REASON_LENGTH characters`, async () => {
    const { ERRORED_REASON_LENGTH } = await import('#lib/limits.ts');
    const long = erroredReason(1, [{ account_user_id: 'A', status: 'failed', reason: 'x'.repeat(2 * ERRORED_REASON_LENGTH) }]);
    expect([...long]).toHaveLength(ERRORED_REASON_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });

  it('divides the wait to the deadline by HARK_TIME_SCALE; a passed deadline fires at once', () => {
    expect(deadlineDueAt('2026-11-23T11:00:00.000Z', NOW, 1)).toBe('2026-11-23T11:00:00.000Z');
    expect(deadlineDueAt('2026-11-23T11:00:00.000Z', NOW, 60)).toBe('2026-11-23T10:01:00.000Z');
    expect(deadlineDueAt('2026-11-23T09:00:00.000Z', NOW, 60)).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe('answers', () => {
  const open: Pick<BroadcastData, 'status' | 'response_requested' | 'response_requested_by' | 'broadcast_response_options'> = {
    status: 'open',
    response_requested: true,
    response_requested_by: '2026-11-23T11:00:00.000Z',
    broadcast_response_options: [{ id: 'y', value: 'Yes', position: 1 }],
  };

  it('are taken only on an open broadcast asking for one, for one of its options, before the deadline', () => {
    expect(answerRefusal(open, 'y', NOW)).toBeUndefined();
    expect(answerRefusal({ ...open, response_requested: false }, 'y', NOW)).toBe('This broadcast does not ask for a response');
    expect(answerRefusal(open, 'n', NOW)).toBe('broadcast_response_option_id n is not an option of this broadcast');
    expect(answerRefusal({ ...open, status: 'queued' }, 'y', NOW)).toBe('This broadcast has not been sent yet; answers are taken once it is open');
    expect(answerRefusal({ ...open, status: 'closed' }, 'y', NOW)).toBe('This broadcast is closed; answers are no longer taken');
    expect(answerRefusal(open, 'y', Date.parse(open.response_requested_by!))).toBe('The deadline of this broadcast (response_requested_by) has passed; answers are no longer taken');
  });

  it('count per option from the answers themselves', () => {
    const answer = (person: string, option: string): StoredResponse => ({ id: person, prefix_id: `brr_${person}`, account_user_id: person, broadcast_response_option_id: option, channel: 'api', created_at: '' });
    const counts = countResponses(
      [
        { id: 'y', value: 'Yes', position: 1 },
        { id: 'n', value: 'No', position: 2 },
      ],
      [answer('a', 'y'), answer('b', 'y'), answer('c', 'n'), answer('d', 'gone')],
    );
    expect([...counts]).toEqual([
      ['y', 2],
      ['n', 1],
    ]);
  });
});
