// People between accounts (docs/security.md, "People between accounts"; docs/people.md): two accounts, an admin
// key each and a member key, through the gateway users hit. An invited account user is never paged, never sent
// anything and never acts from a message; another account never sees or uses a person's phones, other emails or
// notify flags; a person's contacts change only where they belong. Each finding of the review is a test here, and
// the tenant walls that already held (404 in paths, 422 in bodies) are kept by one.
import { createHmac } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseEnvironment, reloadConfig } from '#lib/config.ts';
import { ADAPTER_SERVICES } from '#lib/delivery/adapter-services.ts';
import { actionLinks } from '#lib/delivery/links.ts';
import { ALERT_LINK_ACTIONS } from '#lib/alerts/message-owner.ts';
import { newId } from '#lib/ids.ts';
import { startGateway } from '#lib/local/gateway.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { slackAdapter, slackButtons } from '#lib/channel-adapters/slack.ts';
import { smsAdapter, voiceAdapter } from '#lib/channel-adapters/sms.ts';
import { twilioSignature } from '#lib/channel-adapters/twilio.ts';
import { acceptInvitation } from '#lib/people/invitations.ts';
import { normalizePhone } from '#lib/people/phones.ts';
import { startSlackStub, type SlackStub } from '../support/slack-api.ts';
import { baseUrl, errorMessages, newAccount, request, teamWithOnCall, useTestStack, type TestAccount } from './helpers.ts';
import { createMemberKey } from './members.ts';
import { randomPhone, startTwilioStub, twilioEnvironment, TWILIO_SID, type Stub } from './phone-stubs.ts';

const NOT_JOINED = 'they have not accepted the invitation to this account';
const EVERY_CHANNEL_RULE = 'rules:\n- match: {always: true}\n  actions: [{type: notify, channels: [sms, voice, email, push, whatsapp, slack]}]\n';

let a: TestAccount;
let b: TestAccount;
let memberKeyOfA: string;
let twilio: Stub;
/** The stack's settings with SMS and calls through the Twilio stand-in (the shared stack has no phone provider). */
let phoneConfig: ReturnType<typeof parseEnvironment>;
let seq = 0;
const address = (what: string) => `${what}-${process.pid}-${Date.now()}-${++seq}@sealed.example.test`;
/** A random number a person may hold (one of the numbering plan's ranges, so a profile accepts it). */
function personPhone(): string {
  for (;;) {
    const phone = randomPhone();
    if (normalizePhone(phone).ok) return phone;
  }
}

beforeAll(async () => {
  useTestStack();
  twilio = await startTwilioStub();
  phoneConfig = parseEnvironment(twilioEnvironment(twilio, { HARK_PUBLIC_URL: baseUrl() }));
  [a, b] = await Promise.all([newAccount('Sealed A'), newAccount('Sealed B')]);
  memberKeyOfA = await createMemberKey(a);
});

afterAll(async () => {
  await twilio?.close();
});

interface Row {
  account_user_id: string;
  type: string;
  channel: string | null;
  status: string;
  reason: string | null;
  outbox_id: string | null;
}

const notificationsOf = async (account: TestAccount, alertId: string) => (await account.api('GET', `/alerts/${alertId}/notifications?limit=100`)).body.data as Row[];
const logsOf = async (account: TestAccount, alertId: string) =>
  (await account.api('GET', `/alerts/${alertId}/logs?limit=100`)).body.data as { event: string; message: string; account_user_id?: string }[];
const outboxOf = async (account: TestAccount) =>
  (await account.api('GET', '/outbox?limit=100')).body.data as { id: string; to: string; template: string; subject: string; body: string }[];
const statusOf = async (account: TestAccount, alertId: string) => (await account.api('GET', `/alerts/${alertId}`)).body.status as string;

