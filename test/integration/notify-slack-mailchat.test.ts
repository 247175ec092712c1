// Slack end to end against a stand-in of Slack's Web API: the adapter finds the paged person by their stored
// email and sends buttons; a click signed as Slack signs it, through a gateway, acknowledges the alert as the
// clicking person, logs it from slack and updates the message; a bad or stale signature changes nothing.
import { ADAPTER_SERVICES } from '#lib/delivery/adapter-services.ts';
import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { config, reloadConfig } from '#lib/config.ts';
import { startGateway } from '#lib/local/gateway.ts';
import { slackAdapter } from '#lib/channel-adapters/slack.ts';
import { errorMessages, newAccount, useTestStack, type TestAccount } from './helpers.ts';
import { startSlackStub, type SlackStub } from '../support/slack-api.ts';

const SIGNING_SECRET = 'slack-signing-secret-0123456789';
const BOT_TOKEN = 'xoxb-hark-integration';

let slack: SlackStub;
let gateway: Server;
let gatewayUrl: string;
let account: TestAccount;
let person: { id: string; email: string };
const saved = { ...process.env };

beforeAll(async () => {
  const email = `slack-${process.pid}-${Date.now()}@example.test`;
  slack = await startSlackStub({ token: BOT_TOKEN, users: { [email]: 'U0PAGED', 'stranger@example.test': 'U0STRANGER' } });
  useTestStack();
  Object.assign(process.env, { HARK_SLACK_BOT_TOKEN: BOT_TOKEN, HARK_SLACK_SIGNING_SECRET: SIGNING_SECRET, HARK_SLACK_API_URL: slack.url });
  reloadConfig();
  gateway = await startGateway(0, '127.0.0.1');
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  account = await newAccount('Slack');
  const created = await account.api('POST', '/account_users', { roles: { admin: false }, user_attributes: { name: 'Paged Person', emails_attributes: [{ email, primary: true }] } });
  expect(created.status, created.text).toBe(201);
  person = { id: created.body.id, email };
});

afterAll(async () => {
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
  await slack.close();
  for (const name of ['HARK_SLACK_BOT_TOKEN', 'HARK_SLACK_SIGNING_SECRET', 'HARK_SLACK_API_URL']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

async function openAlert() {
  const reply = await account.api('POST', '/alerts', { title: 'Queue backlog', urgency: 'high', destination_account_user_ids: [person.id] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; tiny_id: number; prefix_id: string };
}

/** Sends the message a page would and answers the blocks Slack received. */
async function sendPage(alert: { id: string; tiny_id: number; prefix_id: string }) {
  const adapter = slackAdapter(config(), ADAPTER_SERVICES)!;
  const result = await adapter.send({
    notificationId: `N${alert.id}`,
    accountId: account.accountId,
    channel: 'slack',
    to: person.id,
    accountUserId: person.id,
    subject: `Alert #${alert.tiny_id}: Queue backlog`,
    text: 'Urgency: high',
    actions: [],
    about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id },
  });
  expect(result).toMatchObject({ status: 'sent' });
  const lookup = slack.calls.filter((c) => c.method === 'users.lookupByEmail').at(-1)!;
  expect(lookup.body).toEqual({ email: person.email });
  return slack.calls.filter((c) => c.method === 'chat.postMessage').at(-1)!.body as { channel: string; blocks: any[] };
}

/** The interaction Slack posts when `slackUserId` clicks `button` of the message, signed at `at` (seconds). */
function click(posted: { blocks: any[] }, button: string, slackUserId: string, at = Math.floor(Date.now() / 1000), secret = SIGNING_SECRET) {
  const element = posted.blocks.find((b) => b.type === 'actions').elements.find((e: any) => e.action_id === button);
  const payload = {
    type: 'block_actions',
    user: { id: slackUserId },
    channel: { id: 'DU0PAGED' },
    container: { type: 'message', channel_id: 'DU0PAGED', message_ts: '1700000000.000100' },
    message: { ts: '1700000000.000100', blocks: posted.blocks },
    actions: [{ action_id: element.action_id, value: element.value, type: 'button' }],
    response_url: 'https://hooks.slack.com/actions/T0/1/x',
  };
  const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${at}:${body}`).digest('hex')}`;
  return fetch(`${gatewayUrl}/slack/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(at), 'x-slack-signature': signature },
    body,
  });
}

const statusOf = async (id: string) => (await account.api('GET', `/alerts/${id}`)).body.status as string;

describe('Slack buttons', () => {
  it('acknowledge as the clicking person, log it from slack and leave only Resolve on the message', async () => {
    const alert = await openAlert();
    const posted = await sendPage(alert);
    const reply = await click(posted, 'hark_acknowledge', 'U0PAGED');
    expect(reply.status).toBe(200);
    expect(await reply.text()).toBe('');
    expect(await statusOf(alert.id)).toBe('acknowledged');
    const logs = (await account.api('GET', `/alerts/${alert.id}/logs?limit=100`)).body.data as any[];
    expect(logs.find((l) => l.event === 'acknowledged')?.account_user_id).toBe(person.id);
    expect(logs.find((l) => l.event === 'message_action')?.message).toBe(`Acknowledged from slack by account user ${person.id}.`);
    const update = slack.calls.filter((c) => c.method === 'chat.update').at(-1)!.body;
    expect(update).toMatchObject({ channel: 'DU0PAGED', ts: '1700000000.000100', text: `Alert #${alert.tiny_id} acknowledged.` });
    expect(update.blocks[1]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: `Alert #${alert.tiny_id} acknowledged. (<@U0PAGED>)` }] });
    expect(update.blocks[2].elements.map((e: any) => e.action_id)).toEqual(['hark_resolve']);

    // The Resolve button left on the updated message resolves it.
    expect((await click({ blocks: update.blocks }, 'hark_resolve', 'U0PAGED')).status).toBe(200);
    expect(await statusOf(alert.id)).toBe('resolved');
    expect(slack.calls.filter((c) => c.method === 'chat.update').at(-1)!.body.blocks.some((b: any) => b.type === 'actions')).toBe(false);
  });

  it('refuses a wrong, stale or missing signature with 401 and changes nothing', async () => {
    const alert = await openAlert();
    const posted = await sendPage(alert);
    const wrong = await click(posted, 'hark_acknowledge', 'U0PAGED', undefined, 'another-signing-secret-000');
    expect(wrong.status).toBe(401);
    expect(errorMessages({ status: 401, body: await wrong.json(), headers: wrong.headers, text: '' })).toEqual(['X-Slack-Signature does not match']);
    const stale = await click(posted, 'hark_acknowledge', 'U0PAGED', Math.floor(Date.now() / 1000) - 301);
    expect(stale.status).toBe(401);
    const unsigned = await fetch(`${gatewayUrl}/slack/interactions`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payload=%7B%7D' });
    expect(unsigned.status).toBe(401);
    expect(await statusOf(alert.id)).toBe('open');
  });

  it('tells a Slack user who is not in the account why nothing happened, and changes nothing', async () => {
    const alert = await openAlert();
    const posted = await sendPage(alert);
    expect((await click(posted, 'hark_acknowledge', 'U0STRANGER')).status).toBe(200);
    expect(await statusOf(alert.id)).toBe('open');
    const note = slack.calls.filter((c) => c.method === 'chat.postEphemeral').at(-1)!.body;
    expect(note).toMatchObject({ channel: 'DU0PAGED', user: 'U0STRANGER', text: 'stranger@example.test is not the email of anyone in this Hark account, so the button cannot act for you.' });
  });
});
