// Twilio's delivery reports read as record changes, and the record reference a message carries to its callback
// (docs/notifications.md, "Record states").
import { describe, expect, it } from 'vitest';
import { recordKeyOfStatusRef, statusRefOf } from '#lib/delivery/status-callbacks.ts';
import { statusCallbackField, twilioStatusOf } from '#lib/channel-adapters/twilio.ts';

describe('twilioStatusOf', () => {
  it('reads delivered and read messages as delivered, failed and undelivered as failed with the error code', () => {
    expect(twilioStatusOf({ MessageSid: 'SM1', MessageStatus: 'delivered' })).toEqual({ sid: 'SM1', status: { kind: 'delivered' } });
    expect(twilioStatusOf({ MessageSid: 'SM1', MessageStatus: 'read' }).status).toEqual({ kind: 'delivered' });
    expect(twilioStatusOf({ MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30003' }).status).toEqual({ kind: 'failed', error: 'Twilio reported the message undelivered (Twilio error 30003)' });
    expect(twilioStatusOf({ MessageSid: 'SM1', MessageStatus: 'failed' }).status).toEqual({ kind: 'failed', error: 'Twilio reported the message failed' });
    for (const step of ['queued', 'sending', 'sent', 'accepted', '']) expect(twilioStatusOf({ MessageSid: 'SM1', MessageStatus: step }).status).toEqual({ kind: 'pending' });
  });

  it('reads a completed call as delivered and busy, no-answer, failed or canceled as failed', () => {
    expect(twilioStatusOf({ CallSid: 'CA1', CallStatus: 'completed' })).toEqual({ sid: 'CA1', status: { kind: 'delivered' } });
    for (const status of ['busy', 'no-answer', 'failed', 'canceled']) expect(twilioStatusOf({ CallSid: 'CA1', CallStatus: status }).status).toEqual({ kind: 'failed', error: `Twilio reported the call ${status}` });
    expect(twilioStatusOf({ CallSid: 'CA1', CallStatus: 'ringing' }).status).toEqual({ kind: 'pending' });
  });

  it('has no sid when the form names none', () => {
    expect(twilioStatusOf({ MessageStatus: 'delivered' }).sid).toBeUndefined();
  });
});

describe('status references', () => {
  it('round-trips a record key through a URL-safe reference and refuses anything else', () => {
    const key = { pk: 'A#acc#AL#alert', sk: 'NOTIF#01J' };
    const ref = statusRefOf(key);
    expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(recordKeyOfStatusRef(ref)).toEqual(key);
    for (const bad of ['', 'not base64!', Buffer.from('"x"').toString('base64url'), Buffer.from('["a"]').toString('base64url'), Buffer.from('["a",""]').toString('base64url')]) {
      expect(recordKeyOfStatusRef(bad)).toBeUndefined();
    }
  });

  it('puts the callback on the public URL only when there is one and a reference', () => {
    expect(statusCallbackField('https://hark.example.com', 'abc')).toEqual({ StatusCallback: 'https://hark.example.com/sms/twilio/status?ref=abc' });
    expect(statusCallbackField(undefined, 'abc')).toEqual({});
    expect(statusCallbackField('https://hark.example.com', undefined)).toEqual({});
  });
});
