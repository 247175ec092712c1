// Filters see what reads show (docs/lists.md, "Fields the caller cannot read"; docs/security.md): an account that only
// invited a person reads none of their profile beyond the name and the invited address, and no list filter, sort or
// `q` of GET /users or GET /account_users finds the person by a field it cannot read. One test per hidden field of
// each resource; each also checks, in the account the person belongs to, that the same query does find them.
import { beforeAll, describe, expect, it } from 'vitest';
import { updateIf } from '#lib/db/items.ts';
import { userKey } from '#lib/db/keys.ts';
import { normalizePhone } from '#lib/people/phones.ts';
import { newAccount, useTestStack, type TestAccount } from './helpers.ts';
import { randomPhone } from './phone-stubs.ts';

let a: TestAccount;
let b: TestAccount;
const stamp = `${process.pid}-${Date.now()}`;
const dana = {
  work: `dana-work-${stamp}@fields.example.test`,
  private: `dana-private-${stamp}@fields.example.test`,
  phone: '',
  country: '',
  signedIn: '2026-03-04T05:06:07.000Z',
};
let danaId: string;

beforeAll(async () => {
  useTestStack();
  [a, b] = await Promise.all([newAccount('Fields A'), newAccount('Fields B')]);
  do dana.phone = randomPhone();
  while (!normalizePhone(dana.phone).ok);
  const created = await a.api('POST', '/users', {
    name: 'Dana Fields',
    email: dana.work,
    emails_attributes: [{ email: dana.private }],
    phones_attributes: [{ phone: dana.phone }],
    time_zone: 'Berlin',
    preferred_language: 'de-DE',
    notify_push: true,
    notify_email: true,
    notify_sms: true,
    notify_voice: true,
  });
  expect(created.status, created.text).toBe(201);
  danaId = created.body.id;
  dana.phone = created.body.phones[0].phone;
  dana.country = created.body.phones[0].country;
  // A sign-in time of the person's own (the console writes none through the API).
  await updateIf({ Update: { Key: userKey(danaId), UpdateExpression: 'SET last_sign_in_at = :at', ExpressionAttributeValues: { ':at': dana.signedIn } } });
  // B, whose only other person (its admin) has no phone, invites Dana by the work address.
  const invited = await b.api('POST', '/users', { name: 'Dana', email: dana.work });
  expect(invited.status, invited.text).toBe(201);
  expect(invited.body.status).toBe('invited');
});

/** The person ids a list query finds in the account (limit 100), failing on anything but 200. */
async function found(account: TestAccount, resource: 'users' | 'account_users', query: string): Promise<string[]> {
  const reply = await account.api('GET', `/${resource}?limit=100&${query}`);
  expect(reply.status, `${resource}?${query}: ${reply.text}`).toBe(200);
  return (reply.body.data as { id: string; user_id?: string }[]).map((o) => (resource === 'users' ? o.id : o.user_id!));
}

/** The queries that would find Dana by one field (as a user's attribute; account users prefix it with `user.`). */
const FIELDS: [field: string, queries: (prefix: string) => string[]][] = [
  ['time_zone', (p) => [`${p}time_zone=Berlin`, `${p}time_zone=Ber&ops=${p}time_zone:beginsWith`]],
  ['preferred_language', (p) => [`${p}preferred_language=de-DE`, `${p}preferred_language=de&ops=${p}preferred_language:contains`]],
  ['last_sign_in_at', (p) => [`${p}last_sign_in_at=${encodeURIComponent(dana.signedIn)}`, `${p}last_sign_in_at=2026-01-01T00:00:00Z&ops=${p}last_sign_in_at:gt`]],
  ['phones', (p) => [`${p}phones.phone=${encodeURIComponent(dana.phone)}`, `${p}phones.country=${dana.country}`, `${p}phones.phone=${encodeURIComponent(dana.phone.slice(0, 6))}&ops=${p}phones.phone:beginsWith`]],
  ['emails (the addresses the invitation did not use)', (p) => [`${p}emails.email=${encodeURIComponent(dana.private)}`, `q=${encodeURIComponent(dana.private)}`]],
  ['notify_push', (p) => [`${p}notify_push=true`]],
  ['notify_email', (p) => [`${p}notify_email=true`]],
  ['notify_sms', (p) => [`${p}notify_sms=true`]],
  ['notify_voice', (p) => [`${p}notify_voice=true`]],
];

for (const [resource, prefix] of [
  ['users', ''],
  ['account_users', 'user.'],
] as const) {
  describe(`GET /${resource}: an inviting account finds nobody by a field it cannot read`, () => {
    it.each(FIELDS)('%s', async (_field, queries) => {
      for (const query of queries(prefix)) {
        expect(await found(a, resource, query), `A, where Dana belongs: ${query}`).toContain(danaId);
        expect(await found(b, resource, query), `B, which only invited Dana: ${query}`).not.toContain(danaId);
      }
    });
  });
}

describe('what the inviting account can read still finds the person', () => {
  it('the name and the invited address, by filter and by q', async () => {
    for (const [resource, prefix] of [
      ['users', ''],
      ['account_users', 'user.'],
    ] as const) {
      expect(await found(b, resource, `${prefix}emails.email=${encodeURIComponent(dana.work)}`)).toEqual([danaId]);
      expect(await found(b, resource, `q=${encodeURIComponent('Dana Fields')}`)).toEqual([danaId]);
    }
  });

  it('a sort on a hidden field puts the person where an absent value goes: last, both ways', async () => {
    for (const direction of ['asc', 'desc']) {
      const ids = await found(b, 'users', `sort=phones.phone&direction=${direction}`);
      expect(ids.at(-1)).toBe(danaId);
    }
  });
});
