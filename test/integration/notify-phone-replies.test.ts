// Inbound replies through the local gateway (docs/notifications.md, "Inbound replies"): a signed SMS reply
// acknowledges the alert it was paged about, a wrong signature is refused with nothing changed, a reply from
// another number does nothing, several open codes need the code, and a key press on a call acts too.
import { ADAPTER_SERVICES } from '#lib/delivery/adapter-services.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { SNSEvent } from 'aws-lambda';
import { handler as smsInbound } from '#functions/sms_inbound.ts';
import { parseEnvironment, reloadConfig } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { smsAdapter, voiceAdapter } from '#lib/channel-adapters/sms.ts';
import { bundleOutgoing, pendingOf } from '#lib/delivery/throttle-store.ts';
import { twilioSignature } from '#lib/channel-adapters/twilio.ts';
import { addAccountUser, baseUrl, errorMessages, newAccount, request, useTestStack, type AccountUserRef, type TestAccount } from './helpers.ts';
import { randomPhone, startEndUserMessagingStub, startTwilioStub, twilioEnvironment, TWILIO_SID, type Stub } from './phone-stubs.ts';

let twilio: Stub;
let account: TestAccount;
let person: AccountUserRef;
let sendSms: (message: OutgoingMessage) => Promise<unknown>;
let placeCall: (message: OutgoingMessage) => Promise<unknown>;

beforeAll(async () => {
  useTestStack();
  twilio = await startTwilioStub();
  const config = parseEnvironment(twilioEnvironment(twilio, { HARK_PUBLIC_URL: baseUrl() }));
  sendSms = (message) => smsAdapter(config, ADAPTER_SERVICES)!.send(message);
  placeCall = (message) => voiceAdapter(config, ADAPTER_SERVICES)!.send(message);
  account = await newAccount('Phone replies');
  person = await addAccountUser(account);
});

afterAll(async () => {
  await twilio?.close();
});

async function openAlert(title = 'Disk full'): Promise<{ id: string; prefix_id: string; tiny_id: number }> {
  const reply = await account.api('POST', '/alerts', { title, urgency: 'high', destination_account_user_ids: [person.id] });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const statusOf = async (alertId: string): Promise<string> => (await account.api('GET', `/alerts/${alertId}`)).body.status;

function pageAbout(alert: { id: string; prefix_id: string }, to: string, channel: OutgoingMessage['channel'] = 'sms'): OutgoingMessage {
  return {
    notificationId: newId(),
    accountId: account.accountId,
    channel,
    to,
    accountUserId: person.id,
    subject: 'Disk full',
    text: '',
    actions: [],
    about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id },
  };
}

/** Posts a form to the gateway as Twilio does, signed with the stack's auth token unless a signature is given. */
async function postAsTwilio(pathAndQuery: string, fields: Record<string, string>, signature?: string) {
  const url = `${baseUrl()}${pathAndQuery}`;
  return request('POST', pathAndQuery, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? twilioSignature(inject('twilioAuthToken'), url, fields),
    },
  });
}

const smsFields = (from: string, body: string) => ({ AccountSid: TWILIO_SID, MessageSid: `SM${newId()}`, From: from, To: '+14155550100', Body: body, NumMedia: '0' });

