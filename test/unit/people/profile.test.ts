import { describe, expect, it } from 'vitest';
import type { UserEmail, UserPhone } from '#lib/people/user-store.ts';
import { applyProfile } from '#lib/people/profile.ts';

const email = (id: string, address: string, primary = false): UserEmail => ({ id, email: address, primary });
const phone = (id: string, number: string, primary = false): UserPhone => ({
  id,
  prefix_id: `ph_${id}xxxxxxxxxx`,
  phone: number,
  primary,
  country: 'US',
  blocked: true,
  confirmation_method: 'voice',
});

describe('applyProfile for a new person', () => {
  it('makes `email` the primary email unless an element is marked primary', () => {
    const plain = applyProfile(undefined, { email: 'a@x.test', emails_attributes: [{ email: 'b@x.test' }] });
    expect(plain.problems).toEqual([]);
    expect(plain.emails.map((e) => [e.email, e.primary])).toEqual([
      ['a@x.test', true],
      ['b@x.test', false],
    ]);
    const marked = applyProfile(undefined, { email: 'a@x.test', emails_attributes: [{ email: 'b@x.test', primary: true }] });
    expect(marked.emails.map((e) => [e.email, e.primary])).toEqual([
      ['a@x.test', false],
      ['b@x.test', true],
    ]);
  });

  it('does not list `email` twice when emails_attributes repeats it', () => {
    const result = applyProfile(undefined, { email: 'a@x.test', emails_attributes: [{ email: 'a@x.test', primary: true }] });
    expect(result.problems).toEqual([]);
    expect(result.emails).toHaveLength(1);
    expect(result.emails[0]).toMatchObject({ email: 'a@x.test', primary: true });
    expect(result.emails[0]!.id).toMatch(/^em_/);
  });

  it('normalises phones to E.164 with the country, sms confirmation by default, not blocked', () => {
    const result = applyProfile(undefined, {
      email: 'a@x.test',
      phones_attributes: [{ phone: '+44 20 7946 0958' }, { phone: '0033612345678', confirmation_method: 'voice', primary: true }],
    });
    expect(result.problems).toEqual([]);
    expect(result.phones.map(({ phone: p, country, primary, blocked, confirmation_method }) => ({ p, country, primary, blocked, confirmation_method }))).toEqual([
      { p: '+442079460958', country: 'GB', primary: false, blocked: false, confirmation_method: 'sms' },
      { p: '+33612345678', country: 'FR', primary: true, blocked: false, confirmation_method: 'voice' },
    ]);
    expect(result.phones[0]!.prefix_id).toMatch(/^ph_[A-Za-z0-9]{12}$/);
  });

  it('names the element of each problem, with the request prefix', () => {
    const result = applyProfile(
      undefined,
      { emails_attributes: [{ primary: true }], phones_attributes: [{ phone: '12345' }, { phone: '+1 415 555 2671' }, { phone: '+14155552671' }] },
      'user_attributes.',
    );
    expect(result.problems).toEqual([
      'user_attributes.emails_attributes[0].email is required',
      'user_attributes.phones_attributes[0].phone must be in international format, starting with + and the country code (e.g. +14155552671), got "12345"',
      'user_attributes.phones_attributes[2].phone +14155552671 is listed more than once',
    ]);
  });

  it('requires at least one email', () => {
    expect(applyProfile(undefined, { name: 'Ada' }, 'user_attributes.').problems).toEqual([
      'user_attributes.email is required: give email or emails_attributes with at least one email',
    ]);
  });

  it('copies only the fields the input names', () => {
    expect(applyProfile(undefined, { email: 'a@x.test', name: 'Ada', notify_sms: true, time_zone: 'Berlin' }).changes).toEqual({
      name: 'Ada',
      notify_sms: true,
      time_zone: 'Berlin',
    });
  });
});

describe('applyProfile for an existing person', () => {
  const current = {
    emails: [email('em_1', 'a@x.test', true), email('em_2', 'b@x.test')],
    phones: [phone('1', '+14155552671', true), phone('2', '+442079460958')],
  };

  it('`email` becomes the primary email, added when new', () => {
    const existing = applyProfile(current, { email: 'b@x.test' });
    expect(existing.emails.map((e) => [e.id, e.primary])).toEqual([
      ['em_1', false],
      ['em_2', true],
    ]);
    const added = applyProfile(current, { email: 'c@x.test' });
    expect(added.emails.map((e) => [e.email, e.primary])).toEqual([
      ['a@x.test', false],
      ['b@x.test', false],
      ['c@x.test', true],
    ]);
  });

  it('changes, removes and adds phones by id or prefix_id; a changed number gets a new country and is no longer blocked', () => {
    const result = applyProfile(current, {
      phones_attributes: [
        { id: 'ph_2xxxxxxxxxx', phone: '+33 6 12 34 56 78' },
        { id: '1', _destroy: true },
        { phone: '+1 212 555 0143', confirmation_method: 'voice' },
      ],
    });
    expect(result.problems).toEqual([]);
    expect(result.phones.map((p) => [p.id, p.phone, p.country, p.primary, p.blocked, p.confirmation_method])).toEqual([
      ['2', '+33612345678', 'FR', true, false, 'voice'],
      [expect.any(String), '+12125550143', 'US', false, false, 'voice'],
    ]);
  });

  it('keeps blocked when only the confirmation method changes', () => {
    const result = applyProfile(current, { phones_attributes: [{ id: '2', confirmation_method: 'sms' }] });
    expect(result.phones[1]).toMatchObject({ id: '2', blocked: true, confirmation_method: 'sms', phone: '+442079460958' });
  });

  it('refuses to remove every email and names unknown ids', () => {
    expect(applyProfile(current, { emails_attributes: [{ id: 'em_1', _destroy: true }, { id: 'em_2', _destroy: true }] }).problems).toEqual([
      'emails_attributes would remove every email; a user keeps at least one',
    ]);
    expect(applyProfile(current, { emails_attributes: [{ id: 'em_9', email: 'z@x.test' }] }).problems).toEqual([
      'emails_attributes[0].id em_9 is not an email of this user',
    ]);
  });

  it('caps emails and phones per person', () => {
    const many = Array.from({ length: 11 }, (_, i) => ({ email: `n${i}@x.test` }));
    expect(applyProfile(undefined, { emails_attributes: many }).problems).toEqual(['emails_attributes would give the user 11 emails; at most 10']);
  });
});
