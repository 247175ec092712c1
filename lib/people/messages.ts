// The texts of the messages people get when they are added to an account. Pure: no I/O.
import { SIGN_IN_LINK_MINUTES } from '../limits.ts';
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
  /** Where people sign in (`<public URL>/sign-in`, the console); undefined when the public URL is not known. */
  signInUrl: string | undefined;
}

/** How to sign in: there are no passwords, Hark mails a one-time link (docs/console.md, "Sign-in"). */
const signInLines = (c: MessageContext) => [
  c.signInUrl ? `Sign in at ${c.signInUrl} with this email address (${c.to}).` : `Sign in to Hark's console with this email address (${c.to}).`,
  `Hark has no passwords: each time, it emails you a sign-in link that works once, for ${SIGN_IN_LINK_MINUTES} minutes.`,
];

const greeting = (name: string) => `Hello ${name},`;
const by = (inviter: string) => (inviter.trim() ? inviter.trim() : 'An administrator');

/** Welcome of a new person: how to sign in to the console. Nothing secret: the sign-in link is asked for each time. */
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
      ...signInLines(c),
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
      ...signInLines(c),
      'Then accept or decline the invitation on your Me page.',
      `Until you accept, ${c.accountName} sees only your name and this email address.`,
    ].join('\n'),
    user_id: c.userId,
    account_user_id: c.accountUserId,
    created_by_account_user_id: c.createdByAccountUserId,
  };
}
