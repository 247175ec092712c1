// The phone channels' pure parts (docs/notifications.md, "SMS and voice", "WhatsApp", "Inbound replies"): Twilio's
// request signature, reply parsing and codes, and the texts an SMS, a call and a WhatsApp template carry.
import { describe, expect, it } from 'vitest';
import { parseInboundTextMessage } from '#lib/channel-adapters/end-user-messaging.ts';
import { codeOf, parseReply } from '#lib/delivery/reply-codes.ts';
import { callTwiml, cut, ownersOf, replyInstruction, smsText, speechOf } from '#lib/channel-adapters/sms.ts';
import { bundleActions, bundleOutgoing } from '#lib/delivery/throttle-store.ts';
import type { PendingMessage } from '#lib/channel-adapters/throttle.ts';
import { twilioSignature, twimlReply, verifyTwilioSignature } from '#lib/channel-adapters/twilio.ts';
import { templateVariables } from '#lib/channel-adapters/whatsapp.ts';
import { outgoingMessage } from '../../support/outgoing-message.ts';

describe('Twilio request signature', () => {
  // The example of Twilio's security documentation: auth token 12345.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };

  it('is HMAC-SHA1 of the URL and the sorted parameters, base64', () => {
    expect(twilioSignature('12345', url, params)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it('accepts the right signature and refuses a changed parameter, URL, token or header', () => {
    expect(verifyTwilioSignature('12345', url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
    expect(verifyTwilioSignature('12345', url, { ...params, Digits: '4' }, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(verifyTwilioSignature('12345', `${url}&x=1`, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(verifyTwilioSignature('54321', url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
    expect(verifyTwilioSignature('12345', url, params, undefined)).toBe(false);
    expect(verifyTwilioSignature('12345', url, params, 'short')).toBe(false);
  });

  it('signs repeated parameters value by value in sorted order', () => {
    expect(twilioSignature('t', 'https://h/p', { A: ['2', '1'] })).toBe(twilioSignature('t', 'https://h/p', { A: ['1', '2'] }));
  });
});

describe('replies', () => {
  it('reads 4 and 6, with or without a code, ignoring spaces and case', () => {
    expect(parseReply('4')).toEqual({ ok: true, action: 'acknowledge', code: undefined });
    expect(parseReply(' 6 ')).toEqual({ ok: true, action: 'resolve', code: undefined });
    expect(parseReply('4ab')).toEqual({ ok: true, action: 'acknowledge', code: 'ab' });
    expect(parseReply('6 AB.')).toEqual({ ok: true, action: 'resolve', code: 'ab' });
  });

  it('treats anything else as no command', () => {
    for (const body of ['', '5', '44', '4abc', 'ack', 'STOP', '4 a', 'a4']) expect(parseReply(body)).toEqual({ ok: false });
  });

  it('hands out two-letter codes in turn, wrapping after zz', () => {
    expect([1, 2, 26, 27, 676, 677].map(codeOf)).toEqual(['aa', 'ab', 'az', 'ba', 'zz', 'aa']);
  });

  it('asks for bare digits only when the code is the number’s only live one', () => {
    expect(replyInstruction('ab', true, 1)).toBe('Reply 4 to acknowledge, 6 to resolve');
    expect(replyInstruction('ab', false, 1)).toBe('Reply 4ab to acknowledge, 6ab to resolve');
    expect(replyInstruction('ab', false, 3)).toBe('Reply 4ab to acknowledge all, 6ab to resolve all');
    expect(replyInstruction('ab', true, 1, 'press')).toBe('Press 4 to acknowledge, 6 to resolve');
  });
});

const message = outgoingMessage({
  notificationId: 'n1',
  accountId: 'acc',
  channel: 'sms',
  to: '+442079460958',
  accountUserId: 'au1',
  subject: 'Disk full on db-1',
  text: 'Team Payments, layer 1',
  about: { ownerType: 'alert', ownerId: 'A1', prefixId: 'alt_A1' },
});
const pending = (n: number): PendingMessage => ({
  notificationId: `n${n}`,
  accountUserId: 'au1',
  ownerType: 'alert',
  ownerId: `A${n}`,
  prefixId: `alt_A${n}`,
  subject: `Alert ${n}`,
  notificationType: 'alert.open',
  heldAt: n,
});

describe('SMS text', () => {
  it('names the alert, its text and ends with the instruction', () => {
    expect(smsText(message, 'Reply 4 to acknowledge, 6 to resolve')).toBe('alt_A1 Disk full on db-1\nTeam Payments, layer 1\nReply 4 to acknowledge, 6 to resolve.');
  });

  it('cuts a long text to 480 characters and keeps the instruction', () => {
    const text = smsText({ ...message, text: 'x'.repeat(2000) }, 'Reply 4ab to acknowledge, 6ab to resolve');
    expect([...text]).toHaveLength(480);
    expect(text.endsWith('…\nReply 4ab to acknowledge, 6ab to resolve.')).toBe(true);
  });

  it('rebuilds a bundle with the acknowledge-all instruction and one code for its alerts', () => {
    const bundle = bundleOutgoing(message, [pending(1), pending(2), pending(3)]);
    expect(ownersOf(bundle).map((o) => o.ownerId)).toEqual(['A1', 'A2', 'A3']);
    expect(smsText(bundle, replyInstruction('ab', true, 3))).toBe('3 alerts unacknowledged: alt_A1 Alert 1; alt_A2 Alert 2; alt_A3 Alert 3; Reply 4 to acknowledge all, 6 to resolve all');
  });

  it('issues no code for a broadcast', () => {
    expect(ownersOf({ ...message, about: { ownerType: 'broadcast', ownerId: 'B1', prefixId: 'brd_B1' } })).toEqual([]);
  });

  it('cuts by characters, not bytes', () => {
    expect(cut('ééééé', 3)).toBe('éé…');
    expect(cut('abc', 3)).toBe('abc');
  });
});

describe('voice', () => {
  it('reads the alert twice inside a one-digit Gather posting to the code’s URL, XML-escaped', () => {
    const speech = speechOf({ ...message, subject: 'CPU <90%> & rising' }, 'Press 4 to acknowledge, 6 to resolve');
    expect(speech).toBe('This is Hark. CPU <90%> & rising. Team Payments, layer 1 Press 4 to acknowledge, 6 to resolve.');
    const twiml = callTwiml(speech, 'https://hark.example.com/voice/twilio/gather?code=ab&x=1');
    expect(twiml).toContain('<Gather numDigits="1" timeout="10" method="POST" action="https://hark.example.com/voice/twilio/gather?code=ab&amp;x=1">');
    expect(twiml.match(/<Say>This is Hark\. CPU &lt;90%&gt; &amp; rising\./g)).toHaveLength(2);
    expect(twiml).toContain('</Gather><Say>No key was pressed. Goodbye.</Say></Response>');
  });

  it('answers with TwiML', () => {
    expect(twimlReply('message', 'Alert #3 acknowledged.')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>Alert #3 acknowledged.</Message></Response>');
    expect(twimlReply('say', undefined)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
  });
});

describe('WhatsApp template variables', () => {
  it('fills the alert, what it is about and the reply instruction', () => {
    expect(templateVariables(message, 'Reply 4 to acknowledge, 6 to resolve')).toEqual({
      '1': 'alt_A1',
      '2': 'Disk full on db-1 — Team Payments, layer 1',
      '3': 'Reply 4 to acknowledge, 6 to resolve',
    });
  });

  it('names a bundle by its count', () => {
    const variables = templateVariables(bundleOutgoing(message, [pending(1), pending(2)]), 'x');
    expect(variables['1']).toBe('2 alerts unacknowledged');
  });
});

describe('End User Messaging inbound SMS', () => {
  it('reads the fields Hark needs from the two-way SNS message', () => {
    const message = { originationNumber: '+14255550182', destinationNumber: '+12125550101', messageKeyword: 'JOIN', messageBody: '4ab', inboundMessageId: 'cae173d2', previousPublishedMessageId: 'w' };
    expect(parseInboundTextMessage(JSON.stringify(message))).toEqual({ originationNumber: '+14255550182', destinationNumber: '+12125550101', messageBody: '4ab', inboundMessageId: 'cae173d2' });
  });

  it('refuses anything else', () => {
    for (const text of ['', 'null', '[]', '{"originationNumber":"12345","destinationNumber":"+1","messageBody":"4","inboundMessageId":"x"}', '{"originationNumber":"+14255550182"}']) {
      expect(parseInboundTextMessage(text)).toBeUndefined();
    }
  });
});

describe('bundle links', () => {
  it('labels each bundled alert’s links with its alert, each alert once', () => {
    const withLinks = (n: number): PendingMessage => ({ ...pending(n), actions: [{ action: 'acknowledge', label: 'Acknowledge', url: `https://h/actions/t${n}` }] });
    expect(bundleActions([withLinks(1), withLinks(2), { ...withLinks(1), notificationId: 'n9' }, pending(3)])).toEqual([
      { action: 'acknowledge', label: 'Acknowledge alt_A1', url: 'https://h/actions/t1' },
      { action: 'acknowledge', label: 'Acknowledge alt_A2', url: 'https://h/actions/t2' },
    ]);
  });
});
