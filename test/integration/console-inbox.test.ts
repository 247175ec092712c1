// The local inbox (docs/console.md, "The local inbox"), opted in as npm start does (HARK_LOCAL_INBOX=1): a channel
// with no provider delivers to the inbox (status sent, provider local) and /inbox lists the message with its working
// links; a message with nowhere to go (SMS chosen, no phone on file) is still not delivered, with its reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installLocalInbox } from '#lib/local/inbox.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import { newAccount, pollUntil, teamWithOnCall, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';
import { capturingEmail, ConsoleClient } from './console-client.ts';
import { issueSignInLink } from '#lib/console/sign-in.ts';

let stack: OwnStack;
let account: TestAccount;
let client: ConsoleClient;

beforeAll(async () => {
  stack = await startOwnStack('inbox', { email: capturingEmail() });
  // No test adapters: the configured providers (none) and, last, the local inbox, as under npm start.
  useTestAdapters(undefined);
  process.env.HARK_LOCAL_INBOX = '1';
  installLocalInbox();
  process.env.HARK_PUBLIC_URL = stack.baseUrl;
  account = await newAccount('Inbox', stack);
  const admin = (await account.api('GET', `/account_users/${account.adminAccountUserId}`)).body;
  const person = (await account.api('GET', `/users/${admin.user_id}`)).body;
  // SMS chosen as well, with no phone on file.
  expect((await account.api('PUT', `/users/${admin.user_id}`, { notify_sms: true })).status).toBe(200);
  client = new ConsoleClient(stack.baseUrl);
  const link = new URL(await issueSignInLink(admin.user_id, person.emails[0].email, stack.baseUrl, Date.now()));
  await client.post(link.pathname);
});

afterAll(async () => {
  delete process.env.HARK_LOCAL_INBOX;
  await stack?.stop();
});

describe('the local inbox', () => {
  it('delivers a page to the inbox, lists it at /inbox with its links, and never delivers SMS without a phone', async () => {
    const team = await teamWithOnCall(account, [[account.adminAccountUserId]], 'Inbox team');
    const alert = (await account.api('POST', '/alerts', { title: 'Inbox <page>', urgency: 'high', destination_team_ids: [team.id] })).body;
    const records = await pollUntil(async () => {
      const list = (await account.api('GET', `/alerts/${alert.id}/notifications?limit=100`)).body.data as { channel: string; status: string; provider: string | null; reason: string | null }[];
      return list.length >= 3 && list.every((n) => n.status !== 'queued') ? list : undefined;
    }, 20_000);
    const email = records.find((n) => n.channel === 'email')!;
    expect(email).toMatchObject({ status: 'sent', provider: 'local' });
    expect(records.find((n) => n.channel === 'push')).toMatchObject({ status: 'sent', provider: 'local' });
    const sms = records.find((n) => n.channel === 'sms')!;
    // Decided before any adapter: the record ends undelivered with its reason, never in the inbox.
    expect(['failed', 'suppressed']).toContain(sms.status);
    expect(sms.provider).toBeNull();
    expect(sms.reason).toMatch(/phone/);

    const inbox = await client.get('/inbox');
    expect(inbox.status).toBe(200);
    expect(inbox.text).toContain('Inbox &lt;page&gt;');
    const actionLink = inbox.text.match(/href="(https?:\/\/[^"]+\/actions\/[^"]+)"/)?.[1];
    expect(actionLink).toBeDefined();
    const confirm = await client.get(new URL(actionLink!.replace(/&amp;/g, '&')).pathname);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toMatch(/Acknowledge|Resolve/);
  });
});
