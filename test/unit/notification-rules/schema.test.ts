import { describe, expect, it } from 'vitest';
import { validate } from '#lib/api-shapes/validate.ts';
import { notificationRuleCreate } from '#lib/notification-rules/schema.ts';
import { checkNotificationRules } from '#lib/notification-rules/service.ts';
import { messagesOf } from '../support.ts';

describe('notification rule parameters', () => {
  it('requires a name; enabled and rules are typed', () => {
    expect(messagesOf(() => validate(notificationRuleCreate, { name: '' }))).toEqual(["name can't be blank"]);
    expect(messagesOf(() => validate(notificationRuleCreate, { name: 'n', enabled: 1, rules: ['x'] }))).toEqual([
      'enabled must be true or false',
      'rules must be a string of YAML',
    ]);
  });
});

describe('checkNotificationRules', () => {
  it('accepts a blank document and a valid one', () => {
    expect(() => checkNotificationRules('')).not.toThrow();
    expect(() => checkNotificationRules('# nothing yet\n')).not.toThrow();
    expect(() => checkNotificationRules('rules:\n- match: {always: true}\n  actions: [{type: notify, channels: [push]}]\n')).not.toThrow();
  });

  it('refuses router actions and reports every problem by line', () => {
    expect(messagesOf(() => checkNotificationRules('rules:\n- match: {always: true}\n  actions:\n  - type: assign\n    receiver: usr_x\n'))).toEqual([
      'rules line 4: unknown action type "assign"',
    ]);
    const messages = messagesOf(() => checkNotificationRules('rules:\n- match: {always: true}\n  actions: [{type: notify, channels: [fax]}]\n- match: {}\n  actions: [{type: ignore}]\n'));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(/^rules line 3: /);
    expect(messages[1]).toMatch(/^rules line 4: match must not be empty/);
  });
});
