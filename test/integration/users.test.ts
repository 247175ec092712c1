// /users through the gateway: people seen through an account, created or invited, profiles, phones, passwords.
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#lib/people/new-account.ts';
import { getUser } from '#lib/people/user-store.ts';
import { findApiKey } from '#lib/auth/api-keys.ts';
import { takeSealedValues } from '#lib/outbox/outbox.ts';
import { errorMessages, newAccount, request, useTestStack, type Reply, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let n = 0;
const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** A unique address for this run. */
const address = (label: string) => `${label}-${process.pid}-${Date.now()}-${++n}@example.test`;

interface Email {
  id: string;
  email: string;
  primary: boolean;
}
interface Phone {
  id: string;
  prefix_id: string;
  phone: string;
  primary: boolean;
  country: string | null;
  blocked: boolean;
  confirmation_method: string | null;
}

const outboxFor = async (account: TestAccount, userId: string) =>
  (await account.api('GET', `/outbox?user_id=${userId}&limit=100`)).body.data as { template: string; to: string; body: string; id: string }[];

/** An account created in-process (as the operator CLI does), on single sign-on. */
async function ssoAccount(): Promise<TestAccount> {
  const created = await createAccount({ name: `SSO ${++n}`, adminEmail: address('sso-admin'), sso: true });
  return {
    accountId: created.account.id,
    adminKey: created.apiKey,
    adminAccountUserId: created.accountUser.id,
    api: (method, path, body) => request(method, `/api/v4${path}`, { key: created.apiKey, body }),
  };
}

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
});