/** A's alert paging `accountUserId` directly. */
async function pageDirectly(account: TestAccount, accountUserId: string, title: string) {
  const reply = await account.api('POST', '/alerts', { title, urgency: 'critical', destination_account_user_ids: [accountUserId] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as { id: string; prefix_id: string; tiny_id: number };
}

/** Nothing of the account's messages went to any of these addresses (phones, emails) — the outbox shows every message. */
async function expectNothingSentTo(account: TestAccount, addresses: readonly string[]) {
  const messages = await outboxOf(account);
  expect(messages.filter((m) => addresses.includes(m.to) && m.template !== 'account_invitation')).toEqual([]);
}

describe('an invited account user is never paged nor sent anything (finding: invited people are paged)', () => {
  // Pat belongs to A: a private phone, a primary work email, an old address B happens to know; no calls.
  const patWork = address('pat-work');
  const patOld = address('pat-old');
  const patPhone = personPhone();
  let pat: { user_id: string };
  let invited: { id: string; prefix_id: string };

  beforeAll(async () => {
    const created = await a.api('POST', '/account_users', {
      user_attributes: {
        name: 'Pat Private',
        emails_attributes: [
          { email: patWork, primary: true },
          { email: patOld, primary: false },
        ],
        phones_attributes: [{ phone: patPhone, primary: true }],
        notify_sms: true,
        notify_voice: false,
        time_zone: 'London',
      },
    });
    expect(created.status, created.text).toBe(201);
    pat = created.body;
    const invite = await b.api('POST', '/account_users', { user_attributes: { name: 'Whoever', email: patOld } });
    expect(invite.status, invite.text).toBe(201);
    invited = invite.body;
    // B gives the invited account user a rule naming every channel, voice included.
    const rule = await b.api('POST', '/notification_rules', { name: 'Everything', rules: EVERY_CHANNEL_RULE });
    expect(rule.status, rule.text).toBe(201);
    expect((await b.api('PUT', `/account_users/${invited.id}`, { notification_rule_id: rule.body.id })).status).toBe(200);
  });

  it('a direct page pages nobody: no record, nothing in the outbox, a note in the log, the alert dropped', async () => {
    const alert = await pageDirectly(b, invited.id, 'Invited direct page');
    expect(await notificationsOf(b, alert.id)).toEqual([]);
    await expectNothingSentTo(b, [patPhone, patWork, patOld, invited.id]);
    expect((await outboxOf(b)).some((m) => m.subject.includes('Invited direct page') || m.body.includes('Invited direct page'))).toBe(false);
    const skipped = (await logsOf(b, alert.id)).filter((l) => l.event === 'skipped');
    expect(skipped.map((l) => [l.message, l.account_user_id])).toEqual([[`Account user ${invited.id} is not paged directly: ${NOT_JOINED}.`, invited.id]]);
    expect(await statusOf(b, alert.id)).toBe('dropped');
  });

  it('a team layer naming them skips them with a note and pages the others on it', async () => {
    const team = await teamWithOnCall(b, [[invited.id, b.adminAccountUserId]], 'Sealed layer');
    const reply = await b.api('POST', '/alerts', { title: 'Team page', urgency: 'high', destination_team_ids: [team.id] });
    expect(reply.status, reply.text).toBe(201);
    const rows = await notificationsOf(b, reply.body.id);
    expect(new Set(rows.map((r) => r.account_user_id))).toEqual(new Set([b.adminAccountUserId]));
    const logs = await logsOf(b, reply.body.id);
    expect(logs.filter((l) => l.event === 'skipped').map((l) => l.message)).toEqual([`Account user ${invited.id} is not paged on layer 1 of team ${team.id} (pass 1): ${NOT_JOINED}.`]);
    expect(logs.filter((l) => l.event === 'paged').map((l) => l.account_user_id)).toEqual([b.adminAccountUserId]);
    await expectNothingSentTo(b, [patPhone, patWork, patOld, invited.id]);
  });

  it('an escalation policy reassigning to them skips them; a drop notification to them is not sent, its record says why', async () => {
    const team = await teamWithOnCall(b, [], 'Sealed reassign');
    const policy = await b.api('PUT', `/escalation_policies/${team.escalation_policy_id}`, { reassign_account_user_ids: [invited.id] });
    expect(policy.status, policy.text).toBe(200);
    const reassigned = await b.api('POST', '/alerts', { title: 'Reassigned', urgency: 'high', destination_team_ids: [team.id] });
    expect(reassigned.status, reassigned.text).toBe(201);
    expect(await notificationsOf(b, reassigned.body.id)).toEqual([]);
    expect((await logsOf(b, reassigned.body.id)).filter((l) => l.event === 'skipped' && l.account_user_id === invited.id).map((l) => l.message)).toEqual([
      `Account user ${invited.id} is not paged directly: ${NOT_JOINED}.`,
    ]);
    expect(await statusOf(b, reassigned.body.id)).toBe('dropped');

    const dropping = await teamWithOnCall(b, [], 'Sealed drop');
    const settings = await b.api('PUT', `/teams/${dropping.id}`, { drop_notifications: 'specific_users', drop_notification_account_user_ids: [invited.id] });
    expect(settings.status, settings.text).toBe(200);
    const dropped = await b.api('POST', '/alerts', { title: 'Dropped', urgency: 'high', destination_team_ids: [dropping.id] });
    expect(dropped.status, dropped.text).toBe(201);
    expect((await notificationsOf(b, dropped.body.id)).map((r) => [r.account_user_id, r.type, r.channel, r.status, r.reason])).toEqual([
      [invited.id, 'alert.dropped', null, 'failed', NOT_JOINED],
    ]);
    await expectNothingSentTo(b, [patPhone, patWork, patOld, invited.id]);
  });

  it('a broadcast to them sends them nothing; its record says why', async () => {
    const sent = await b.api('POST', '/broadcasts', { title: 'Sealed broadcast', destination_account_user_ids: [invited.id] });
    expect(sent.status, sent.text).toBe(201);
    let broadcast: { status: string } = sent.body;
    for (let i = 0; i < 100 && broadcast.status === 'queued'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      broadcast = (await b.api('GET', `/broadcasts/${sent.body.id}`)).body;
    }
    expect(broadcast).toMatchObject({ status: 'errored', recipients_count: 1, reached_count: 0 });
    const rows = (await b.api('GET', `/broadcasts/${sent.body.id}/notifications?limit=100`)).body.data as Row[];
    expect(rows.map((r) => [r.account_user_id, r.channel, r.status, r.reason])).toEqual([[invited.id, null, 'failed', NOT_JOINED]]);
    await expectNothingSentTo(b, [patPhone, patWork, patOld, invited.id]);
  });

  it('the Slack adapter does not look them up: their email is not the account’s to use', async () => {
    expect(await ADAPTER_SERVICES.primaryEmailOf(b.accountId, invited.id)).toBeUndefined();
    expect(await ADAPTER_SERVICES.primaryEmailOf(a.accountId, (await a.api('GET', `/users/${pat.user_id}`)).body.account_user_id)).toBe(patWork);
  });
});

describe('what an invitation reveals (finding: name, existence and notify flags leaked)', () => {
  const dana = { work: address('dana-work'), private: address('dana-private'), phone: personPhone() };
  let danaId: string;

  beforeAll(async () => {
    const created = await a.api('POST', '/users', {
      name: 'Dana Example',
      email: dana.work,
      emails_attributes: [{ email: dana.private }],
      phones_attributes: [{ phone: dana.phone }],
      notify_sms: true,
      notify_voice: true,
      time_zone: 'Berlin',
      preferred_language: 'de-DE',
    });
    expect(created.status, created.text).toBe(201);
    danaId = created.body.id;
  });

  it('the inviting account sees the name and the address it used, nothing more: no phone, no other email, no flags', async () => {
    const invited = await b.api('POST', '/users', { name: 'Typed Name', email: dana.work, phones_attributes: [{ phone: '+44 7911 123456' }] });
    expect(invited.status, invited.text).toBe(201);
    const hidden = { emails: [{ id: expect.any(String), email: dana.work, primary: true }], phones: [], time_zone: null, preferred_language: null, last_sign_in_at: null };
    const flags = { notify_push: null, notify_email: null, notify_sms: null, notify_voice: null };
    expect(invited.body).toMatchObject({ id: danaId, status: 'invited', name: 'Dana Example', ...hidden, ...flags });
    expect((await b.api('GET', `/users/${danaId}`)).body).toMatchObject({ name: 'Dana Example', ...hidden, ...flags });
    const au = (await b.api('GET', `/account_users/${invited.body.account_user_id}`)).body;
    expect(au.user).toEqual({ id: danaId, name: 'Dana Example', ...hidden, ...flags });
    expect(JSON.stringify(au)).not.toContain(dana.private);
    expect(JSON.stringify(au)).not.toContain(dana.phone);
    // Lists and searches run on what the account sees: the other address and the phone find nothing.
    for (const query of [`emails.email=${encodeURIComponent(dana.private)}`, `q=${encodeURIComponent(dana.private)}`, `q=${encodeURIComponent(dana.phone)}`, 'notify_sms=true&status=invited']) {
      expect((await b.api('GET', `/users?${query}`)).body.total_count, query).toBe(0);
    }
    expect((await b.api('GET', `/account_users?q=${encodeURIComponent(dana.private)}`)).body.total_count).toBe(0);
    // The request's own profile fields were not applied to the person.
    expect((await a.api('GET', `/users/${danaId}`)).body).toMatchObject({ name: 'Dana Example', notify_voice: true, phones: [{ phone: dana.phone }] });
  });
});

describe('pages of one account never reach a phone another account put on a person (finding: pages intercepted and acknowledged)', () => {
  // B pre-creates Quinn with the address A will use for its new hire, and the attacker's own phone.
  const quinnWork = address('quinn-work');
  const attackerPhone = personPhone();
  let quinnUserId: string;
  let inA: { id: string; account_user_id: string };
  let slack: SlackStub;
  let slackGateway: Server;
  let slackUrl: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    const planted = await b.api('POST', '/users', { name: 'Quinn New', email: quinnWork, phones_attributes: [{ phone: attackerPhone }], notify_sms: true, notify_voice: true });
    expect(planted.status, planted.text).toBe(201);
    quinnUserId = planted.body.id;
    const added = await a.api('POST', '/users', { name: 'Quinn New', email: quinnWork });
    expect(added.status, added.text).toBe(201);
    inA = added.body;
    // A Slack workspace where the attacker's Slack user carries Quinn's address, and a gateway that answers its clicks.
    slack = await startSlackStub({ token: 'xoxb-sealed', users: { [quinnWork]: 'U0QUINN' } });
    Object.assign(process.env, { HARK_SLACK_BOT_TOKEN: 'xoxb-sealed', HARK_SLACK_SIGNING_SECRET: 'sealed-slack-signing-secret-0123', HARK_SLACK_API_URL: slack.url });
    reloadConfig();
    slackGateway = await startGateway(0, '127.0.0.1');
    slackUrl = `http://127.0.0.1:${(slackGateway.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => slackGateway?.close(() => resolve()));
    await slack?.close();
    for (const name of ['HARK_SLACK_BOT_TOKEN', 'HARK_SLACK_SIGNING_SECRET', 'HARK_SLACK_API_URL']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    reloadConfig();
  });

  it('A sees the invited person without the planted phone, and A’s pages (titles included) never go to it', async () => {
    expect(inA).toMatchObject({ id: quinnUserId, status: 'invited', phones: [], notify_sms: null });
    const direct = await pageDirectly(a, inA.account_user_id, 'Payroll database down');
    const team = await teamWithOnCall(a, [[inA.account_user_id]], 'Payroll');
    const viaTeam = await a.api('POST', '/alerts', { title: 'Payroll queue stuck', urgency: 'critical', destination_team_ids: [team.id] });
    expect(viaTeam.status, viaTeam.text).toBe(201);
    for (const id of [direct.id, viaTeam.body.id]) {
      expect(await notificationsOf(a, id)).toEqual([]);
      expect((await logsOf(a, id)).filter((l) => l.event === 'skipped' && l.account_user_id === inA.account_user_id)).toHaveLength(1);
    }
    await expectNothingSentTo(a, [attackerPhone, quinnWork, inA.account_user_id]);
    expect((await outboxOf(a)).some((m) => /Payroll/.test(m.subject + m.body))).toBe(false);
  });

  it('an SMS reply "4" from the planted phone acknowledges nothing of A', async () => {
    const alert = await pageDirectly(a, inA.account_user_id, 'Payroll replica lag');
    const before = (await a.api('GET', `/alerts/${alert.id}`)).body;
    // A's page queued no SMS for the invited person (the test above): so the planted phone holds no code of A's.
    expect((await notificationsOf(a, alert.id)).filter((r) => r.channel === 'sms')).toEqual([]);
    const unknownCode = await postAsTwilio('/sms/twilio', smsFields(attackerPhone, '4'));
    expect(unknownCode.status, unknownCode.text).toBe(200);
    expect(unknownCode.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    // Had the page gone out, the phone would hold a code: issued here as the provider would issue it for that page, the
    // reply "4" is refused as well, so neither path acknowledges.
    await smsAdapter(phoneConfig, ADAPTER_SERVICES)!.send({
      notificationId: newId(),
      accountId: a.accountId,
      channel: 'sms',
      to: attackerPhone,
      accountUserId: inA.account_user_id,
      subject: 'Payroll replica lag',
      text: 'Payroll replica lag',
      actions: [],
      about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id },
    });
    const sentBefore = twilio.requests.length;
    const withCode = await postAsTwilio('/sms/twilio', smsFields(attackerPhone, '4'));
    expect(withCode.status, withCode.text).toBe(200);
    expect(withCode.text).toContain('have not joined it yet');
    const now = (await a.api('GET', `/alerts/${alert.id}`)).body;
    expect(now.acknowledged_at).toBeNull();
    expect(now.status).toBe(before.status);
    expect((await logsOf(a, alert.id)).filter((l) => l.event === 'message_action' || l.event === 'acknowledged')).toEqual([]);
    expect(twilio.requests.slice(sentBefore).filter((r) => new URLSearchParams(r.body).get('To') === attackerPhone)).toEqual([]);
  });

  describe('even holding a message of A, an invited account user cannot act from it', () => {
    const message = (alert: { id: string; prefix_id: string }, channel: OutgoingMessage['channel']): OutgoingMessage => ({
      notificationId: newId(),
      accountId: a.accountId,
      channel,
      to: attackerPhone,
      accountUserId: inA.account_user_id,
      subject: 'Payroll',
      text: '',
      actions: [],
      about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id },
    });
    const refusal = 'You are no longer a member of this account (or have not joined it yet), so you cannot act on its alerts.';

    it('an SMS or WhatsApp reply to a code issued for them changes nothing', async () => {
      const own = await pageDirectly(a, a.adminAccountUserId, 'Payroll held open');
      await smsAdapter(phoneConfig, ADAPTER_SERVICES)!.send(message(own, 'sms'));
      // The phone may hold other live codes (the test above issued one): reply with this message's own code.
      const sent = new URLSearchParams(twilio.requests.at(-1)!.body).get('Body') ?? '';
      const code = /\b4([a-z]{2})\b/.exec(sent)?.[1] ?? '';
      for (const from of [attackerPhone, `whatsapp:${attackerPhone}`]) {
        const reply = await postAsTwilio('/sms/twilio', smsFields(from, `4${code}`));
        expect(reply.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Message>${refusal}</Message></Response>`);
      }
      expect(await statusOf(a, own.id)).toBe('open');
      expect((await logsOf(a, own.id)).filter((l) => l.event === 'message_action')).toEqual([]);
    });

    it('a key press on a call issued for them changes nothing', async () => {
      const own = await pageDirectly(a, a.adminAccountUserId, 'Payroll call');
      await voiceAdapter(phoneConfig, ADAPTER_SERVICES)!.send(message(own, 'voice'));
      const twiml = new URLSearchParams(twilio.requests.at(-1)!.body).get('Twiml')!;
      const code = new URL(/action="([^"]+)"/.exec(twiml)![1]!.replace(/&amp;/g, '&')).searchParams.get('code');
      const fields = { AccountSid: TWILIO_SID, CallSid: `CA${newId()}`, From: '+14155550100', To: attackerPhone, Digits: '4', Direction: 'outbound-api' };
      const reply = await postAsTwilio(`/voice/twilio/gather?code=${code}`, fields);
      expect(reply.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Say>${refusal} Goodbye.</Say></Response>`);
      expect(await statusOf(a, own.id)).toBe('open');
    });

    it('a signed link made for them shows no alert and acts on nothing', async () => {
      const own = await pageDirectly(a, a.adminAccountUserId, 'Payroll link');
      const links = actionLinks({
        ownerType: 'alert',
        ownerId: own.id,
        accountId: a.accountId,
        accountUserId: inA.account_user_id,
        actions: ALERT_LINK_ACTIONS,
        now: Date.now(),
        channel: 'email',
        keys: { current: inject('linkSecret') },
        baseUrl: baseUrl(),
      });
      const path = new URL(links.find((l) => l.action === 'acknowledge')!.url).pathname;
      const page = await request('GET', path);
      expect(page.status).toBe(403);
      expect(page.text).not.toContain('Payroll link');
      const acted = await request('POST', path);
      expect(acted.status).toBe(403);
      expect(acted.text).toContain('have not joined it yet');
      expect(await statusOf(a, own.id)).toBe('open');
    });

    it('a Slack message is not sent to them, and a click by a Slack user with their address acts on nothing', async () => {
      const own = await pageDirectly(a, a.adminAccountUserId, 'Payroll slack');
      const sent = await slackAdapter(parseEnvironment({ HARK_SLACK_BOT_TOKEN: 'xoxb-sealed', HARK_SLACK_API_URL: slack.url }), ADAPTER_SERVICES)!.send({
        ...message(own, 'slack'),
        to: inA.account_user_id,
      });
      expect(sent).toMatchObject({ status: 'suppressed' });
      expect(slack.calls.filter((c) => c.method === 'chat.postMessage')).toEqual([]);
      const blocks = [{ type: 'actions', elements: slackButtons({ ownerType: 'alert', ownerId: own.id, accountId: a.accountId }, ALERT_LINK_ACTIONS) }];
      const reply = await slackClick(blocks, 'hark_acknowledge', 'U0QUINN');
      expect(reply.status).toBe(200);
      expect(await statusOf(a, own.id)).toBe('open');
      expect(slack.calls.filter((c) => c.method === 'chat.postEphemeral').at(-1)!.body.text).toBe(
        `${quinnWork} is not the email of anyone in this Hark account, so the button cannot act for you.`,
      );
    });
  });

  it('B may change the phones of its own person while A only invited them, and nothing of it reaches A', async () => {
    const secondPhone = personPhone();
    const changed = await b.api('PUT', `/users/${quinnUserId}`, { phones_attributes: [{ phone: secondPhone, primary: true }] });
    expect(changed.status, changed.text).toBe(200);
    expect((await a.api('GET', `/users/${quinnUserId}`)).body.phones).toEqual([]);
    await pageDirectly(a, inA.account_user_id, 'Payroll after the change');
    await expectNothingSentTo(a, [attackerPhone, secondPhone]);
    // A, which only invited them, cannot change the person at all.
    const refused = await a.api('PUT', `/users/${quinnUserId}`, { phones_attributes: [{ phone: personPhone() }] });
    expect(refused.status).toBe(403);
    expect(errorMessages(refused)).toEqual(['Quinn New has not accepted the invitation to this account; only they can change their profile']);
  });

  it('once the person accepts A’s invitation, no account changes their contacts any more, not even after leaving', async () => {
    await acceptInvitation(quinnUserId, a.accountId);
    // Accepting again, or where there is no invitation, changes nothing.
    await expect(acceptInvitation(quinnUserId, a.accountId)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(acceptInvitation(quinnUserId, b.accountId)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(acceptInvitation(quinnUserId, newId())).rejects.toMatchObject({ kind: 'not_found', messages: ['Invitation not found'] });
    expect((await a.api('GET', `/users/${quinnUserId}`)).body).toMatchObject({ status: 'active', notify_sms: true });
    const byCreator = await b.api('PUT', `/users/${quinnUserId}`, { phones_attributes: [{ phone: personPhone() }] });
    expect(byCreator.status).toBe(403);
    expect(errorMessages(byCreator)).toEqual(['Quinn New also belongs to another account; only they can change their profile']);
    const byA = await a.api('PUT', `/account_users/${inA.account_user_id}`, { user_attributes: { emails_attributes: [{ email: address('quinn-new') }] } });
    expect(byA.status).toBe(403);
    // The person leaves A: B, where they are active alone again, still cannot change what is now theirs.
    expect((await a.api('DELETE', `/account_users/${inA.account_user_id}`)).status).toBe(204);
    const after = await b.api('PUT', `/users/${quinnUserId}`, { email: address('takeover') });
    expect(after.status).toBe(403);
    expect(errorMessages(after)).toEqual(['Quinn New has accepted an invitation to an account, so their profile is their own; only they can change it']);
    // The membership's own fields (meta) stay the admins' business.
    expect((await b.api('PUT', `/users/${quinnUserId}`, { meta: { desk: 4 } })).status).toBe(200);
  });

  /** The interaction Slack posts when `slackUserId` clicks `button`, signed with the gateway's signing secret. */
  function slackClick(blocks: any[], button: string, slackUserId: string) {
    const element = blocks[0].elements.find((e: any) => e.action_id === button);
    const payload = {
      type: 'block_actions',
      user: { id: slackUserId },
      channel: { id: 'DU0QUINN' },
      message: { ts: '1700000000.000200', blocks },
      actions: [{ action_id: element.action_id, value: element.value, type: 'button' }],
    };
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const at = Math.floor(Date.now() / 1000);
    const signature = `v0=${createHmac('sha256', 'sealed-slack-signing-secret-0123').update(`v0:${at}:${body}`).digest('hex')}`;
    return fetch(`${slackUrl}/slack/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(at), 'x-slack-signature': signature },
      body,
    });
  }
});

