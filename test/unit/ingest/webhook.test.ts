import { describe, expect, it } from 'vitest';
import {
  alertKeyOf,
  headerValue,
  loggableHeaders,
  lowerCaseKeys,
  parseWrapperKey,
  readPayload,
  unwrapPayload,
  webhookFields,
} from '#lib/ingest/webhook.ts';

describe('parseWrapperKey', () => {
  it('reads identifiers joined by dots and quoted keys', () => {
    expect(parseWrapperKey('data')).toEqual(['data']);
    expect(parseWrapperKey(' data.attributes ')).toEqual(['data', 'attributes']);
    expect(parseWrapperKey('_a1.B_2')).toEqual(['_a1', 'B_2']);
    expect(parseWrapperKey('"alert-body".fields')).toEqual(['alert-body', 'fields']);
    expect(parseWrapperKey('"a.b"')).toEqual(['a.b']);
    expect(parseWrapperKey('"quote\\"d"')).toEqual(['quote"d']);
  });

  it('refuses what is not such a path', () => {
    for (const text of ['', '   ', 'data.', '.data', 'a..b', 'data[0]', '1abc', 'a-b', '"unclosed', '""', 'a b', 'data.*', '"a"b']) {
      expect(parseWrapperKey(text), text).toBeUndefined();
    }
  });
});

describe('unwrapPayload', () => {
  const payload = { data: { attributes: { Id: 'x' }, list: [1] }, other: 1 };

  it('reads the object at the wrapper key', () => {
    expect(unwrapPayload(payload, 'data.attributes')).toEqual({ Id: 'x' });
    expect(unwrapPayload(payload, 'data')).toBe(payload.data);
  });

  it('falls back to the whole payload when the key is unset, missing, not an object or invalid', () => {
    for (const key of [null, undefined, '', 'missing', 'data.list', 'other', 'data.attributes.Id', 'data[0]']) {
      expect(unwrapPayload(payload, key), String(key)).toBe(payload);
    }
  });

  it('is case-sensitive and does not read inherited keys', () => {
    expect(unwrapPayload(payload, 'Data')).toBe(payload);
    expect(unwrapPayload({ a: {} }, 'a.constructor')).toEqual({ a: {} });
  });
});

describe('field reading', () => {
  it('lower-cases top-level keys only; the last of two spellings wins', () => {
    expect(lowerCaseKeys({ Id: 1, TITLE: 't', Meta: { Incident: true } })).toEqual({ id: 1, title: 't', meta: { Incident: true } });
    expect(lowerCaseKeys({ Id: 'first', id: 'second' })).toEqual({ id: 'second' });
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
  it('drops credentials and lower-cases names', () => {
    expect(
      loggableHeaders({ 'Service-Token': 's', Authorization: 'Bearer x', cookie: 'c', 'x-api-key': 'k', 'Content-Type': 'application/json', 'x-gone': undefined }),
    ).toEqual({ 'content-type': 'application/json' });
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
