import { describe, expect, it } from 'vitest';
import { newAccount } from './helpers.ts';

describe('smoke', () => {
  it('works', async () => {
    const a = await newAccount('Smoke');
    const r = await a.api('POST', '/users', { name: 'Ada Lovelace', email: 'Ada-smoke@Example.test', phones_attributes: [{ phone: '+1 415 555 2671' }] });
    console.log(r.status, JSON.stringify(r.body, null, 1));
    const l = await a.api('GET', '/users');
    console.log(l.status, JSON.stringify(l.body).slice(0, 2000));
    const au = await a.api('GET', '/account_users');
    console.log(au.status, JSON.stringify(au.body).slice(0, 3000));
    const o = await a.api('GET', '/outbox');
    console.log(o.status, JSON.stringify(o.body, null, 1));
    const d = await a.api('DELETE', `/users/${r.body.id}`);
    console.log(d.status, d.text, JSON.stringify(Object.fromEntries(d.headers)));
    expect(r.status).toBe(201);
  });
});
