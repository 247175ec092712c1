// What a free-form value must be to be stored in a DynamoDB item (lib/storable.ts): the API's problems, the webhook's
// copy, and the depth of a body measured before it is parsed.
import { describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '#lib/limits.ts';
import { bodyDepthProblem, freeFormProblems, isStorableNumber, jsonBytes, jsonTextDepth, storableCopy } from '#lib/storable.ts';

/** `{a:{a:…{a:1}}}` with `levels` objects. */
const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value as Record<string, unknown>;
};
const limits = { maxDepth: 16, maxBytes: 1024 };

describe('jsonTextDepth', () => {
  it('counts nested arrays and objects outside strings, without parsing', () => {
    expect(jsonTextDepth('1')).toBe(0);
    expect(jsonTextDepth('{}')).toBe(1);
    expect(jsonTextDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonTextDepth('{"a":"[[[{{{","b":"\\"[[["}')).toBe(1);
    expect(jsonTextDepth(JSON.stringify(nested(40)))).toBe(40);
    expect(jsonTextDepth('['.repeat(5000))).toBe(5000);
    expect(jsonTextDepth('['.repeat(5000), 100)).toBe(101);
  });

  it('refuses a body nested deeper than MAX_BODY_DEPTH, and only that', () => {
    expect(bodyDepthProblem(JSON.stringify(nested(MAX_BODY_DEPTH)))).toBeUndefined();
    expect(bodyDepthProblem(JSON.stringify(nested(MAX_BODY_DEPTH + 1)))).toBe(`Request body nests deeper than ${MAX_BODY_DEPTH} levels`);
    expect(bodyDepthProblem(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`)).toBe(`Request body nests deeper than ${MAX_BODY_DEPTH} levels`);
  });
});

describe('isStorableNumber', () => {
  it('takes what the AWS SDK and DynamoDB store exactly', () => {
    for (const n of [0, -0, 1, -1, 1.5, 0.1, 2 ** 53 - 1, -(2 ** 53 - 1), 1e-130, 123.456e-10]) expect(isStorableNumber(n), String(n)).toBe(true);
    for (const n of [2 ** 53, 1e200, -1e308, 5e-324, 1e-131, Number.NaN, Number.POSITIVE_INFINITY]) expect(isStorableNumber(n), String(n)).toBe(false);
  });
});

describe('freeFormProblems (the API refuses)', () => {
  it('finds nothing wrong with a storable value at the limits', () => {
    expect(freeFormProblems(nested(16), limits)).toEqual([]);
    expect(freeFormProblems({ list: [1, 'two', null, { x: [true] }], n: 2 ** 53 - 1 }, limits)).toEqual([]);
  });

  it('names the depth once, however deep, and walks any depth without recursion', () => {
    expect(freeFormProblems(nested(17), limits)).toEqual([{ path: [], message: 'nests deeper than 16 levels' }]);
    const hostile = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(freeFormProblems(hostile, limits)).toEqual([{ path: [], message: 'nests deeper than 16 levels' }]);
  });

  it('names where an empty key, a key with a lone surrogate or an unstorable number is', () => {
    expect(freeFormProblems({ a: { b: [{ '': 1 }] } }, limits)).toEqual([{ path: ['a', 'b', 0], message: 'has an empty key; keys must have at least one character' }]);
    expect(freeFormProblems({ a: { '\ud800': 1, ok: '\ud800' } }, limits)).toEqual([{ path: ['a'], message: 'has a key that is not valid Unicode (a lone surrogate such as \\ud800)' }]);
    expect(freeFormProblems({ '\ud83d\udca9': 1 }, limits)).toEqual([]);
    const [problem] = freeFormProblems({ a: [1, 1e200] }, limits);
    expect(problem!.path).toEqual(['a', 1]);
    expect(problem!.message).toMatch(/^is 1e\+200, a number Hark cannot store: numbers are stored from -9007199254740991 to 9007199254740991/);
  });

  it('measures the size as JSON bytes (UTF-8)', () => {
    expect(freeFormProblems({ a: 'x'.repeat(1000) }, limits)).toEqual([]);
    expect(freeFormProblems({ a: 'é'.repeat(600) }, limits)).toEqual([{ path: [], message: 'is larger than 1024 bytes as JSON' }]);
  });
});

describe('storableCopy (the webhook keeps what fits)', () => {
  it('keeps a storable value as it is, with no notes', () => {
    const value = { a: [1, { b: 'c' }], d: null };
    expect(storableCopy(value, 'Meta', limits)).toEqual({ value, notes: [] });
  });

  it('keeps values nested deeper than the limit as their JSON text', () => {
    const { value, notes } = storableCopy(nested(40), 'Meta', limits);
    let at: unknown = value;
    for (let level = 1; level < 16; level++) at = (at as { a: unknown }).a;
    expect(JSON.parse((at as { a: string }).a)).toEqual(nested(24));
    expect(jsonTextDepth(JSON.stringify(value))).toBe(16);
    expect(notes).toEqual([`Meta: values nested deeper than 16 levels are kept as JSON text (at Meta${'.a'.repeat(16)})`]);
  });

  it('keeps unstorable numbers as text, drops empty keys and mends keys with a lone surrogate, saying where', () => {
    const { value, notes } = storableCopy({ big: 1e200, tiny: 5e-324, ok: 2, '': 'x', deep: { '': 1 }, 'a\udc00': 3 }, 'Meta', limits);
    expect(value).toEqual({ big: '1e+200', tiny: '5e-324', ok: 2, deep: {}, 'a\ufffd': 3 });
    expect(notes[0]).toMatch(/^Meta: numbers Hark cannot store exactly are kept as text \(2 places, the first at Meta\.big\)/);
    expect(notes[1]).toBe('Meta: dropped 2 empty key(s), which cannot be stored (2 places, the first at Meta)');
    expect(notes[2]).toBe('Meta: keys with a lone surrogate, which cannot be stored, have it replaced by U+FFFD (at Meta.a\ufffd)');
  });

  it('keeps the first keys within the size and names the ones dropped', () => {
    const { value, notes } = storableCopy({ a: 'x'.repeat(400), b: 'y'.repeat(400), c: 'z'.repeat(400), d: 1 }, 'Meta', limits);
    expect(Object.keys(value)).toEqual(['a', 'b']);
    expect(jsonBytes(value)).toBeLessThanOrEqual(1024);
    expect(notes).toEqual(['Meta: larger than 1024 bytes as JSON; kept the first 2 of 4 keys and dropped c, d']);
  });

  it('keeps a "__proto__" key a plain field', () => {
    const { value } = storableCopy(JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>, 'Meta', limits);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