describe('the tenant walls that held stay held', () => {
  let aTeam: { id: string; schedule_id: string };
  let aAlert: { id: string };
  let aPerson: { id: string; account_user_id: string };
  let aRule: { id: string };

  beforeAll(async () => {
    aPerson = (await a.api('POST', '/users', { name: 'Only In A', email: address('only-a') })).body;
    aTeam = (await a.api('POST', '/teams', { name: 'A only' })).body;
    aAlert = await pageDirectly(a, a.adminAccountUserId, 'A only alert');
    aRule = (await a.api('POST', '/notification_rules', { name: 'A only rule', rules: EVERY_CHANNEL_RULE })).body;
  });

  it('another account’s ids in paths are 404, exactly like unknown ids', async () => {
    const paths = [
      ['GET', `/users/${aPerson.id}`, 'User not found'],
      ['PUT', `/users/${aPerson.id}`, 'User not found'],
      ['GET', `/account_users/${aPerson.account_user_id}`, 'Account user not found'],
      ['DELETE', `/account_users/${aPerson.account_user_id}`, 'Account user not found'],
      ['GET', `/teams/${aTeam.id}`, 'Team not found'],
      ['GET', `/alerts/${aAlert.id}`, 'Alert not found'],
      ['POST', `/alerts/${aAlert.id}/acknowledge`, 'Alert not found'],
      ['GET', `/account_users/${aPerson.account_user_id}/push`, 'Account user not found'],
    ] as const;
    const seenByA = async () => ({
      person: (await a.api('GET', `/users/${aPerson.id}`)).body,
      accountUser: (await a.api('GET', `/account_users/${aPerson.account_user_id}`)).body,
      team: (await a.api('GET', `/teams/${aTeam.id}`)).body,
      alert: (await a.api('GET', `/alerts/${aAlert.id}`)).body,
      alertLog: (await a.api('GET', `/alerts/${aAlert.id}/logs?limit=100`)).body,
    });
    const before = await seenByA();
    const ids = [aPerson.id, aPerson.account_user_id, aTeam.id, aAlert.id];
    for (const [method, path, message] of paths) {
      const body = method === 'PUT' ? { name: 'X' } : undefined;
      const reply = await b.api(method, path, body);
      expect([path, reply.status], reply.text).toEqual([path, 404]);
      expect(errorMessages(reply)).toEqual([message]);
      // Exactly like an id that exists nowhere, of the same kind: the same status, body and content type.
      const unknownPath = ids.reduce((p, id) => p.replace(id, newId()), path as string);
      const unknown = await b.api(method, unknownPath, body);
      expect([path, unknown.status, unknown.body, unknown.headers.get('content-type')]).toEqual([path, reply.status, reply.body, reply.headers.get('content-type')]);
    }
    expect(before.alert.status).toBe('open');
    expect(before.person.name).toBe('Only In A');
    expect(await seenByA()).toEqual(before);
  });

  it('another account’s ids in bodies are 422 naming the field, and change nothing', async () => {
    const bTeam = (await b.api('POST', '/teams', { name: 'B own' })).body;
    // Everything these requests could have made or changed, in both accounts.
    const state = async () => ({
      bAlerts: (await b.api('GET', '/alerts?limit=100')).body.total_count,
      bBroadcasts: (await b.api('GET', '/broadcasts?limit=100')).body.total_count,
      bTeam: (await b.api('GET', `/teams/${bTeam.id}`)).body,
      bEvents: (await b.api('GET', `/schedules/${bTeam.schedule_id}/events?limit=100`)).body,
      bAdmin: (await b.api('GET', `/account_users/${b.adminAccountUserId}`)).body,
      aEvents: (await a.api('GET', `/schedules/${aTeam.schedule_id}/events?limit=100`)).body,
      aPerson: (await a.api('GET', `/users/${aPerson.id}`)).body,
      aRule: (await a.api('GET', `/notification_rules/${aRule.id}`)).body,
    });
    const before = await state();
    expect(before.bTeam.member_account_user_ids).toEqual([]);
    const bodies: [string, string, unknown, string][] = [
      ['POST', '/alerts', { title: 'X', urgency: 'high', destination_account_user_ids: [aPerson.account_user_id] }, 'destination_account_user_ids'],
      ['POST', '/broadcasts', { title: 'X', destination_account_user_ids: [aPerson.account_user_id] }, 'destination_account_user_ids'],
      ['PUT', `/teams/${bTeam.id}`, { member_account_user_ids: [aPerson.account_user_id] }, 'member_account_user_ids'],
      ['POST', '/events', { start_time: '2030-01-01 09:00', end_time: '2030-01-01 17:00', layer: 1, time_zone: 'UTC', schedule_ids: [bTeam.schedule_id], account_user_ids: [aPerson.account_user_id] }, 'account_user_ids'],
      ['POST', '/events', { start_time: '2030-01-01 09:00', end_time: '2030-01-01 17:00', layer: 1, time_zone: 'UTC', schedule_ids: [aTeam.schedule_id], account_user_ids: [b.adminAccountUserId] }, 'schedule_ids'],
      ['PUT', `/account_users/${b.adminAccountUserId}`, { notification_rule_id: aRule.id }, 'notification_rule_id'],
    ];
    for (const [method, path, body, field] of bodies) {
      const reply = await b.api(method, path, body);
      expect([path, field, reply.status], reply.text).toEqual([path, field, 422]);
      expect(errorMessages(reply).some((m) => m.includes(field)), reply.text).toBe(true);
    }
    expect(await state()).toEqual(before);
  });

  it('a member key changes nobody: no invitation, no profile of someone else, no outbox', async () => {
    const member = (method: string, path: string, body?: unknown) => request(method, `/api/v4${path}`, { key: memberKeyOfA, body });
    // As A's admin sees it: the people, the person's profile, and every message queued.
    const state = async () => ({
      users: (await a.api('GET', '/users?limit=100')).body,
      person: (await a.api('GET', `/users/${aPerson.id}`)).body,
      outbox: (await outboxOf(a)).map((m) => m.id),
    });
    const before = await state();
    const invited = address('member-invite');
    const invite = await member('POST', '/users', { name: 'X', email: invited });
    expect(invite.status).toBe(403);
    const phone = personPhone();
    const edit = await member('PUT', `/users/${aPerson.id}`, { phones_attributes: [{ phone }] });
    expect(edit.status).toBe(403);
    expect(errorMessages(edit)).toEqual(['Only account admins can change other users']);
    expect((await member('GET', '/outbox')).status).toBe(403);
    // No invitation, no profile change, no message: exactly as before.
    expect((await a.api('GET', `/users?emails.email=${encodeURIComponent(invited)}`)).body.total_count).toBe(0);
    expect(JSON.stringify(await state())).not.toContain(phone.slice(-6));
    expect(await state()).toEqual(before);
  });
});

/** Posts a form to the gateway as Twilio does, signed with the stack's auth token. */
async function postAsTwilio(pathAndQuery: string, fields: Record<string, string>) {
  return request('POST', pathAndQuery, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(inject('twilioAuthToken'), `${baseUrl()}${pathAndQuery}`, fields) },
  });
}

const smsFields = (from: string, body: string) => ({ AccountSid: TWILIO_SID, MessageSid: `SM${newId()}`, From: from, To: '+14155550100', Body: body, NumMedia: '0' });
