// The rule every messaging and acting path asks (lib/accounts/joined.ts), and what an account that only invited a
// person sees of them (lib/people/render.ts). docs/people.md, "People between accounts".
import { describe, expect, it } from 'vitest';
import type { AccountUserItem } from '#lib/people/render.ts';
import { hasJoined } from '#lib/accounts/joined.ts';
import { renderAccountUser, visibleProfile } from '#lib/people/render.ts';
import { newUserItem } from '#lib/people/user-store.ts';

const person = {
  ...newUserItem({
    name: 'Pat Private',
    emails: [
      { id: 'em_work', email: 'pat@work.test', primary: true },
      { id: 'em_old', email: 'pat@old.test', primary: false },
    ],
    phones: [{ id: '01J', prefix_id: 'ph_a', phone: '+14155552671', primary: true, country: 'US', blocked: false, confirmation_method: 'sms' }],
    notify_sms: true,
    time_zone: 'London',
    preferred_language: 'en-GB',
  }),
  last_sign_in_at: '2026-01-01T00:00:00.000Z',
};

function accountUser(status: 'active' | 'invited' | undefined): AccountUserItem {
  return {
    pk: 'A#1',
    sk: 'ACCOUNT_USER#au',
    type: 'ACCOUNT_USER',
    accountId: 'acc',
    id: 'au',
    prefixId: 'usr_a',
    tinyId: 1,
    version: 1,
    meta: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    data: {
      user_id: person.id,
      roles: { admin: false, billing: false, broadcaster: false, communicator: false },
      notification_rule_id: null,
      status: status as 'active',
      invitation: status === 'invited' ? { email: 'pat@old.test', invited_at: '2026-01-02T00:00:00.000Z', invited_by_account_user_id: 'x' } : null,
    },
  } as AccountUserItem;
}

describe('hasJoined', () => {
  it('is true for an active account user and for one older than statuses, false for an invited one', () => {
    expect(hasJoined(accountUser('active'))).toBe(true);
    expect(hasJoined(accountUser(undefined))).toBe(true);
    expect(hasJoined(accountUser('invited'))).toBe(false);
  });
});

describe('what an account sees of a person', () => {
  it('that only invited them: the name and the invitation address, every other field empty or null', () => {
    expect(visibleProfile(person, accountUser('invited'))).toEqual({
      name: 'Pat Private',
      time_zone: null,
      preferred_language: null,
      last_sign_in_at: null,
      emails: [{ id: 'em_old', email: 'pat@old.test', primary: true }],
      phones: [],
      notify_push: null,
      notify_email: null,
      notify_sms: null,
      notify_voice: null,
    });
    const rendered = JSON.stringify(renderAccountUser(accountUser('invited'), person, []));
    for (const hidden of ['pat@work.test', '+14155552671', 'London', 'en-GB']) expect(rendered).not.toContain(hidden);
  });

  it('where they joined: the whole profile', () => {
    expect(visibleProfile(person, accountUser('active'))).toMatchObject({
      time_zone: 'London',
      emails: [{ email: 'pat@work.test', primary: true }, { email: 'pat@old.test', primary: false }],
      phones: [{ phone: '+14155552671' }],
      notify_push: true,
      notify_sms: true,
      notify_voice: false,
    });
  });
});
