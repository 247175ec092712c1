// /outbox through the gateway: the messages queued for people (credentials, invitations), for admins only.
import { beforeAll, describe, expect, it } from 'vitest';
import { takeSealedValues } from '#lib/outbox/outbox.ts';
import { errorMessages, newAccount, request, useTestStack, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';

let acme: TestAccount;
let globex: TestAccount;
let n = 0;
const address = (label: string) => `${label}-${process.pid}-${Date.now()}-${++n}@example.test`;

interface Message {
  id: string;
  prefix_id: string;
  template: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
  sealed_until: string | null;
}

let credentials: Message;
let invitation: Message;
let newEmail: string;
let invitedEmail: string;
let person: { id: string; account_user_id: string };

beforeAll(async () => {
  useTestStack();
  [acme, globex] = await Promise.all([newAccount('Acme'), newAccount('Globex')]);
  newEmail = address('new');
  invitedEmail = address('invited');
  person = (await acme.api('POST', '/users', { name: 'New Person', email: newEmail })).body;
  await globex.api('POST', '/users', { name: 'Known Person', email: invitedEmail });
  await acme.api('POST', '/account_users', { user_attributes: { name: 'Known Person', email: invitedEmail } });
  const list = (await acme.api('GET', '/outbox')).body.data as Message[];
  invitation = list[0]!;
  credentials = list[1]!;
});

describe('GET /outbox', () => {
  it('lists the messages of the account, newest first, with their fields', async () => {
    const reply = await acme.api('GET', '/outbox');
    expect(reply.status).toBe(200);
    expect(reply.body.total_count).toBe(2);
    expect(credentials).toEqual({
      id: expect.stringMatching(/^[0-9A-Z]{26}$/),
      prefix_id: expect.stringMatching(/^obx_[A-Za-z0-9]{12}$/),
      tiny_id: 1,
      account_id: acme.accountId,
      channel: 'email',
      to: newEmail,
      template: 'user_credentials',
      subject: expect.stringMatching(/^Your Hark login for Acme \d+$/),
      body: expect.stringContaining('/sign-in with this email address'),
      sealed_fields: [],
      sealed_until: null,
      status: 'queued',
      reason: null,
      user_id: person.id,
      account_user_id: person.account_user_id,
      created_by_account_user_id: acme.adminAccountUserId,
      sent_at: null,
      meta: {},
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(invitation).toMatchObject({ template: 'account_invitation', to: invitedEmail, sealed_fields: [], sealed_until: null, status: 'queued' });
    expect(invitation.subject).toMatch(/invited you to Acme \d+ on Hark$/);
  });

  it('filters on attributes and searches subject and recipient', async () => {
    const ids = async (qs: string) => (await acme.api('GET', `/outbox${qs}`)).body.data.map((m: Message) => m.id);
    expect(await ids('?template=account_invitation')).toEqual([invitation.id]);
    expect(await ids(`?to=${newEmail}`)).toEqual([credentials.id]);
    expect(await ids('?status=queued')).toEqual([invitation.id, credentials.id]);
    expect(await ids('?q=invited')).toEqual([invitation.id]);
    expect(await ids('?sealed_fields=password')).toEqual([]);
  });

  it('never shows another account’s messages', async () => {
    const theirs = (await globex.api('GET', '/outbox')).body.data as Message[];
    expect(theirs.map((m) => m.to)).toEqual([invitedEmail]);
    expect(theirs.map((m) => m.id)).not.toContain(credentials.id);
  });

  it('403 for members', async () => {
    const key = await createMemberKey(acme);
    const reply = await request('GET', '/api/v4/outbox', { key });
    expect(reply.status).toBe(403);
    expect(errorMessages(reply)).toEqual(['Only account admins can read the outbox']);
    expect((await request('GET', `/api/v4/outbox/${credentials.id}`, { key })).status).toBe(403);
  });
});

describe('GET /outbox/:id', () => {
  it('retrieves by id and by prefix_id', async () => {
    expect((await acme.api('GET', `/outbox/${credentials.id}`)).body).toEqual(credentials);
    expect((await acme.api('GET', `/outbox/${credentials.prefix_id}`)).body.id).toBe(credentials.id);
  });

  it('404 for unknown ids and for another account’s messages', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'obx_abcdefghijkl', 'usr_abcdefghijkl']) {
      const reply = await acme.api('GET', `/outbox/${id}`);
      expect(reply.status).toBe(404);
      expect(errorMessages(reply)).toEqual(['Outbox message not found']);
    }
    for (const id of [credentials.id, credentials.prefix_id]) expect((await globex.api('GET', `/outbox/${id}`)).status).toBe(404);
  });
});

describe('sealed values', () => {
  it('no people message carries any (there are no passwords): nothing to take, for any account', async () => {
    expect(await takeSealedValues(globex.accountId, credentials.id)).toBeUndefined();
    expect(await takeSealedValues(acme.accountId, credentials.id)).toBeUndefined();
    expect(await takeSealedValues(acme.accountId, invitation.id)).toBeUndefined();
  });
});
