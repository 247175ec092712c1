import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { EntityItem } from '#lib/db/repository.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { hashSecret } from '#lib/ids.ts';
import { ingestMessageOf } from '#lib/ingest/intake.ts';
import { lookupItemsOf } from '#lib/integrations/lookup.ts';
import { INTEGRATION_TYPE_IDS } from '#lib/monitor-readers/index.ts';
import { integrationCreate, integrationTypeOf, integrationUpdate, optionsChangeOf, type IntegrationData } from '#lib/integrations/schema.ts';
import { renderIntegration } from '#lib/integrations/service.ts';
import { messagesOf } from '../support.ts';

const TOKEN = 'a-long-random-token-0123456789';

describe('integration parameters', () => {
  it('requires a name and checks urgency, token and wrapper key', () => {
    expect(messagesOf(() => validate(integrationCreate, {}))).toEqual(['name is required']);
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', urgency: 'urgent' }))).toEqual(['urgency must be one of low, medium, high, critical']);
    expect(validate(integrationCreate, { name: 'x', urgency: 'HIGH' })).toMatchObject({ urgency: 'high' });
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', options: { token: 'short' } }))).toEqual([
      'options.token must be 16 to 256 visible ASCII characters without spaces',
    ]);
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', option_token: 'has spaces in the token' }))).toEqual([
      'option_token must be 16 to 256 visible ASCII characters without spaces',
    ]);
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', options: { wrapper_key: 'data..attributes' } }))).toEqual([
      'options.wrapper_key must be a JMESPath expression such as data or data.attributes (Syntax error, unexpected token: .(Dot))',
    ]);
    // Any JMESPath expression is a wrapper key, including one that builds the fields from another shape.
    expect(validate(integrationCreate, { name: 'x', options: { wrapper_key: "data[0].{Id: key, event_type: 'create'}" } })).toMatchObject({
      options: { wrapper_key: "data[0].{Id: key, event_type: 'create'}" },
    });
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', options: 'token' }))).toEqual(['options must be an object']);
    expect(messagesOf(() => validate(integrationCreate, { name: 'x', team_ids: 'tem_x' }))).toEqual(['team_ids must be a list of ids']);
  });

  it('lets PUT omit everything', () => {
    expect(validate(integrationUpdate, {})).toEqual({});
  });
});

describe('optionsChangeOf', () => {
  it('merges nested and flat options; blank means none', () => {
    expect(optionsChangeOf({ options: { token: TOKEN, wrapper_key: ' data ' }, option_capture_additional_data: true })).toEqual({
      change: { token: TOKEN, wrapper_key: 'data', capture_additional_data: true },
      problems: [],
    });
    expect(optionsChangeOf({ option_token: '', options: { wrapper_key: null } })).toEqual({ change: { token: null, wrapper_key: null }, problems: [] });
    expect(optionsChangeOf({})).toEqual({ change: {}, problems: [] });
  });

  it('refuses the same option given both ways with different values', () => {
    expect(optionsChangeOf({ options: { capture_additional_data: true }, option_capture_additional_data: false }).problems).toEqual([
      'option_capture_additional_data and options.capture_additional_data disagree; give one of them',
    ]);
    expect(optionsChangeOf({ options: { token: TOKEN }, option_token: TOKEN }).problems).toEqual([]);
  });
});

describe('integrationTypeOf', () => {
  it('accepts webhook by integration_type_id or type, in any case', () => {
    expect(integrationTypeOf({ integration_type_id: 'webhook' }).type?.name).toBe('webhook');
    expect(integrationTypeOf({ type: ' Webhook ' }).type?.name).toBe('webhook');
    expect(integrationTypeOf({})).toEqual({ problems: [] });
  });

  it('names the field of an unknown type', () => {
    const types = INTEGRATION_TYPE_IDS.join(', ');
    expect(integrationTypeOf({ integration_type_id: 'nagios', type: 'webhook' }).problems).toEqual([`integration_type_id must be one of ${types}; got "nagios"`]);
    expect(integrationTypeOf({ type: 'constructor' }).problems).toEqual([`type must be one of ${types}; got "constructor"`]);
    expect(integrationTypeOf({ integration_type_id: 'grafana', type: 'prometheus' }).problems).toEqual(['integration_type_id and type disagree; give one of them']);
    expect(integrationTypeOf({ integration_type_id: 'Sentry' }).type).toEqual({ id: 'sentry', name: 'Sentry', description: expect.any(String) });
  });
});

