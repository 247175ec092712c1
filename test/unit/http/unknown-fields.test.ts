// Unknown body fields: which fields a schema takes, which fields of a body are unknown once validated, and the Warning
// header that names them (docs/api.md, "Unknown fields").
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { alertCreate } from '#lib/alerts/schema.ts';
import { eventUpdate, OLD_FIELD_NAMES } from '#lib/schedule-events/schema.ts';
import { fieldsOfSchema, noteFieldsRead, quotedFieldName, unknownFields, unknownFieldsWarning, withUnknownFieldsWarning } from '#lib/api-shapes/unknown-fields.ts';
import { validate } from '#lib/api-shapes/validate.ts';
import { MAX_WARNED_FIELDS, WARNED_FIELD_NAME_LENGTH } from '#lib/limits.ts';
import { teamCreate, teamUpdate } from '#lib/teams/schema.ts';

const sorted = (fields: ReadonlySet<string> | 'any') => (fields === 'any' ? fields : [...fields].sort());

describe('fieldsOfSchema', () => {
  it('reads the keys of an object through partial, extend, refinements, preprocess, transform and optional', () => {
    expect(sorted(fieldsOfSchema(teamCreate))).toEqual(Object.keys(teamCreate.shape).sort());
    expect(sorted(fieldsOfSchema(teamUpdate))).toEqual([...Object.keys(teamCreate.shape), 'schedule_id', 'escalation_policy_id'].sort());
    const shape = z.object({ a: z.string(), b: z.number() });
    expect(sorted(fieldsOfSchema(shape.refine(() => true)))).toEqual(['a', 'b']);
    expect(sorted(fieldsOfSchema(z.preprocess((v) => v, shape)))).toEqual(['a', 'b']);
    expect(sorted(fieldsOfSchema(shape.transform((v) => v)))).toEqual(['a', 'b']);
    expect(sorted(fieldsOfSchema(shape.optional()))).toEqual(['a', 'b']);
    expect(sorted(fieldsOfSchema(z.union([shape, z.object({ c: z.string() })])))).toEqual(['a', 'b', 'c']);
    expect(sorted(fieldsOfSchema(z.intersection(shape, z.object({ c: z.string() }))))).toEqual(['a', 'b', 'c']);
  });

  it('takes every key for a record or an object with a catch-all, and none for a schema that is not an object', () => {
    expect(fieldsOfSchema(z.record(z.string(), z.unknown()))).toBe('any');
    expect(fieldsOfSchema(z.object({ a: z.string() }).passthrough())).toBe('any');
    expect(fieldsOfSchema(z.string())).toEqual(new Set());
  });
});

describe('unknownFields', () => {
  it('names the fields no schema reading the body takes, in the order sent, leaving out fields the answered object shows', () => {
    const body = { name: 'Ops', admin_ids: ['usr_x'], id: 'tem_x', status: 'ok', notes: null };
    validate(teamCreate, body);
    expect(unknownFields(body, undefined)).toEqual(['admin_ids', 'id', 'status']);
    // A client sending back an object it read: the fields the object has are read-only, not unknown.
    expect(unknownFields(body, { id: 'tem_x', name: 'Ops' })).toEqual(['admin_ids', 'status']);
  });

  it('knows nothing of a body no schema read, and takes the union when several schemas read one', () => {
    expect(unknownFields({ anything: 1 }, {})).toEqual([]);
    const body = { title: 'Disk', thirdparty_id: 'x', name: 'n', other: 1 };
    validate(alertCreate.partial(), body);
    noteFieldsRead(body, z.object({ name: z.string() }));
    expect(unknownFields(body, {})).toEqual(['other']);
  });

  it('counts the old names a service maps itself as known', () => {
    const body = { start_datetime: '2026-01-01 09:00', layer: 1, layr: 2 };
    noteFieldsRead(body, eventUpdate, Object.keys(OLD_FIELD_NAMES));
    expect(unknownFields(body, {})).toEqual(['layr']);
  });

  it('warns about nothing when a schema that reads the body takes every key', () => {
    const body = { a: 1, b: 2 };
    noteFieldsRead(body, z.object({ a: z.number() }));
    noteFieldsRead(body, z.record(z.string(), z.unknown()));
    expect(unknownFields(body, {})).toEqual([]);
  });
});

describe('the Warning header', () => {
  it('is one RFC 7234 warning (code 299, agent -) per field, joined by commas; none without unknown fields', () => {
    expect(unknownFieldsWarning([])).toBeUndefined();
    expect(unknownFieldsWarning(['admin_ids'])).toBe('299 - "unknown field admin_ids"');
    expect(unknownFieldsWarning(['admin_ids', 'nmae'])).toBe('299 - "unknown field admin_ids", 299 - "unknown field nmae"');
  });

  it(`names at most ${MAX_WARNED_FIELDS} fields, then how many more`, () => {
    const fields = Array.from({ length: MAX_WARNED_FIELDS + 3 }, (_, i) => `f${i}`);
    const warnings = unknownFieldsWarning(fields)!.split(', ');
    expect(warnings).toHaveLength(MAX_WARNED_FIELDS + 1);
    expect(warnings.at(-1)).toBe('299 - "and 3 more unknown fields"');
    expect(unknownFieldsWarning(fields.slice(0, MAX_WARNED_FIELDS + 1))!.split(', ').at(-1)).toBe('299 - "and 1 more unknown field"');
  });

  it('quotes names safely: " and \\ escaped, other characters than printable ASCII (and %) percent-encoded, long names cut', () => {
    expect(quotedFieldName('say "hi"\\')).toBe('say \\"hi\\"\\\\');
    expect(quotedFieldName('naïve 🔥%')).toBe('na%C3%AFve %F0%9F%94%A5%25');
    expect(quotedFieldName('line\nbreak')).toBe('line%0Abreak');
    expect(quotedFieldName('x'.repeat(WARNED_FIELD_NAME_LENGTH + 10))).toBe(`${'x'.repeat(WARNED_FIELD_NAME_LENGTH)}...`);
    // Whatever the name, the header value holds only what a header may carry.
    expect(unknownFieldsWarning(['\u0000\u00ff\u{10ffff}"'])).toMatch(/^[\x20-\x7e]+$/);
  });

  it('is added to success answers only', () => {
    const body = { name: 'Ops', admin_ids: [] };
    validate(teamCreate, body);
    expect(withUnknownFieldsWarning({ status: 201, body: { name: 'Ops' } }, body).headers).toEqual({ warning: '299 - "unknown field admin_ids"' });
    expect(withUnknownFieldsWarning({ status: 204, headers: { a: 'b' } }, body).headers).toEqual({ a: 'b', warning: '299 - "unknown field admin_ids"' });
    const failed = { status: 422, body: { errors: [] } };
    expect(withUnknownFieldsWarning(failed, body)).toBe(failed);
  });
});
