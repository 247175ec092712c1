// The SMS, voice and WhatsApp adapters against local stand-ins that check what Twilio and AWS End User Messaging
// check, with their reply codes stored in DynamoDB Local; and a burst on one number going out as one bundled SMS
// through the throttle (docs/notifications.md, "SMS and voice", "WhatsApp", "The throttle").
import { ADAPTER_SERVICES } from '#lib/delivery/adapter-services.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnvironment, type HarkConfig } from '#lib/config.ts';
import { newId } from '#lib/ids.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { liveCodes } from '#lib/delivery/reply-codes.ts';
import { smsAdapter, voiceAdapter } from '#lib/channel-adapters/sms.ts';
import { pendingFor } from '#lib/delivery/throttle-store.ts';
import { sendThrottled } from '#lib/delivery/throttling.ts';
import { whatsappAdapter } from '#lib/channel-adapters/whatsapp.ts';
import { useTestStack } from './helpers.ts';
import {
  EUM_INVALID_NUMBER,
  EUM_THROTTLED_NUMBER,
  formOf,
  randomPhone,
  startEndUserMessagingStub,
  startTwilioStub,
  twilioEnvironment,
  TWILIO_INVALID_NUMBER,
  TWILIO_SID,
  TWILIO_TOKEN,
  TWILIO_UNAVAILABLE_NUMBER,
  type Stub,
} from './phone-stubs.ts';

let twilio: Stub;
let eum: Stub;
let twilioConfig: HarkConfig;
let eumConfig: HarkConfig;
const CONTENT_SID = `HX${'abcdef0123456789'.repeat(2)}`;

beforeAll(async () => {
  useTestStack();
  delete process.env.HARK_TIME_SCALE;
  [twilio, eum] = await Promise.all([startTwilioStub(), startEndUserMessagingStub()]);
  twilioConfig = parseEnvironment(
    twilioEnvironment(twilio, { HARK_TWILIO_WHATSAPP_FROM: '+14155238886', HARK_TWILIO_WHATSAPP_CONTENT_SID: CONTENT_SID, HARK_PUBLIC_URL: 'https://hark.example.com/' }),
  );
  eumConfig = parseEnvironment({
    HARK_SMS_PROVIDER: 'end-user-messaging',
    HARK_SMS_ORIGINATION_IDENTITY: 'pool-0123456789abcdef',
    HARK_SMS_CONFIGURATION_SET: 'hark-alerts',
    HARK_END_USER_MESSAGING_ENDPOINT: eum.url,
    AWS_REGION: 'eu-west-1',
  });
});

afterAll(async () => {
  await Promise.all([twilio?.close(), eum?.close()]);
});

const accountId = `acct-${newId()}`;
function page(to: string, n = 1, channel: OutgoingMessage['channel'] = 'sms'): OutgoingMessage {
  return {
    notificationId: newId(),
    accountId,
    channel,
    to,
    accountUserId: 'au-1',
    subject: `Disk full on db-${n}`,
    text: 'Team Payments, layer 1',
    actions: [],
    about: { ownerType: 'alert', ownerId: `alert-${n}`, prefixId: `alt_${n}` },
  };
}
const last = (stub: Stub) => stub.requests[stub.requests.length - 1]!;

