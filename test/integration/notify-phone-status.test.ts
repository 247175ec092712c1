// Twilio's delivery reports through the local gateway (docs/notifications.md, "Record states"): a message sent with
// a record reference carries a StatusCallback URL; Twilio's signed report on that URL moves the record sent →
// delivered or sent → failed with the error code, once; a forged, late or repeated report changes nothing wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parseEnvironment } from '#lib/config.ts';
import { ADAPTER_SERVICES } from '#lib/delivery/adapter-services.ts';
import { statusRefOf } from '#lib/delivery/status-callbacks.ts';
import type { AlertNotificationItem } from '#lib/alerts/items.ts';
import { getItem, putIfAbsent, updateIf } from '#lib/db/items.ts';
import { alertNotificationSk, alertPk } from '#lib/db/keys.ts';
import { newId } from '#lib/ids.ts';
import type { OutgoingMessage } from '#lib/channel-adapters/port.ts';
import { smsAdapter, voiceAdapter } from '#lib/channel-adapters/sms.ts';
import { twilioSignature } from '#lib/channel-adapters/twilio.ts';
import { addAccountUser, baseUrl, errorMessages, newAccount, request, useTestStack, type AccountUserRef, type TestAccount } from './helpers.ts';
import { formOf, randomPhone, startTwilioStub, twilioEnvironment, TWILIO_SID, type Stub } from './phone-stubs.ts';

let twilio: Stub;
let account: TestAccount;
let person: AccountUserRef;
let config: ReturnType<typeof parseEnvironment>;

beforeAll(async () => {
  useTestStack();
  twilio = await startTwilioStub();
  config = parseEnvironment(twilioEnvironment(twilio, { HARK_PUBLIC_URL: baseUrl() }));
  account = await newAccount('Phone status');
  person = await addAccountUser(account);
});

afterAll(async () => {
  await twilio?.close();
});

/**
 * A notification record of a fresh alert, queued for `channel`, and the message the sender would hand the adapter
 * for it (with the record's reference).
 */
async function queuedRecord(channel: 'sms' | 'voice') {
  const opened = await account.api('POST', '/alerts', { title: 'Disk full', urgency: 'high', destination_account_user_ids: [person.id] });
  expect(opened.status, opened.text).toBe(201);
  const alert = opened.body as { id: string; prefix_id: string };
  const id = newId();
  const key = { pk: alertPk(account.accountId, alert.id), sk: alertNotificationSk(id) };
  const item: AlertNotificationItem = {
    ...key,
    type: 'ALERT_NOTIFICATION',
    accountId: account.accountId,
    alertId: alert.id,
    id,
    account_user_id: person.id,
    channel,
    notification_type: 'alert.open',
    status: 'queued',
    outbox_id: null,
    reason: null,
    created_at: new Date().toISOString(),
    sent_at: null,
    layer: null,
    pass: null,
  };
  expect(await putIfAbsent(item)).toBe(true);
  const message: OutgoingMessage = {
    notificationId: id,
    accountId: account.accountId,
    channel,
    to: randomPhone(),
    accountUserId: person.id,
    subject: 'Disk full',
    text: '',
    actions: [],
    about: { ownerType: 'alert', ownerId: alert.id, prefixId: alert.prefix_id },
    statusRef: statusRefOf(key),
  };
  return { key, message };
}

/** Sends the message through the adapter and records it sent as the sender does; answers the StatusCallback URL. */
async function sendAndRecord(channel: 'sms' | 'voice'): Promise<{ key: { pk: string; sk: string }; sid: string; callbackUrl: string }> {
  const { key, message } = await queuedRecord(channel);
  const adapter = channel === 'sms' ? smsAdapter(config, ADAPTER_SERVICES)! : voiceAdapter(config, ADAPTER_SERVICES)!;
  const result = await adapter.send(message);
  if (result.status !== 'sent' || !result.providerMessageId) throw new Error(`not sent: ${JSON.stringify(result)}`);
  const callbackUrl = formOf(twilio.requests.at(-1)!).StatusCallback!;
  expect(
    await updateIf({
      Update: {
        Key: key,
        UpdateExpression: 'SET #status = :sent, provider = :provider, provider_message_id = :pmid, sent_at = :at',
        ConditionExpression: '#status = :queued',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':sent': 'sent', ':queued': 'queued', ':provider': 'twilio', ':pmid': result.providerMessageId, ':at': new Date().toISOString() },
      },
    }),
  ).toBe(true);
  return { key, sid: result.providerMessageId, callbackUrl };
}

/** Posts a report to the gateway as Twilio does: to the StatusCallback URL, signed over that full URL and the fields. */
function report(callbackUrl: string, fields: Record<string, string>, signature?: string) {
  const pathAndQuery = callbackUrl.slice(baseUrl().length);
  return request('POST', pathAndQuery, {
    rawBody: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature ?? twilioSignature(inject('twilioAuthToken'), callbackUrl, fields) },
  });
}