describe('POST /users', () => {
  it('creates a person with a membership: 201 and the User object', async () => {
    const email = address('ada');
    const reply = await acme.api('POST', '/users', {
      name: 'Ada Lovelace',
      email: email.toUpperCase(),
      notify_sms: true,
      notify_voice: true,
      notify_push: false,
      time_zone: 'Berlin',
      preferred_language: 'en-gb',
      phones_attributes: [{ phone: '+1 (415) 555-2671', confirmation_method: 'voice' }, { phone: '0049 30 901820', primary: true }],
      meta: { team: 'db' },
      role: 'ignored',
    });
    expect(reply.status).toBe(201);
    const u = reply.body;
    expect(u).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^usr_[A-Za-z0-9]{12}$/),
      tiny_id: expect.any(Number),
      account_id: acme.accountId,
      account_user_id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      status: 'active',
      name: 'Ada Lovelace',
      time_zone: 'Berlin',
      preferred_language: 'en-GB',
      last_sign_in_at: null,
      emails: [{ id: expect.stringMatching(/^em_/), email, primary: true }],
      phones: [
        { id: expect.any(String), prefix_id: expect.stringMatching(/^ph_/), phone: '+14155552671', primary: false, country: 'US', blocked: false, confirmation_method: 'voice' },
        { id: expect.any(String), prefix_id: expect.stringMatching(/^ph_/), phone: '+4930901820', primary: true, country: 'DE', blocked: false, confirmation_method: 'sms' },
      ],
      notify_push: false,
      notify_email: true,
      notify_sms: true,
      notify_voice: true,
      meta: { team: 'db' },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(u.id).not.toBe(u.account_user_id);
    // The account user is the membership: same prefix_id and tiny_id, user_id = the person.
    const au = (await acme.api('GET', `/account_users/${u.account_user_id}`)).body;
    expect(au).toMatchObject({ prefix_id: u.prefix_id, tiny_id: u.tiny_id, user_id: u.id, status: 'active', roles: { admin: false, billing: false, broadcaster: false, communicator: false } });
  });

  it('stores no password and queues a welcome message that leads to the console sign-in', async () => {
    const email = address('creds');
    const u = (await acme.api('POST', '/users', { name: 'Cred Person', email })).body;
    const person = (await getUser(u.id))!;
    expect(person.passwordHash).toBeNull();
    const [message, ...others] = await outboxFor(acme, u.id);
    expect(others).toEqual([]);
    expect(message).toMatchObject({ template: 'user_credentials', to: email, status: 'queued', sealed_fields: [], account_user_id: u.account_user_id });
    expect(message!.body).toMatch(/Sign in at \S+\/sign-in with this email address/);
    expect(message!.body).not.toMatch(/password:/i);
    expect(await takeSealedValues(acme.accountId, message!.id)).toBeUndefined();
  });

  it('on a single sign-on account: no password and no credentials message', async () => {
    const sso = await ssoAccount();
    const reply = await sso.api('POST', '/users', { name: 'SSO Person', email: address('sso') });
    expect(reply.status).toBe(201);
    expect((await getUser(reply.body.id))!.passwordHash).toBeNull();
    expect((await sso.api('GET', '/outbox')).body.total_count).toBe(0);
  });

  it('422 naming each missing or invalid field', async () => {
    const missing = await acme.api('POST', '/users', {});
    expect(missing.status).toBe(422);
    expect(errorMessages(missing)).toEqual(['name is required', 'email is required']);
    expect(errorMessages(await acme.api('POST', '/users', { name: 'A' }))).toEqual(['email is required']);
    expect(errorMessages(await acme.api('POST', '/users', { email: address('x') }))).toEqual(['name is required']);
    expect(errorMessages(await acme.api('POST', '/users', { name: ' ', email: 'not-an-email' }))).toEqual([
      "name can't be blank",
      'email is not a valid email address',
    ]);
    const nested = await acme.api('POST', '/users', {
      name: 'A',
      email: address('n'),
      time_zone: 'Mars/Olympus',
      preferred_language: '12',
      notify_sms: 'yes',
      emails_attributes: [{ email: 'bad' }],
      phones_attributes: [{ phone: '+1 555 555 5555' }, { phone: '+14155552671', confirmation_method: 'pigeon' }],
    });
    expect(errorMessages(nested)).toEqual([
      'time_zone must be one of the names GET /events/time_zones lists, or an IANA time zone id',
      'preferred_language must be a language tag such as en or pt-BR',
      'notify_sms must be true or false',
      'emails_attributes[0].email is not a valid email address',
      'phones_attributes[1].confirmation_method must be one of sms, voice',
    ]);
    const rules = await acme.api('POST', '/users', {
      name: 'A',
      email: address('r'),
      emails_attributes: [{ email: address('r2'), primary: true }, { email: address('r3'), primary: true }],
      phones_attributes: [{ phone: '4155552671' }, { confirmation_method: 'sms' }],
    });
    expect(errorMessages(rules)).toEqual([
      'only one email can be primary: emails_attributes[0] and emails_attributes[1] are all marked primary',
      'phones_attributes[0].phone must be in international format, starting with + and the country code (e.g. +14155552671), got "4155552671"',
      'phones_attributes[1].phone is required',
    ]);
    expect(errorMessages(await acme.api('POST', '/users', { name: 'A', email: address('p'), phones_attributes: [{ phone: '+1 555 555 5555' }] }))).toEqual([
      'phones_attributes[0].phone is not a valid phone number: "+1 555 555 5555"',
    ]);
  });

  it('409 when the email belongs to a person already in the account; nothing is duplicated', async () => {
    const email = address('dup');
    const first = (await acme.api('POST', '/users', { name: 'Dup', email })).body;
    const again = await acme.api('POST', '/users', { name: 'Dup Again', email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(errorMessages(again)).toEqual([`email ${email}: the person is already a user of this account (${first.prefix_id})`]);
    const listed = (await acme.api('GET', `/users?emails.email=${email}`)).body;
    expect(listed.total_count).toBe(1);
  });

  it('two concurrent creates with one new email make one person: 201 and 409', async () => {
    const email = address('race');
    const replies = await Promise.all([acme.api('POST', '/users', { name: 'Race A', email }), acme.api('POST', '/users', { name: 'Race B', email })]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    const listed = (await acme.api('GET', `/users?emails.email=${email}`)).body;
    expect(listed.total_count).toBe(1);
    expect((await outboxFor(acme, listed.data[0].id)).map((m) => m.template)).toEqual(['user_credentials']);
  });

  it('422 when the emails belong to two different people', async () => {
    const [a, b] = [address('one'), address('two')];
    await globex.api('POST', '/users', { name: 'One', email: a });
    await globex.api('POST', '/users', { name: 'Two', email: b });
    const reply = await acme.api('POST', '/users', { name: 'Mix', email: a, emails_attributes: [{ email: b }] });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([`emails_attributes names emails of 2 different users: ${a}, ${b}; give the emails of one person`]);
  });

  it('403 for a member', async () => {
    const key = await createMemberKey(acme);
    const reply = await request('POST', '/api/v4/users', { key, body: { name: 'X', email: address('m') } });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Only account admins can change configuration']);
  });
});

describe('inviting a person who already exists', () => {
  let person: { id: string; prefix_id: string; account_user_id: string };
  let email: string;
  let invited: Reply;

  beforeAll(async () => {
    email = address('grace');
    person = (
      await globex.api('POST', '/users', {
        name: 'Grace Hopper',
        email,
        emails_attributes: [{ email: address('grace-private') }],
        phones_attributes: [{ phone: '+1 212 555 0143' }],
        time_zone: 'London',
      })
    ).body;
    invited = await acme.api('POST', '/users', { name: 'Someone Else', email, phones_attributes: [{ phone: '+33 6 12 34 56 78' }] });
  });

  it('does not duplicate the person: an invited account user of the same person', async () => {
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ id: person.id, status: 'invited', account_id: acme.accountId, name: 'Grace Hopper' });
    expect(invited.body.prefix_id).not.toBe(person.prefix_id);
    expect(invited.body.account_user_id).not.toBe(person.account_user_id);
    // Their profile is not changed by the inviting account.
    const seenByGlobex = (await globex.api('GET', `/users/${person.id}`)).body;
    expect(seenByGlobex.name).toBe('Grace Hopper');
    expect(seenByGlobex.phones.map((p: Phone) => p.phone)).toEqual(['+12125550143']);
    expect(seenByGlobex.emails).toHaveLength(2);
  });

  it('the inviting account sees only the name and the invitation address until they accept', async () => {
    expect(invited.body).toMatchObject({ emails: [{ email, primary: true }], phones: [], time_zone: null, last_sign_in_at: null });
    const au = (await acme.api('GET', `/account_users/${invited.body.account_user_id}`)).body;
    expect(au).toMatchObject({
      status: 'invited',
      user_id: person.id,
      invitation: { email, invited_at: expect.any(String), invited_by_account_user_id: acme.adminAccountUserId },
      user: { id: person.id, name: 'Grace Hopper', emails: [{ email, primary: true }], phones: [] },
    });
  });

  it('queues an invitation (no password, no credentials) in the inviting account', async () => {
    const messages = await outboxFor(acme, person.id);
    expect(messages.map((m) => [m.template, m.to])).toEqual([['account_invitation', email]]);
    expect(messages[0]!.body).toContain('accept or decline');
    expect((await outboxFor(globex, person.id)).map((m) => m.template)).toEqual(['user_credentials']);
  });

  it('409 when inviting them again', async () => {
    const again = await acme.api('POST', '/users', { name: 'Grace', email });
    expect(again.status).toBe(409);
    expect(errorMessages(again)).toEqual([`email ${email}: the person has already been invited to this account (${invited.body.prefix_id})`]);
  });

  it('admins of the inviting account cannot change their profile', async () => {
    const reply = await acme.api('PUT', `/users/${person.id}`, { name: 'Hijacked' });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Grace Hopper has not accepted the invitation to this account; only they can change their profile']);
  });
});