describe('SMS through Twilio', () => {
  it('posts the form with Basic auth, the message names the alert and asks for a bare 4 when it is the number’s only code', async () => {
    const to = randomPhone();
    const result = await smsAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(to));
    expect(result).toEqual({ status: 'sent', providerMessageId: expect.stringMatching(/^SM/) });
    const request = last(twilio);
    expect(request.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`);
    expect(formOf(request)).toEqual({ To: to, From: '+14155550100', Body: 'alt_1 Disk full on db-1\nTeam Payments, layer 1\nReply 4 to acknowledge, 6 to resolve.' });
    expect((await liveCodes(to)).map((c) => [c.code, c.owners.map((o) => o.ownerId), c.accountUserId])).toEqual([['aa', ['alert-1'], 'au-1']]);
  });

  it('asks for the code once the number holds another live one', async () => {
    const to = randomPhone();
    await smsAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(to, 1));
    await smsAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(to, 2));
    expect(formOf(last(twilio)).Body).toBe('alt_2 Disk full on db-2\nTeam Payments, layer 1\nReply 4ab to acknowledge, 6ab to resolve.');
  });

  it('reports Twilio’s refusals: an invalid number is final, an outage is retried', async () => {
    expect(await smsAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(TWILIO_INVALID_NUMBER))).toEqual({
      status: 'failed',
      retryable: false,
      error: `Twilio answered 400: The 'To' number ${TWILIO_INVALID_NUMBER} is not a valid phone number. (Twilio error 21211)`,
    });
    expect(await smsAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(TWILIO_UNAVAILABLE_NUMBER))).toMatchObject({ status: 'failed', retryable: true });
    const wrongToken = parseEnvironment(twilioEnvironment(twilio, { HARK_TWILIO_AUTH_TOKEN: 'not-the-token-0123456789' }));
    expect(await smsAdapter(wrongToken, ADAPTER_SERVICES)!.send(page(randomPhone()))).toMatchObject({ status: 'failed', retryable: false, error: 'Twilio answered 401: Authenticate (Twilio error 20003)' });
    const unreachable = parseEnvironment(twilioEnvironment({ url: 'http://127.0.0.1:1' }));
    expect(await smsAdapter(unreachable, ADAPTER_SERVICES)!.send(page(randomPhone()))).toMatchObject({ status: 'failed', retryable: true });
  });

  it('uses a messaging service when HARK_TWILIO_FROM is one', async () => {
    const service = `MG${'0123456789abcdef'.repeat(2)}`;
    const config = parseEnvironment(twilioEnvironment(twilio, { HARK_TWILIO_FROM: service }));
    await smsAdapter(config, ADAPTER_SERVICES)!.send(page(randomPhone()));
    expect(formOf(last(twilio)).MessagingServiceSid).toBe(service);
    expect(formOf(last(twilio)).From).toBeUndefined();
    // A messaging service cannot place calls.
    expect(voiceAdapter(config, ADAPTER_SERVICES)).toBeUndefined();
  });
});

describe('voice through Twilio', () => {
  it('places a call whose TwiML reads the alert inside a one-digit Gather posting to HARK_PUBLIC_URL with the code', async () => {
    const to = randomPhone();
    const result = await voiceAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(to, 7, 'voice'));
    expect(result).toEqual({ status: 'sent', providerMessageId: expect.stringMatching(/^CA/) });
    const request = last(twilio);
    expect(request.path).toBe(`/2010-04-01/Accounts/${TWILIO_SID}/Calls.json`);
    const form = formOf(request);
    expect(form.To).toBe(to);
    expect(form.From).toBe('+14155550100');
    expect(form.Twiml).toContain('<Gather numDigits="1" timeout="10" method="POST" action="https://hark.example.com/voice/twilio/gather?code=aa">');
    expect(form.Twiml).toContain('<Say>This is Hark. Disk full on db-7. Team Payments, layer 1 Press 4 to acknowledge, 6 to resolve.</Say>');
    expect((await liveCodes(to)).map((c) => c.channel)).toEqual(['voice']);
  });

  it('reads the alert without key presses when there is no public URL to post them to', async () => {
    const config = parseEnvironment(twilioEnvironment(twilio));
    await voiceAdapter(config, ADAPTER_SERVICES)!.send(page(randomPhone(), 1, 'voice'));
    expect(formOf(last(twilio)).Twiml).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Say>This is Hark. Disk full on db-1. Team Payments, layer 1</Say></Response>');
  });
});

describe('WhatsApp through Twilio', () => {
  it('sends the approved content template with the alert, its summary and the reply instruction', async () => {
    const to = randomPhone();
    const result = await whatsappAdapter(twilioConfig, ADAPTER_SERVICES)!.send(page(to, 3, 'whatsapp'));
    expect(result).toMatchObject({ status: 'sent' });
    const form = formOf(last(twilio));
    expect(form).toEqual({
      To: `whatsapp:${to}`,
      From: 'whatsapp:+14155238886',
      ContentSid: CONTENT_SID,
      ContentVariables: JSON.stringify({ '1': 'alt_3', '2': 'Disk full on db-3 — Team Payments, layer 1', '3': 'Reply 4 to acknowledge, 6 to resolve' }),
    });
  });

  it('is not configured without a sender and a template', () => {
    expect(whatsappAdapter(parseEnvironment({ HARK_TWILIO_ACCOUNT_SID: TWILIO_SID, HARK_TWILIO_AUTH_TOKEN: TWILIO_TOKEN }), ADAPTER_SERVICES)).toBeUndefined();
  });
});

describe('AWS End User Messaging', () => {
  it('sends SendTextMessage signed with SigV4 through the AWS JSON protocol', async () => {
    const to = randomPhone();
    const result = await smsAdapter(eumConfig, ADAPTER_SERVICES)!.send(page(to));
    expect(result).toEqual({ status: 'sent', providerMessageId: expect.stringMatching(/^eum-/) });
    const request = last(eum);
    expect(request.headers['x-amz-target']).toBe('PinpointSMSVoiceV2.SendTextMessage');
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/eu-west-1\/sms-voice\/aws4_request/);
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      DestinationPhoneNumber: to,
      OriginationIdentity: 'pool-0123456789abcdef',
      MessageBody: 'alt_1 Disk full on db-1\nTeam Payments, layer 1\nReply 4 to acknowledge, 6 to resolve.',
      MessageType: 'TRANSACTIONAL',
      ConfigurationSetName: 'hark-alerts',
      TimeToLive: 3600,
    });
    expect(Object.values(body.Context)).toHaveLength(1);
  });

  it('sends SendVoiceMessage as one-way speech', async () => {
    const to = randomPhone();
    expect(await voiceAdapter(eumConfig, ADAPTER_SERVICES)!.send(page(to, 2, 'voice'))).toMatchObject({ status: 'sent' });
    const request = last(eum);
    expect(request.headers['x-amz-target']).toBe('PinpointSMSVoiceV2.SendVoiceMessage');
    expect(JSON.parse(request.body)).toMatchObject({
      DestinationPhoneNumber: to,
      OriginationIdentity: 'pool-0123456789abcdef',
      MessageBody: 'This is Hark. Disk full on db-2. Team Payments, layer 1',
      MessageBodyTextType: 'TEXT',
    });
  });

  it('reports a validation error as final and throttling as worth retrying', async () => {
    expect(await smsAdapter(eumConfig, ADAPTER_SERVICES)!.send(page(EUM_INVALID_NUMBER))).toEqual({
      status: 'failed',
      retryable: false,
      error: 'End User Messaging refused: ValidationException: Invalid destination phone number',
    });
    expect(await smsAdapter(eumConfig, ADAPTER_SERVICES)!.send(page(EUM_THROTTLED_NUMBER))).toMatchObject({ status: 'failed', retryable: true });
  });
});

describe('configuration', () => {
  it('builds no SMS or voice adapter without a provider or its settings', () => {
    expect(smsAdapter(parseEnvironment({}), ADAPTER_SERVICES)).toBeUndefined();
    expect(voiceAdapter(parseEnvironment({}), ADAPTER_SERVICES)).toBeUndefined();
    expect(smsAdapter(parseEnvironment({ HARK_SMS_PROVIDER: 'twilio', HARK_TWILIO_ACCOUNT_SID: TWILIO_SID }), ADAPTER_SERVICES)).toBeUndefined();
    expect(smsAdapter(parseEnvironment({ HARK_SMS_PROVIDER: 'end-user-messaging' }), ADAPTER_SERVICES)).toBeUndefined();
    expect(smsAdapter(twilioConfig, ADAPTER_SERVICES)!.provider).toBe('twilio');
    expect(smsAdapter(eumConfig, ADAPTER_SERVICES)!.provider).toBe('end-user-messaging');
  });
});

describe('a burst on one number', () => {
  it('goes out as the first message, then one bundled SMS once the slot opens', async () => {
    const to = randomPhone();
    const contact = { accountId, address: to };
    const T0 = Date.UTC(2026, 10, 23, 4, 0, 0);
    const burst = [1, 2, 3, 4].map((n) => page(to, n));
    const sms = smsAdapter(twilioConfig, ADAPTER_SERVICES)!;
    const before = twilio.requests.length;
    // The worker sends each message of the burst as it comes, a millisecond apart.
    const outcomes = [];
    for (const [i, message] of burst.entries()) outcomes.push(await sendThrottled(sms, message, 'alert.open', T0 + i));
    expect(outcomes.map((o) => o.outcome)).toEqual(['sent', 'held', 'held', 'held']);
    expect(outcomes[1]).toEqual({ outcome: 'held', retryAt: T0 + 60_000 });
    // The first held message's timer fires when the slot opens: everything waiting goes as one message.
    const bundled = await sendThrottled(sms, burst[1]!, 'alert.open', T0 + 60_000);
    expect(bundled).toMatchObject({ outcome: 'sent', result: { status: 'sent' } });
    expect(bundled.outcome === 'sent' && bundled.bundled.map((b) => [b.notificationId, b.ownerId])).toEqual([
      [burst[2]!.notificationId, 'alert-3'],
      [burst[3]!.notificationId, 'alert-4'],
    ]);
    const sent = twilio.requests.slice(before).map((r) => formOf(r).Body);
    expect(sent).toEqual([
      'alt_1 Disk full on db-1\nTeam Payments, layer 1\nReply 4 to acknowledge, 6 to resolve.',
      '3 alerts unacknowledged: alt_2 Disk full on db-2; alt_3 Disk full on db-3; alt_4 Disk full on db-4; Reply 4ab to acknowledge all, 6ab to resolve all',
    ]);
    expect(await pendingFor(contact, 'sms')).toEqual([]);
    const codes = await liveCodes(to);
    expect(codes[0]!.owners.map((o) => o.ownerId)).toEqual(['alert-2', 'alert-3', 'alert-4']);
    // The other held messages' timers find nothing left to bundle; a later page waits for the next slot.
    expect(await sendThrottled(sms, page(to, 5), 'alert.open', T0 + 60_001)).toEqual({ outcome: 'held', retryAt: T0 + 120_000 });
  });

  it('keeps a bundle’s messages waiting when its send fails', async () => {
    const contact = { accountId, address: TWILIO_UNAVAILABLE_NUMBER };
    const sms = smsAdapter(twilioConfig, ADAPTER_SERVICES)!;
    const T0 = Date.UTC(2026, 10, 23, 5, 0, 0) + Math.floor(Math.random() * 1e9);
    const [a, b] = [page(TWILIO_UNAVAILABLE_NUMBER, 8), page(TWILIO_UNAVAILABLE_NUMBER, 9)];
    await sendThrottled(sms, a, 'alert.open', T0);
    expect(await sendThrottled(sms, b, 'alert.open', T0 + 1)).toMatchObject({ outcome: 'held' });
    const failed = await sendThrottled(sms, b, 'alert.open', T0 + 60_001);
    expect(failed).toMatchObject({ outcome: 'sent', result: { status: 'failed', retryable: true }, bundled: [] });
    expect((await pendingFor(contact, 'sms')).map((p) => p.notificationId)).toEqual([b.notificationId]);
  });

  it('sends push at once, whatever came before', async () => {
    const sms = smsAdapter(twilioConfig, ADAPTER_SERVICES)!;
    const push = { ...sms, channel: 'push' as const };
    const message = { ...page(randomPhone(), 1), channel: 'push' as const };
    expect(await sendThrottled(push, message, 'alert.open', 0)).toMatchObject({ outcome: 'sent', bundled: [] });
    expect(await sendThrottled(push, message, 'alert.open', 0)).toMatchObject({ outcome: 'sent', bundled: [] });
  });
});