const messageReport = (sid: string, status: string, extra: Record<string, string> = {}) => ({ AccountSid: TWILIO_SID, MessageSid: sid, MessageStatus: status, ...extra });
const recordOf = (key: { pk: string; sk: string }) => getItem<AlertNotificationItem>(key, { consistent: true });

describe('POST /sms/twilio/status', () => {
  it('gives an SMS a StatusCallback naming its record, and a delivered report marks the record delivered once', async () => {
    const { key, sid, callbackUrl } = await sendAndRecord('sms');
    expect(callbackUrl).toMatch(new RegExp(`^${baseUrl().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/sms/twilio/status\\?ref=[A-Za-z0-9_-]+$`));
    // A step on the way changes nothing.
    expect((await report(callbackUrl, messageReport(sid, 'sent'))).status).toBe(200);
    expect((await recordOf(key))?.status).toBe('sent');
    const delivered = await report(callbackUrl, messageReport(sid, 'delivered'));
    expect(delivered.status, delivered.text).toBe(200);
    expect(delivered.text).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    const record = await recordOf(key);
    expect(record?.status).toBe('delivered');
    expect(record?.delivered_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // A late failure report after delivery, and a repeated delivery report, change nothing.
    expect((await report(callbackUrl, messageReport(sid, 'undelivered', { ErrorCode: '30003' }))).status).toBe(200);
    expect((await report(callbackUrl, messageReport(sid, 'delivered'))).status).toBe(200);
    expect(await recordOf(key)).toEqual(record);
    const listed = (await account.api('GET', `/alerts/${key.pk.split('#AL#')[1]}/notifications`)).body.data as { id: string; status: string }[];
    expect(listed.find((n) => n.id === record?.id)?.status).toBe('delivered');
  });

  it('marks the record failed with the error code on undelivered, and a later delivered report does not revive it', async () => {
    const { key, sid, callbackUrl } = await sendAndRecord('sms');
    expect((await report(callbackUrl, messageReport(sid, 'undelivered', { ErrorCode: '30003' }))).status).toBe(200);
    const record = await recordOf(key);
    expect(record).toMatchObject({ status: 'failed', error: 'Twilio reported the message undelivered (Twilio error 30003)', reason: 'Twilio reported the message undelivered (Twilio error 30003)' });
    expect((await report(callbackUrl, messageReport(sid, 'delivered'))).status).toBe(200);
    expect((await recordOf(key))?.status).toBe('failed');
  });

  it('marks a call delivered when it completed', async () => {
    const { key, sid, callbackUrl } = await sendAndRecord('voice');
    expect(callbackUrl).toContain('/sms/twilio/status?ref=');
    expect((await report(callbackUrl, { AccountSid: TWILIO_SID, CallSid: sid, CallStatus: 'completed' })).status).toBe(200);
    expect((await recordOf(key))?.status).toBe('delivered');
  });

  it('ignores a report whose sid is not the record provider id', async () => {
    const { key, callbackUrl } = await sendAndRecord('sms');
    expect((await report(callbackUrl, messageReport(`SM${'f'.repeat(32)}`, 'delivered'))).status).toBe(200);
    expect((await recordOf(key))?.status).toBe('sent');
  });

  it('refuses a forged or re-pointed report with 403 and changes nothing', async () => {
    const { key, sid, callbackUrl } = await sendAndRecord('sms');
    const fields = messageReport(sid, 'failed', { ErrorCode: '30008' });
    const forged = await report(callbackUrl, fields, twilioSignature('not-the-auth-token-0123456789', callbackUrl, fields));
    expect(forged.status).toBe(403);
    expect(errorMessages(forged)).toEqual(['X-Twilio-Signature does not match the request']);
    // Another record's reference under a signature of this URL: the query is signed too.
    const other = await sendAndRecord('sms');
    const moved = await report(other.callbackUrl, fields, twilioSignature(inject('twilioAuthToken'), callbackUrl, fields));
    expect(moved.status).toBe(403);
    expect((await recordOf(key))?.status).toBe('sent');
    expect((await recordOf(other.key))?.status).toBe('sent');
  });

  it('answers 422 naming the field for a report without a reference or a sid', async () => {
    const noRef = await report(`${baseUrl()}/sms/twilio/status`, messageReport('SM1', 'delivered'));
    expect(noRef.status).toBe(422);
    expect(errorMessages(noRef)).toEqual(['ref is missing from the query']);
    const badRef = await report(`${baseUrl()}/sms/twilio/status?ref=bm90LWEta2V5`, messageReport('SM1', 'delivered'));
    expect(badRef.status).toBe(422);
    expect(errorMessages(badRef)).toEqual(['ref is not a notification reference']);
    const { callbackUrl } = await sendAndRecord('sms');
    const noSid = await report(callbackUrl, { AccountSid: TWILIO_SID, MessageStatus: 'delivered' });
    expect(noSid.status).toBe(422);
    expect(errorMessages(noSid)).toEqual(['MessageSid or CallSid is missing']);
  });
});