describe('POST /sms/twilio', () => {
  it('acknowledges the alert when the paged number replies 4, and logs that it came from SMS', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await sendSms(pageAbout(alert, phone));
    const reply = await postAsTwilio('/sms/twilio', smsFields(phone, '4'));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(reply.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Message>Alert #${alert.tiny_id} acknowledged.</Message></Response>`);
    expect(await statusOf(alert.id)).toBe('acknowledged');
    const logs = (await account.api('GET', `/alerts/${alert.id}/logs?limit=100`)).body.data as { event: string; message: string }[];
    expect(logs.filter((l) => l.event === 'message_action').map((l) => l.message)).toEqual([`Acknowledged from SMS by account user ${person.id}.`]);
    // Replying again says where the alert stands; 6 then resolves it.
    expect((await postAsTwilio('/sms/twilio', smsFields(phone, '4'))).text).toContain(`Alert #${alert.tiny_id} was already acknowledged.`);
    expect((await postAsTwilio('/sms/twilio', smsFields(phone, '6'))).text).toContain(`Alert #${alert.tiny_id} resolved.`);
    expect(await statusOf(alert.id)).toBe('resolved');
  });

  it('refuses a wrong or missing signature with 403 and changes nothing', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await sendSms(pageAbout(alert, phone));
    const fields = smsFields(phone, '4');
    const forged = await postAsTwilio('/sms/twilio', fields, twilioSignature('not-the-auth-token-0123456789', `${baseUrl()}/sms/twilio`, fields));
    expect(forged.status).toBe(403);
    expect(errorMessages(forged)).toEqual(['X-Twilio-Signature does not match the request']);
    // A signature of other fields (the body changed on the way) is refused too.
    const changed = await postAsTwilio('/sms/twilio', { ...fields, Body: '6' }, twilioSignature(inject('twilioAuthToken'), `${baseUrl()}/sms/twilio`, fields));
    expect(changed.status).toBe(403);
    const unsigned = await request('POST', '/sms/twilio', { rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(unsigned.status).toBe(403);
    expect(await statusOf(alert.id)).toBe('open');
  });

  it('does nothing for a number that was not paged, even with the right code', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await sendSms(pageAbout(alert, phone));
    const stranger = randomPhone();
    for (const body of ['4', '4aa', '6']) {
      const reply = await postAsTwilio('/sms/twilio', smsFields(stranger, body));
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain('acknowledged');
      expect(reply.text).not.toContain('resolved');
    }
    expect((await postAsTwilio('/sms/twilio', smsFields(stranger, '4'))).text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(await statusOf(alert.id)).toBe('open');
  });

  it('asks for the code when several alerts were sent to the number, and acts on the one named', async () => {
    const first = await openAlert('First');
    const second = await openAlert('Second');
    const phone = randomPhone();
    await sendSms(pageAbout(first, phone));
    await sendSms(pageAbout(second, phone));
    const ambiguous = await postAsTwilio('/sms/twilio', smsFields(phone, '4'));
    expect(ambiguous.text).toContain('reply with the code, such as 4ab');
    expect(ambiguous.text).toContain(`4aa (${first.prefix_id})`);
    expect(await statusOf(first.id)).toBe('open');
    const resolved = await postAsTwilio('/sms/twilio', smsFields(phone, '6AA'));
    expect(resolved.text).toContain(`Alert #${first.tiny_id} resolved.`);
    expect(await statusOf(first.id)).toBe('resolved');
    expect(await statusOf(second.id)).toBe('open');
    expect((await postAsTwilio('/sms/twilio', smsFields(phone, '4zz'))).text).toContain('Code zz is not one this number was sent in the last day.');
    expect((await postAsTwilio('/sms/twilio', smsFields(phone, 'what?'))).text).toContain('Reply 4 to acknowledge or 6 to resolve');
  });

  it('acknowledges every alert of a bundle with one reply', async () => {
    const alerts = [await openAlert('One'), await openAlert('Two')];
    const phone = randomPhone();
    const messages = alerts.map((a) => pageAbout(a, phone));
    await sendSms(bundleOutgoing(messages[0]!, messages.map((m, i) => pendingOf(m, 'alert.open', i))));
    const reply = await postAsTwilio('/sms/twilio', smsFields(phone, '4'));
    expect(reply.text).toContain(`Alert #${alerts[0]!.tiny_id} acknowledged. Alert #${alerts[1]!.tiny_id} acknowledged.`);
    expect(await Promise.all(alerts.map((a) => statusOf(a.id)))).toEqual(['acknowledged', 'acknowledged']);
  });

  it('accepts a WhatsApp reply from the paged number', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await sendSms(pageAbout(alert, phone));
    const reply = await postAsTwilio('/sms/twilio', smsFields(`whatsapp:${phone}`, '4'));
    expect(reply.text).toContain(`Alert #${alert.tiny_id} acknowledged.`);
    const logs = (await account.api('GET', `/alerts/${alert.id}/logs?limit=100`)).body.data as { event: string; message: string }[];
    expect(logs.filter((l) => l.event === 'message_action').map((l) => l.message)).toEqual([`Acknowledged from whatsapp by account user ${person.id}.`]);
  });

  it('refuses a body that is not a form', async () => {
    const reply = await request('POST', '/sms/twilio', { body: { From: '+1', Body: '4' } });
    expect(reply.status).toBe(422);
    expect(errorMessages(reply)).toEqual(['Content-Type must be application/x-www-form-urlencoded']);
  });
});

