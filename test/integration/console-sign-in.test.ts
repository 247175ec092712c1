// Who a sign-in link reaches (docs/console.md, "Sign-in"; docs/security.md): on a stack set up as npm start's (no
// email provider, the local inbox on, links printed in the terminal), a link goes to the terminal line and nowhere
// an account can read (no item of any account holds it, no log record); only a person who joined an account gets
// one; POST /sign-in makes the same storage and queue calls for a known, an invited-only and an unknown address;
// and a cross-site post cannot spend a link.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#lib/db/client.ts';
import { sqsClient } from '#lib/queue/client.ts';
import { useTestAdapters } from '#lib/channel-adapters/adapters.ts';
import { printSignInLinksTo } from '#lib/console/sign-in-delivery.ts';
import { installLocalInbox } from '#lib/local/inbox.ts';
import { logger, type LogRecord } from '#lib/logger.ts';
import { newAccount, pollUntil, type TestAccount } from './helpers.ts';
import { startOwnStack, type OwnStack } from './own-stack.ts';
import { ConsoleClient } from './console-client.ts';

let stack: OwnStack;
let a: TestAccount;
let b: TestAccount;
/** B's admin, whom A's admin invited to A by address. */
let bAdminEmail: string;
/** A's admin (each address may ask for 5 links per 15 minutes: the tests share them out). */
let aAdminEmail: string;
/** A person whose only membership is an invitation to A (B removed them). */
let invitedOnlyEmail: string;
const lines: string[] = [];
const records: LogRecord[] = [];

let people = 0;
const address = (what: string) => `${what}-${process.pid}-${Date.now()}-${++people}@example.test`;
const emailOf = async (account: TestAccount, accountUserId: string): Promise<string> => {
  const accountUser = (await account.api('GET', `/account_users/${accountUserId}`)).body;
  return (await account.api('GET', `/users/${accountUser.user_id}`)).body.emails[0].email;
};

beforeAll(async () => {
  stack = await startOwnStack('sign-in', {});
  // As under npm start: no email provider, the local inbox as every channel's last provider, links printed.
  useTestAdapters(undefined);
  process.env.HARK_LOCAL_INBOX = '1';
  installLocalInbox();
  printSignInLinksTo((line) => lines.push(line));
  logger.pinLogLevel('DEBUG');
  logger.setSink((record) => records.push(record));
  a = await newAccount('Inviting', stack);
  b = await newAccount('Invited', stack);
  bAdminEmail = await emailOf(b, b.adminAccountUserId);
  aAdminEmail = await emailOf(a, a.adminAccountUserId);
  expect((await a.api('POST', '/account_users', { roles: { admin: true }, user_attributes: { name: 'B admin', email: bAdminEmail } })).body.status).toBe('invited');
  invitedOnlyEmail = address('invited-only');
  const inB = (await b.api('POST', '/account_users', { user_attributes: { name: 'Invited only', email: invitedOnlyEmail } })).body;
  expect((await a.api('POST', '/account_users', { user_attributes: { name: 'Invited only', email: invitedOnlyEmail } })).body.status).toBe('invited');
  expect((await b.api('DELETE', `/account_users/${inB.id}`)).status).toBe(204);
});

