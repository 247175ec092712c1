import { describe, expect, it } from 'vitest';
import { BREAKER_FAILURES, breakerKey, heldReason, isProviderFailure, probeDelayMs } from '#lib/channel-adapters/breaker.ts';
import { smtpFailure } from '#lib/channel-adapters/email.ts';

describe('which SMTP failures are the server’s', () => {
  it('no reply, a 4xx before the message is named and 421 count toward the breaker', () => {
    expect(smtpFailure({ code: 'ESOCKET', command: 'CONN', message: 'connect ECONNREFUSED 127.0.0.1:25' })).toMatchObject({ retryable: true, scope: 'provider' });
    expect(smtpFailure({ code: 'ETIMEDOUT', message: 'Greeting never received' })).toMatchObject({ retryable: true, scope: 'provider' });
    expect(smtpFailure({ code: 'EPROTOCOL', command: 'CONN', responseCode: 450, message: 'Invalid greeting' })).toMatchObject({ retryable: true, scope: 'provider' });
    expect(smtpFailure({ command: 'RCPT TO', responseCode: 421, message: 'closing' })).toMatchObject({ retryable: true, scope: 'provider' });
  });

  it('a refusal of one recipient or one message is that message’s: 450 retried, 550 failed, neither counted', () => {
    const greylisted = smtpFailure({ command: 'RCPT TO', responseCode: 450, message: 'try later' });
    expect(greylisted).toMatchObject({ retryable: true });
    expect(isProviderFailure(greylisted)).toBe(false);
    const refused = smtpFailure({ command: 'RCPT TO', responseCode: 550, message: 'no such mailbox' });
    expect(refused).toMatchObject({ retryable: false });
    expect(isProviderFailure(refused)).toBe(false);
    expect(isProviderFailure(smtpFailure({ command: 'AUTH PLAIN', responseCode: 535, message: 'bad login' }))).toBe(false);
  });
});

describe('the breaker’s rules', () => {
  it('opens after a few failures in a row', () => {
    expect(BREAKER_FAILURES).toBe(1);
  });

  it('probes after 5 s, doubling up to 30 s, divided by the time scale', () => {
    expect([0, 1, 2, 3, 10].map((n) => probeDelayMs(n))).toEqual([5_000, 10_000, 20_000, 30_000, 30_000]);
    expect(probeDelayMs(0, 60)).toBe(84);
  });

  it('keys a provider by channel, provider and server, and words a held message', () => {
    expect(breakerKey({ channel: 'email', provider: 'smtp', endpoint: 'mail.example.com:587' })).toBe('email:smtp@mail.example.com:587');
    expect(breakerKey({ channel: 'sms', provider: 'twilio' })).toBe('sms:twilio');
    expect(heldReason('email', 'smtp mail.example.com:587', '2026-11-28T03:00:00.000Z', 'SMTP ESOCKET: refused')).toBe(
      'email held: provider down since 2026-11-28T03:00:00.000Z (smtp mail.example.com:587: SMTP ESOCKET: refused)',
    );
    expect(isProviderFailure({ status: 'sent', providerMessageId: null })).toBe(false);
  });
});
