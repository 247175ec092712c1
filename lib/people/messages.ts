// The texts of the messages people get when they are added to an account. Pure: no I/O.
import type { OutboxDraft } from '../outbox/outbox.ts';

export interface MessageContext {
  accountName: string;
  /** Display name of whoever added the person (the API caller). */
  inviterName: string;
  recipientName: string;
  to: string;
  userId: string;
  accountUserId: string;
  createdByAccountUserId: string;
}

const greeting = (name: string) => `Hello ${name},`;
const by = (inviter: string) => (inviter.trim() ? inviter.trim() : 'An administrator');

/**
 * Credentials of a new person. The password is the sealed `{{password}}` placeholder: the listable outbox
 * record never holds it (lib/outbox/outbox.ts).
 */
export function credentialsMessage(c: MessageContext): OutboxDraft {
  return {
    channel: 'email',
    to: c.to,
    template: 'user_credentials',
    subject: `Your Hark login for ${c.accountName}`,
    body: [
      greeting(c.recipientName),
      '',
      `${by(c.inviterName)} added you to ${c.accountName} on Hark, the alerting and on-call service.`,
      '',
      'Sign in with:',
      `  Email: ${c.to}`,
      '  Password: {{password}}',
      '',
      'At your first sign-in you will confirm your phone number; please choose a new password then too.',
    ].join('\n'),
    user_id: c.userId,
    account_user_id: c.accountUserId,
    created_by_account_user_id: c.createdByAccountUserId,
  };
}

/** Invitation of a person who already has a Hark login: they accept or decline after signing in. */
export function invitationMessage(c: MessageContext): OutboxDraft {
  return {
    channel: 'email',
    to: c.to,
    template: 'account_invitation',
    subject: `${by(c.inviterName)} invited you to ${c.accountName} on Hark`,
    body: [
      greeting(c.recipientName),
      '',
      `${by(c.inviterName)} invited you to join ${c.accountName} on Hark, the alerting and on-call service.`,
      '',
      'Sign in with your existing Hark login to accept or decline the invitation.',
      `Until you accept, ${c.accountName} sees only your name and this email address.`,
    ].join('\n'),
    user_id: c.userId,
    account_user_id: c.accountUserId,
    created_by_account_user_id: c.createdByAccountUserId,
  };
}
