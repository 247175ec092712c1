import { describe, expect, it } from 'vitest';
import { validate } from '#lib/api-shapes/validate.ts';
import { parseRouterRules } from '#lib/rule-engine/index.ts';
import { receiverKindOf, routerCreate, routerUpdate, rulesProblemMessage } from '#lib/routers/schema.ts';
import { ruleReceiversOf } from '#lib/routers/service.ts';
import { messagesOf } from '../support.ts';

describe('router parameters', () => {
  it('requires a name and types every field', () => {
    expect(messagesOf(() => validate(routerCreate, {}))).toEqual(['name is required']);
    expect(messagesOf(() => validate(routerCreate, { name: 'r', enabled: 'yes', rules: 5, default_receiver_team_id: 7 }))).toEqual([
      'enabled must be true or false',
      'rules must be a string of YAML',
      'default_receiver_team_id must be a string',
    ]);
  });

  it('reads null or blank receivers as none and null rules as no rules', () => {
    expect(validate(routerUpdate, { default_receiver_team_id: ' ', default_receiver_router_id: null, rules: null })).toEqual({
      default_receiver_team_id: null,
      default_receiver_router_id: null,
      rules: '',
    });
  });
});

describe('rules helpers', () => {
  it('knows which entity a receiver prefix id names', () => {
    expect(receiverKindOf('usr_abcdefghijkl')).toEqual({ type: 'ACCOUNT_USER', noun: 'account user' });
    expect(receiverKindOf('tem_ops')).toEqual({ type: 'TEAM', noun: 'team' });
    expect(receiverKindOf('rtr_x')).toEqual({ type: 'ROUTER', noun: 'router' });
    expect(receiverKindOf('stk_x')).toBeUndefined();
    expect(receiverKindOf('constructor_x')).toBeUndefined();
  });

  it('words problems with the field and the line', () => {
    const parsed = parseRouterRules('rules:\n- match: {always: true}\n  actions:\n  - type: asign\n');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map(rulesProblemMessage)).toEqual(['rules line 4: unknown action type "asign"']);
  });

  it('lists the receivers of stored rules, none when they no longer parse', () => {
    expect(ruleReceiversOf('rules:\n- match: {always: true}\n  actions: [{type: assign, receiver: [tem_a, usr_b]}, {type: aggregate, by: x, timeout: 5m, receiver: rtr_c}]\n')).toEqual([
      'tem_a',
      'usr_b',
      'rtr_c',
    ]);
    expect(ruleReceiversOf('')).toEqual([]);
    expect(ruleReceiversOf('rules: [')).toEqual([]);
  });
});
