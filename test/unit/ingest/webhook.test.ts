import { describe, expect, it } from 'vitest';
import { headerValue, loggableHeaders, readPayload, webhookFields } from '#lib/ingest/webhook.ts';
import { alertKeyOf, lowerCaseKeys } from '#lib/monitor-readers/alert-key.ts';
import { unwrapPayload, wrapperKeyProblem } from '#lib/monitor-readers/wrapper-key.ts';

describe('unwrapPayload (the wrapper key, a JMESPath expression)', () => {
  const payload = { data: { attributes: { Id: 'x' }, list: [1] }, other: 1, 'alert-body': { fields: { Id: 'q' } } };

  it('reads the object at the wrapper key', () => {
    expect(unwrapPayload(payload, 'data.attributes')).toEqual({ fields: { Id: 'x' } });
    expect(unwrapPayload(payload, 'data').fields).toEqual(payload.data);
    expect(unwrapPayload(payload, '"alert-body".fields')).toEqual({ fields: { Id: 'q' } });
  });

  it('reads an object an expression builds', () => {
    expect(unwrapPayload(payload, "{Id: data.attributes.Id, event_type: 'create'}")).toEqual({ fields: { Id: 'x', event_type: 'create' } });
  });

  it('reads the whole payload without a wrapper key, silently', () => {
    for (const key of [null, undefined, '', '  ']) expect(unwrapPayload(payload, key), String(key)).toEqual({ fields: payload });
  });

  it('falls back to the whole payload, with a note, when the key finds nothing or no object', () => {
    expect(unwrapPayload(payload, 'missing')).toEqual({ fields: payload, note: 'Wrapper key missing gave nothing, not an object; read the whole payload' });
    expect(unwrapPayload(payload, 'data.list')).toEqual({ fields: payload, note: 'Wrapper key data.list gave a list, not an object; read the whole payload' });
    expect(unwrapPayload(payload, 'other')).toEqual({ fields: payload, note: 'Wrapper key other gave a number, not an object; read the whole payload' });
    expect(unwrapPayload(payload, 'data.attributes.Id').note).toBe('Wrapper key data.attributes.Id gave a string, not an object; read the whole payload');
  });

  it('falls back with a note when the expression cannot be read', () => {
    expect(unwrapPayload(payload, 'data[')).toEqual({ fields: payload, note: 'Wrapper key data[ could not be read (Syntax error: expected Star, got: EOF); read the whole payload' });
    expect(unwrapPayload(payload, 'nosuch(@)').note).toMatch(/^Wrapper key nosuch\(@\) could not be read \(.*nosuch.*\); read the whole payload$/);
  });

  it('is case-sensitive and does not read inherited keys', () => {
    expect(unwrapPayload(payload, 'Data').fields).toBe(payload);
    expect(unwrapPayload({ a: {} }, 'a.constructor').fields).toEqual({ a: {} });
  });
});

describe('wrapperKeyProblem', () => {
  it('accepts JMESPath expressions and names the syntax error of others', () => {
    for (const key of ['data', 'data.attributes', '"alert-body".fields', 'data[0]', 'data.*', '{Id: id}']) expect(wrapperKeyProblem(key), key).toBeUndefined();
    expect(wrapperKeyProblem('a..b')).toBe('must be a JMESPath expression such as data or data.attributes (Syntax error, unexpected token: .(Dot))');
    expect(wrapperKeyProblem('"unclosed')).toBeTypeOf('string');
  });
});

describe('field reading', () => {
  it('lower-cases top-level keys only; the last of two spellings wins', () => {
    expect(lowerCaseKeys({ Id: 1, TITLE: 't', Meta: { Incident: true } })).toEqual({ id: 1, title: 't', meta: { Incident: true } });
    expect(lowerCaseKeys({ Id: 'first', id: 'second' })).toEqual({ id: 'second' });
    const proto = lowerCaseKeys(JSON.parse('{"__proto__": {"id": "inherited"}}') as Record<string, unknown>);
    expect(proto.id).toBeUndefined();
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });

  it('unwraps, then lower-cases', () => {
    expect(webhookFields({ body: { Id: 'a', Title: 'b' } }, 'body')).toEqual({ id: 'a', title: 'b' });
    expect(webhookFields({ Id: 'a' }, null)).toEqual({ id: 'a' });
  });

  it('takes the alert key from a non-blank string (trimmed) or a finite number', () => {
    expect(alertKeyOf({ id: ' abc ' })).toBe('abc');
    expect(alertKeyOf({ id: 42 })).toBe('42');
    expect(alertKeyOf({ id: 1.5 })).toBe('1.5');
    for (const id of [undefined, null, '', '   ', true, {}, [], Number.NaN]) expect(alertKeyOf({ id }), String(id)).toBeUndefined();
  });
});

describe('headers', () => {
  it('redacts credentials (keeping that they were sent) and lower-cases names', () => {
    expect(
      loggableHeaders({ 'Service-Token': 's', Authorization: 'Bearer x', cookie: 'c', 'X-Auth-Token': 't', 'Content-Type': 'application/json', 'x-gone': undefined }),
    ).toEqual({ 'service-token': '[redacted]', authorization: '[redacted]', cookie: '[redacted]', 'x-auth-token': '[redacted]', 'content-type': 'application/json' });
    expect(loggableHeaders(undefined)).toEqual({});
  });

  it('finds a header in any case', () => {
    expect(headerValue({ 'SERVICE-TOKEN': 'abc' }, 'service-token')).toBe('abc');
    expect(headerValue({}, 'service-token')).toBeUndefined();
  });
});

describe('readPayload', () => {
  it('accepts a JSON object', () => {
    expect(readPayload(' {"Id": "a"} ')).toEqual({ ok: true, payload: { Id: 'a' } });
    expect(readPayload('{}')).toEqual({ ok: true, payload: {} });
  });

  it('refuses anything else with a message', () => {
    expect(readPayload('')).toEqual({ ok: false, message: 'Request body must be a JSON object; it was empty' });
    expect(readPayload('{"a":')).toEqual({ ok: false, message: 'Malformed JSON in request body' });
    for (const text of ['[1]', '"text"', '12', 'null', 'true']) {
      expect(readPayload(text)).toEqual({ ok: false, message: 'Request body must be a JSON object' });
    }
  });
});