describe('POST /voice/twilio/gather', () => {
  it('acknowledges with 4 on the call that paged the number, and refuses a changed code', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await placeCall(pageAbout(alert, phone, 'voice'));
    const code = new URL(/action="([^"]+)"/.exec(new URLSearchParams(twilio.requests[twilio.requests.length - 1]!.body).get('Twiml')!)![1]!.replace(/&amp;/g, '&')).searchParams.get('code');
    const fields = { AccountSid: TWILIO_SID, CallSid: `CA${newId()}`, From: '+14155550100', To: phone, Digits: '4', Direction: 'outbound-api' };
    // The signature covers the query: a request for another code with this signature is refused.
    const signedForOther = twilioSignature(inject('twilioAuthToken'), `${baseUrl()}/voice/twilio/gather?code=zz`, fields);
    expect((await postAsTwilio(`/voice/twilio/gather?code=${code}`, fields, signedForOther)).status).toBe(403);
    const reply = await postAsTwilio(`/voice/twilio/gather?code=${code}`, fields);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.text).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Say>Alert #${alert.tiny_id} acknowledged. Goodbye.</Say></Response>`);
    expect(await statusOf(alert.id)).toBe('acknowledged');
  });

  it('does nothing for another key or another number', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await placeCall(pageAbout(alert, phone, 'voice'));
    const base = { AccountSid: TWILIO_SID, CallSid: `CA${newId()}`, From: '+14155550100', Direction: 'outbound-api' };
    expect((await postAsTwilio('/voice/twilio/gather?code=aa', { ...base, To: phone, Digits: '9' })).text).toContain('That key does nothing.');
    expect((await postAsTwilio('/voice/twilio/gather?code=aa', { ...base, To: randomPhone(), Digits: '4' })).text).toContain('cannot act on the alert');
    expect(await statusOf(alert.id)).toBe('open');
  });
});

describe('End User Messaging inbound SMS (SNS)', () => {
  let eum: Stub;
  beforeAll(async () => {
    eum = await startEndUserMessagingStub();
    process.env.HARK_END_USER_MESSAGING_ENDPOINT = eum.url;
    reloadConfig();
  });
  afterAll(async () => {
    delete process.env.HARK_END_USER_MESSAGING_ENDPOINT;
    reloadConfig();
    await eum?.close();
  });

  const snsEvent = (message: unknown): SNSEvent => ({
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:eu-west-1:123456789012:hark-inbound-sms:sub',
        Sns: {
          Type: 'Notification',
          MessageId: newId(),
          TopicArn: 'arn:aws:sns:eu-west-1:123456789012:hark-inbound-sms',
          Subject: '',
          Message: typeof message === 'string' ? message : JSON.stringify(message),
          Timestamp: new Date().toISOString(),
          SignatureVersion: '1',
          Signature: '',
          SigningCertUrl: '',
          UnsubscribeUrl: '',
          MessageAttributes: {},
        },
      },
    ],
  });

  it('acknowledges the alert the number was paged about and texts the answer back from the number written to', async () => {
    const alert = await openAlert();
    const phone = randomPhone();
    await sendSms(pageAbout(alert, phone));
    await smsInbound(snsEvent({ originationNumber: phone, destinationNumber: '+12125550101', messageKeyword: '', messageBody: '4', inboundMessageId: newId(), previousPublishedMessageId: 'x' }));
    expect(await statusOf(alert.id)).toBe('acknowledged');
    const answer = JSON.parse(eum.requests[eum.requests.length - 1]!.body);
    expect(answer).toMatchObject({ DestinationPhoneNumber: phone, OriginationIdentity: '+12125550101', MessageBody: `Alert #${alert.tiny_id} acknowledged.` });
  });

  it('ignores messages that are not inbound SMS and numbers that hold no code', async () => {
    const before = eum.requests.length;
    await smsInbound(snsEvent('not json'));
    await smsInbound(snsEvent({ hello: 'world' }));
    await smsInbound(snsEvent({ originationNumber: randomPhone(), destinationNumber: '+12125550101', messageBody: '4', inboundMessageId: newId() }));
    expect(eum.requests.length).toBe(before);
  });
});