describe('GET /users', () => {
  let fresh: TestAccount;
  let other: TestAccount;
  const people: Record<string, { id: string; prefix_id: string }> = {};

  beforeAll(async () => {
    [fresh, other] = await Promise.all([newAccount('UsersList'), newAccount('UsersOther')]);
    for (const name of ['Alan Turing', 'Barbara Liskov', 'Claude Shannon']) {
      people[name] = (await fresh.api('POST', '/users', { name, email: address(name.split(' ')[0]!.toLowerCase()) })).body;
    }
    people.outsider = (await other.api('POST', '/users', { name: 'Outsider', email: address('outsider') })).body;
  });

  it('lists only the members of the account, newest first', async () => {
    const reply = await fresh.api('GET', '/users');
    expect(reply.status).toBe(200);
    expect(reply.body.total_count).toBe(4);
    expect(reply.body.data.map((u: { name: string }) => u.name).slice(0, 3)).toEqual(['Claude Shannon', 'Barbara Liskov', 'Alan Turing']);
    expect(reply.body.data.map((u: { id: string }) => u.id)).not.toContain(people.outsider!.id);
  });

  it('filters on attributes and searches name and emails', async () => {
    const byName = (await fresh.api('GET', '/users?name=Barbara%20Liskov')).body;
    expect(byName.data.map((u: { id: string }) => u.id)).toEqual([people['Barbara Liskov']!.id]);
    const begins = (await fresh.api('GET', '/users?name=A&ops=name:beginsWith')).body;
    expect(begins.data.map((u: { name: string }) => u.name)).toEqual(['Alan Turing']);
    const search = (await fresh.api('GET', '/users?q=shannon')).body;
    expect(search.data.map((u: { name: string }) => u.name)).toEqual(['Claude Shannon']);
    const email = (await fresh.api(`GET`, `/users/${people['Alan Turing']!.id}`)).body.emails[0].email;
    expect((await fresh.api('GET', `/users?emails.email=${email}`)).body.data.map((u: { name: string }) => u.name)).toEqual(['Alan Turing']);
    expect((await fresh.api('GET', `/users?q=${email.slice(0, 12).toUpperCase()}`)).body.data.map((u: { name: string }) => u.name)).toEqual(['Alan Turing']);
    expect((await fresh.api('GET', '/users?status=invited')).body.total_count).toBe(0);
    expect((await fresh.api('GET', '/users?status=active')).body.total_count).toBe(4);
    expect((await fresh.api('GET', '/users?sort=name&limit=2')).body.data.map((u: { name: string }) => u.name)).toEqual(['Alan Turing', 'Barbara Liskov']);
  });

  it('retrieves by person id and by prefix_id; 404 for unknown ids and for people outside the account', async () => {
    const alan = people['Alan Turing']!;
    expect((await fresh.api('GET', `/users/${alan.id}`)).body.name).toBe('Alan Turing');
    expect((await fresh.api('GET', `/users/${alan.prefix_id}`)).body.id).toBe(alan.id);
    for (const id of [UNKNOWN_ULID, 'usr_abcdefghijkl', 'nonsense', people.outsider!.id, people.outsider!.prefix_id]) {
      const reply = await fresh.api('GET', `/users/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['User not found']);
    }
  });

  it('members may read', async () => {
    const key = await createMemberKey(fresh);
    expect((await request('GET', '/api/v4/users', { key })).status).toBe(200);
    expect((await request('GET', `/api/v4/users/${people['Alan Turing']!.id}`, { key })).status).toBe(200);
  });
});

describe('PUT /users/:id', () => {
  it('changes the profile; nested emails and phones by id, _destroy and new elements', async () => {
    const [e1, e2, e3] = [address('p1'), address('p2'), address('p3')];
    const u = (
      await acme.api('POST', '/users', {
        name: 'Phone Person',
        email: e1,
        emails_attributes: [{ email: e2 }],
        phones_attributes: [{ phone: '+1 415 555 2671' }, { phone: '+44 20 7946 0958' }],
      })
    ).body;
    const [first, second] = u.phones as Phone[];
    const secondEmail = (u.emails as Email[]).find((e) => e.email === e2)!;
    const reply = await acme.api('PUT', `/users/${u.prefix_id}`, {
      name: 'Renamed',
      notify_email: false,
      preferred_language: null,
      emails_attributes: [{ id: secondEmail.id, _destroy: true }, { email: e3, primary: true }],
      phones_attributes: [
        { id: first!.id, _destroy: '1' },
        { id: second!.prefix_id, phone: '+33 6 12 34 56 78', confirmation_method: 'voice' },
        { phone: '+61 4 1234 5678' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: u.id, name: 'Renamed', notify_email: false, preferred_language: null, tiny_id: u.tiny_id, created_at: u.created_at });
    expect(reply.body.updated_at > u.updated_at).toBe(true);
    expect((reply.body.emails as Email[]).map((e) => [e.email, e.primary])).toEqual([
      [e1, false],
      [e3, true],
    ]);
    expect((reply.body.phones as Phone[]).map((p) => [p.id, p.phone, p.country, p.primary, p.confirmation_method])).toEqual([
      [second!.id, '+33612345678', 'FR', true, 'voice'],
      [expect.any(String), '+61412345678', 'AU', false, 'sms'],
    ]);
    expect((await acme.api('GET', `/users/${u.id}`)).body).toEqual(reply.body);
    // The removed address was released: it now makes a new person, not an invitation.
    const reused = await globex.api('POST', '/users', { name: 'New Owner', email: e2 });
    expect(reused.body).toMatchObject({ status: 'active' });
    expect(reused.body.id).not.toBe(u.id);
  });

  it('`email` makes that address the primary email', async () => {
    const [e1, e2] = [address('pe1'), address('pe2')];
    const u = (await acme.api('POST', '/users', { name: 'Primary', email: e1 })).body;
    const reply = await acme.api('PUT', `/users/${u.id}`, { email: e2 });
    expect((reply.body.emails as Email[]).map((e) => [e.email, e.primary])).toEqual([
      [e1, false],
      [e2, true],
    ]);
  });

  it('422 for an email of another person, for removing every email and for unknown nested ids', async () => {
    const taken = address('taken');
    await globex.api('POST', '/users', { name: 'Owner', email: taken });
    const u = (await acme.api('POST', '/users', { name: 'Wants', email: address('wants') })).body;
    const reply = await acme.api('PUT', `/users/${u.id}`, { emails_attributes: [{ email: taken }] });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual([`emails_attributes[0].email ${taken} belongs to another user`]);
    expect(errorMessages(await acme.api('PUT', `/users/${u.id}`, { emails_attributes: [{ id: u.emails[0].id, _destroy: true }] }))).toEqual([
      'emails_attributes would remove every email; a user keeps at least one',
    ]);
    expect(errorMessages(await acme.api('PUT', `/users/${u.id}`, { phones_attributes: [{ id: 'ph_abcdefghijkl', phone: '+14155552671' }] }))).toEqual([
      'phones_attributes[0].id ph_abcdefghijkl is not a phone of this user',
    ]);
    expect(errorMessages(await acme.api('PUT', `/users/${u.id}`, { name: '' }))).toEqual(["name can't be blank"]);
    expect((await acme.api('GET', `/users/${u.id}`)).body.emails).toEqual(u.emails);
  });

  it('members change only their own profile', async () => {
    const key = await createMemberKey(acme);
    const me = { id: (await findApiKey(key))!.userId };
    const mine = await request('PUT', `/api/v4/users/${me.id}`, { key, body: { phones_attributes: [{ phone: '+1 212 555 0143' }] } });
    expect(mine.status).toBe(200);
    expect(mine.body.phones.map((p: Phone) => p.phone)).toEqual(['+12125550143']);
    const other = (await acme.api('POST', '/users', { name: 'Not Theirs', email: address('not-theirs') })).body;
    const reply = await request('PUT', `/api/v4/users/${other.id}`, { key, body: { name: 'Changed' } });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Only account admins can change other users']);
    expect(errorMessages(await request('PUT', `/api/v4/users/${me.id}`, { key, body: { meta: { a: 1 } } }))).toEqual(['Only account admins can change meta']);
  });

  it('admins cannot change the profile of a person who also belongs to another account', async () => {
    const email = address('shared');
    const inGlobex = (await globex.api('POST', '/users', { name: 'Shared Person', email })).body;
    const inAcme = (await acme.api('POST', '/users', { name: 'Shared Person', email })).body;
    expect(inAcme.id).toBe(inGlobex.id);
    // Globex is the only account where they are active (Acme's membership is an invitation): Globex may edit.
    expect((await globex.api('PUT', `/users/${inGlobex.id}`, { notify_sms: true })).status).toBe(200);
    // Once the person is active in two accounts, neither admin may.
    await acceptInvitation(acme, inAcme.account_user_id);
    const reply = await globex.api('PUT', `/users/${inGlobex.id}`, { name: 'Changed' });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Shared Person also belongs to another account; only they can change their profile']);
    // Meta belongs to the membership: still the admin's.
    expect((await globex.api('PUT', `/users/${inGlobex.id}`, { meta: { desk: 4 } })).body.meta).toEqual({ desk: 4 });
  });

  it('404 for unknown ids and for people outside the account', async () => {
    const outsider = (await globex.api('POST', '/users', { name: 'Outsider', email: address('put-out') })).body;
    for (const id of [UNKNOWN_ULID, outsider.id, outsider.prefix_id]) {
      const reply = await acme.api('PUT', `/users/${id}`, { name: 'X' });
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['User not found']);
    }
  });
});

describe('DELETE /users/:id', () => {
  it('is not supported: 405 with the error body and Allow; the user stays', async () => {
    const u = (await acme.api('POST', '/users', { name: 'Stays', email: address('stays') })).body;
    const reply = await acme.api('DELETE', `/users/${u.id}`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, PUT');
    expect(errorMessages(reply)).toEqual([`DELETE is not supported on /api/v4/users/${u.id}; allowed: GET, PUT`]);
    expect((await acme.api('GET', `/users/${u.id}`)).status).toBe(200);
  });
});

/** Acceptance has no API yet (docs/people.md): tests flip the status the way the acceptance flow will. */
async function acceptInvitation(account: TestAccount, accountUserId: string): Promise<void> {
  const { getEntity, putNewVersion } = await import('#lib/db/repository.ts');
  const item = await getEntity<{ status: string }>('ACCOUNT_USER', account.accountId, accountUserId);
  await putNewVersion(item, { ...item.data, status: 'active' });
}