const item: EntityItem<IntegrationData> = {
  pk: 'A#acct',
  sk: 'INTEGRATION#01J0000000000000000000000A',
  type: 'INTEGRATION',
  accountId: 'acct',
  id: '01J0000000000000000000000A',
  prefixId: 'int_abcdefghijkl',
  tinyId: 3,
  version: 2,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-02T00:00:00.000Z',
  meta: {},
  data: {
    name: 'Grafana',
    enabled: true,
    urgency: 'high',
    integration_type: { id: 'webhook', name: 'webhook', description: 'Generic JSON webhook: POST /integration/<prefix_id>' },
    options: { token_hash: hashSecret(TOKEN), capture_additional_data: true, wrapper_key: 'data' },
    account_user_ids: ['U1'],
    router_ids: [],
    team_ids: ['T1'],
  },
};

describe('rendering and lookups', () => {
  it('never shows the token or its hash', () => {
    const rendered = renderIntegration(item, { admin: true });
    expect(rendered).toMatchObject({
      id: item.id,
      prefix_id: 'int_abcdefghijkl',
      options: { has_token: true, capture_additional_data: true, wrapper_key: 'data' },
      integration_type: { name: 'webhook' },
      inbound_url_path: '/integration/int_abcdefghijkl',
      account_user_ids: ['U1'],
      team_ids: ['T1'],
      router_ids: [],
    });
    const text = JSON.stringify(rendered);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(hashSecret(TOKEN));
  });

  it('copies what the webhook needs under the id and the prefix id', () => {
    const lookups = lookupItemsOf(item);
    expect(lookups.map((l) => l.pk)).toEqual(['INTEGRATION#01J0000000000000000000000A', 'INTEGRATION#int_abcdefghijkl']);
    for (const l of lookups) {
      expect(l).toMatchObject({ sk: 'INTEGRATION', accountId: 'acct', integrationId: item.id, enabled: true, tokenHash: hashSecret(TOKEN), wrapperKey: 'data' });
    }
  });
});

describe('ingestMessageOf', () => {
  const lookup = lookupItemsOf(item)[1]!;
  const event = {
    headers: { 'content-type': 'application/json', 'service-token': TOKEN },
    queryStringParameters: { env: 'prod' },
    requestContext: { requestId: 'req-1', http: { sourceIp: '203.0.113.9' } },
  } as unknown as APIGatewayProxyEventV2;

  it('takes the alert key after unwrapping and lower-casing, and drops the token header', () => {
    const payload = { data: { ID: ' svc-42 ', Title: 't' }, Id: 'outer' };
    const message = ingestMessageOf(event, lookup, payload);
    expect(message).toMatchObject({
      kind: 'webhook',
      requestId: 'req-1',
      accountId: 'acct',
      integrationId: item.id,
      alertKey: 'svc-42',
      headers: { 'content-type': 'application/json' },
      query: { env: 'prod' },
      sourceIp: '203.0.113.9',
      body: payload,
    });
    expect(new Date(message.receivedAt).toISOString()).toBe(message.receivedAt);
  });

  it('leaves the alert key out when the payload names none', () => {
    expect(ingestMessageOf(event, lookup, { data: { title: 'x' } })).not.toHaveProperty('alertKey');
  });

  it('gives a monitor type\'s requests no alert key, so they share the integration\'s one group and keep their order', () => {
    // Datadog's default payload has a top-level id that changes with every notification: keyed by it, a recovery could
    // overtake its trigger.
    const datadog = { ...lookup, integrationTypeId: 'datadog' };
    expect(ingestMessageOf(event, datadog, { id: '7014543520514399001', title: '[Triggered] Disk almost full' })).not.toHaveProperty('alertKey');
    expect(ingestMessageOf(event, { ...lookup, integrationTypeId: 'webhook' }, { id: 'k' })).toMatchObject({ alertKey: 'k' });
  });
});
