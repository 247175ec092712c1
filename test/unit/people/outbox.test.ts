import { describe, expect, it } from 'vitest';
import { fillSealed, placeholdersOf } from '#lib/outbox/outbox.ts';
import { credentialsMessage, invitationMessage } from '#lib/people/messages.ts';

const context = {
  accountName: 'Acme',
  inviterName: 'Grace',
  recipientName: 'Ada',
  to: 'ada@x.test',
  userId: 'u1',
  accountUserId: 'au1',
  createdByAccountUserId: 'au0',
  signInUrl: 'https://hark.example.com/sign-in' as string | undefined,
};

describe('sealed placeholders', () => {
  it('lists the placeholders of a body once each', () => {
    expect(placeholdersOf('a {{password}} b {{code}} {{password}}')).toEqual(['password', 'code']);
    expect(placeholdersOf('no secrets')).toEqual([]);
  });

  it('fills known placeholders only', () => {
    expect(fillSealed('Password: {{password}} {{other}}', { password: 'p$1{{x}}' })).toBe('Password: p$1{{x}} {{other}}');
  });
});

describe('people messages', () => {
  it('the welcome message leads to the console sign-in and promises no password', () => {
    const message = credentialsMessage(context);
    expect(message).toMatchObject({ channel: 'email', to: 'ada@x.test', template: 'user_credentials', subject: 'Your Hark login for Acme', user_id: 'u1' });
    expect(placeholdersOf(message.body)).toEqual([]);
    expect(message.body).toContain('Grace added you to Acme');
    expect(message.body).toContain('Sign in at https://hark.example.com/sign-in with this email address (ada@x.test).');
    expect(message.body).not.toMatch(/password:/i);
    expect(credentialsMessage({ ...context, signInUrl: undefined }).body).toContain('Sign in to Hark’s console'.replace('’', "'"));
  });

  it('the invitation asks the person to accept or decline and carries no secret', () => {
    const message = invitationMessage({ ...context, inviterName: '' });
    expect(message).toMatchObject({ template: 'account_invitation', subject: 'An administrator invited you to Acme on Hark', account_user_id: 'au1' });
    expect(placeholdersOf(message.body)).toEqual([]);
    expect(message.body).toContain('accept or decline');
    expect(message.body).toContain('https://hark.example.com/sign-in');
  });
});
