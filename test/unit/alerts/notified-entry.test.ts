// The `notified` entry of a decided message, worded before anything is written (docs/alerts.md, "Steps that page many
// people at once": the step's budget counts its log exactly): the channels with an address, or why nobody is told.
import { describe, expect, it } from 'vitest';
import type { PersonContact } from '#lib/alerts/channels.ts';
import { notifiedEntry, type MessageDecision } from '#lib/alerts/message-units.ts';

const contact: PersonContact = {
  account_user_id: 'au1',
  notify_push: true,
  notify_email: true,
  notify_sms: true,
  notify_voice: false,
  emails: [{ email: 'ann@example.test', primary: true }],
  phones: [],
  rule: null,
};
const message = { account_user_id: 'au1', type: 'alert.open' as const, layer: 1, pass: 2, why: 'Layer 1 entered.' };
const where = { account_user_id: 'au1', layer: 1, pass: 2 };

describe('notifiedEntry', () => {
  it('names the channels that have an address, and how they were chosen', () => {
    const decision: MessageDecision = { message, kind: 'channels', contact, via: 'defaults', channels: ['push', 'email', 'sms'] };
    expect(notifiedEntry(decision, 'alert')).toEqual({ event: 'notified', message: 'Account user au1 is notified (alert.open) by push, email (their default channels).', ...where });
    // The writer passes the channels it queued: the same words.
    expect(notifiedEntry(decision, 'alert', ['push', 'email'])).toEqual(notifiedEntry(decision, 'alert'));
  });

  it('says why nobody is told: no address, no contact, a rule that ignores the alert', () => {
    const noAddress: MessageDecision = { message: { ...message, layer: null, pass: null }, kind: 'channels', contact, via: 'rule', channels: ['sms'] };
    expect(notifiedEntry(noAddress, 'alert')).toEqual({
      event: 'notified',
      message: 'Account user au1 could not be notified (alert.open): no channel of their notification rule has an address.',
      account_user_id: 'au1',
      layer: undefined,
      pass: undefined,
    });
    expect(notifiedEntry({ message, kind: 'no_contact', reason: 'the account user was removed' }, 'alert').message).toBe(
      'Account user au1 could not be notified (alert.open): the account user was removed.',
    );
    expect(notifiedEntry({ message, kind: 'ignored' }, 'broadcast').message).toBe('Account user au1 is not notified (alert.open): their notification rule ignores this broadcast.');
  });
});