afterAll(async () => {
  printSignInLinksTo(undefined);
  logger.setSink(undefined);
  delete process.env.HARK_LOCAL_INBOX;
  await stack?.stop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The link of the terminal line printed for `email` from line `after` on, waiting for it. */
const printedLink = (email: string, after: number) =>
  pollUntil(async () => {
    const line = lines.slice(after).find((l) => l.startsWith(`Sign-in link for ${email}: `));
    return line?.match(/https?:\/\/\S+\/sign-in\/[A-Za-z0-9_-]{43}/)?.[0];
  });

/** The outcome the worker logged for the first sign-in request it finished from record `after` on, waiting for it. */
const handled = (after: number) =>
  // A message SQS delivered again while the first delivery was still at work says `already_taken`: not the outcome.
  pollUntil(async () => records.slice(after).find((r) => r.event === 'sign_in_link' && r.outcome !== 'already_taken')?.outcome as string | undefined);

/** Every item of the stack's table, as text. */
async function tableText(): Promise<string> {
  const items: unknown[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: process.env.HARK_TABLE_NAME!, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return JSON.stringify(items, (_key, value: unknown) => (value instanceof Set ? [...value] : value));
}

describe('a sign-in link reaches only its person', () => {
  it('asked for by another account, it is printed in the terminal only: no item, inbox or log holds it, and it signs in to the joined account', async () => {
    const adminOfA = new ConsoleClient(stack.baseUrl);
    const before = lines.length;
    const beforeRecords = records.length;
    const page = await adminOfA.post('/sign-in', { email: bAdminEmail });
    expect(page.text).toContain('a sign-in link is on its way');
    const link = await printedLink(bAdminEmail, before);
    const outcome = await handled(beforeRecords);
    const token = link.split('/').pop()!;
    expect(lines.filter((l) => l.includes(token))).toHaveLength(1);
    // Neither account's inbox, outbox or notification records, nor anything else stored, holds the link: only its hash.
    expect(await tableText()).not.toContain(token);
    expect(JSON.stringify(records)).not.toContain(token);
    // Printed, and not mailed anywhere: no email provider here, and the local inbox is not one for sign-in links.
    expect(outcome).toBe('printed');
    // The person signs in with it, to the one account they joined.
    const person = new ConsoleClient(stack.baseUrl);
    const signedIn = await person.post(new URL(link).pathname);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/alerts');
    expect((await person.get('/integrations')).text).toContain('Invited');
  });

  it('a person who joined no account gets the same page and nothing else', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    const knownRecords = records.length;
    const known = await client.post('/sign-in', { email: bAdminEmail });
    expect(await handled(knownRecords)).toBe('printed');
    const before = lines.length;
    const beforeRecords = records.length;
    const invited = await client.post('/sign-in', { email: invitedOnlyEmail });
    expect(invited.status).toBe(200);
    expect(invited.text).toBe(known.text);
    expect(await handled(beforeRecords)).toBe('no_joined_account');
    expect(lines.slice(before).filter((l) => l.includes(invitedOnlyEmail))).toEqual([]);
    expect(await tableText()).not.toMatch(/"type":"SIGNIN"[^}]*invited-only/);
  });

  it('a person who signed out signs back in from the terminal line, without a restart', async () => {
    const client = new ConsoleClient(stack.baseUrl);
    let before = lines.length;
    await client.post('/sign-in', { email: aAdminEmail });
    await client.post(new URL(await printedLink(aAdminEmail, before)).pathname);
    const alerts = await client.get('/alerts');
    expect(alerts.status).toBe(200);
    await client.post('/sign-out', { csrf: ConsoleClient.csrfOf(alerts) });
    expect((await client.get('/alerts')).status).toBe(303);
    before = lines.length;
    await client.post('/sign-in', { email: aAdminEmail });
    expect((await client.post(new URL(await printedLink(aAdminEmail, before)).pathname)).status).toBe(303);
    expect((await client.get('/alerts')).status).toBe(200);
  });
});

interface Call {
  command: string;
  /** The table or queue it went to, without the key: the shape of the call. */
  target: string;
}

/** Records every storage and queue command this process sends (the gateway runs here). */
function recordCalls(): Call[] {
  const calls: Call[] = [];
  for (const client of [documentClient(), sqsClient()] as { send: (command: never) => Promise<unknown> }[]) {
    const send = client.send.bind(client);
    vi.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const input = command.input;
      const expression = typeof input.UpdateExpression === 'string' ? ` ${input.UpdateExpression}` : '';
      calls.push({ command: command.constructor.name.replace(/Command$/, ''), target: `${String(input.TableName ?? input.QueueUrl ?? '')}${expression}` });
      return send(command as never);
    }) as never);
  }
  return calls;
}

describe('POST /sign-in does the same work for every address', () => {
  it('a known, an invited-only and an unknown address make the same storage and queue calls', async () => {
    // The worker that sends links runs in this process too: paused, so only the requests' own calls are recorded.
    await stack.timersWorker.pause();
    try {
      const sequences: Record<string, Call[]> = {};
      const texts: string[] = [];
      for (const [name, email] of [['known', aAdminEmail], ['invited only', invitedOnlyEmail], ['unknown', address('nobody')]] as const) {
        const calls = recordCalls();
        texts.push((await new ConsoleClient(stack.baseUrl).post('/sign-in', { email })).text);
        sequences[name] = [...calls];
        vi.restoreAllMocks();
      }
      expect(sequences.known!.map((c) => c.command)).toEqual(['Update', 'Update', 'SendMessage']);
      expect(sequences['invited only']).toEqual(sequences.known);
      expect(sequences.unknown).toEqual(sequences.known);
      expect(new Set(texts).size).toBe(1);
    } finally {
      stack.timersWorker.resume();
    }
  });
});

describe('login CSRF', () => {
  it('refuses a cross-site post of a link (logged, the link still good), and takes the same-origin one', async () => {
    const before = lines.length;
    await new ConsoleClient(stack.baseUrl).post('/sign-in', { email: aAdminEmail });
    const path = new URL(await printedLink(aAdminEmail, before)).pathname;
    const victim = new ConsoleClient(stack.baseUrl);
    const beforeRecords = records.length;
    const forged: Record<string, string>[] = [{ origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' }, { origin: 'https://attacker.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const headers of forged) {
      const refused = await victim.post(path, {}, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    expect(records.slice(beforeRecords).filter((r) => r.event === 'sign_in_cross_site_refused')).toHaveLength(4);
    expect((await victim.get(path)).status).toBe(200);
    const page = await victim.get(path);
    expect(page.text).toContain('>Sign in</button>');
    const signedIn = await victim.post(path, {}, { origin: stack.baseUrl, 'sec-fetch-site': 'same-origin' });
    expect(signedIn.status).toBe(303);
  });
});
