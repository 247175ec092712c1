// What a free-form JSON value (an object's `meta`, a webhook's `Meta`) must be for Hark to keep it inside one
// DynamoDB item: nested at most so deep, at most so large as JSON, no empty keys and no keys with a lone surrogate
// (DynamoDB refuses both) and only numbers the AWS SDK stores exactly. The API refuses a value that breaks a rule (422 naming where); the webhook,
// which answered its sender long before, keeps what it can and notes the rest. Pure. docs/security.md, "Limits at the door".

import { MAX_BODY_DEPTH } from './limits.ts';

export interface FreeFormLimits {
  /** Levels of arrays and objects, the value itself being level 1. */
  maxDepth: number;
  /** Bytes of the value as JSON (UTF-8). */
  maxBytes: number;
}

/** Integers beyond ±(2^53 − 1) are refused by the AWS SDK (they would lose digits); DynamoDB stores nothing nearer 0 than 1e-130. */
const SMALLEST_STORED_MAGNITUDE = 1e-130;
export const NUMBER_RULE = `numbers are stored from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}, and none nearer 0 than 1e-130`;

export const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= SMALLEST_STORED_MAGNITUDE);

/** Half of a UTF-16 surrogate pair without its other half: JSON can carry one (`"\ud800"`), UTF-8 cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const hasLoneSurrogate = (text: string): boolean => text.search(LONE_SURROGATE) !== -1;

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * The deepest nesting of arrays and objects in a JSON text (`{}` is 1, `{"a":[]}` is 2, `1` is 0), read without
 * parsing it, so a hostile body is measured before anything walks it recursively. Stops counting above `stopAbove`.
 */
export function jsonTextDepth(text: string, stopAbove = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** Why a JSON request body is refused for its nesting (400 at the door, the API's and the webhook's), or undefined. */
export function bodyDepthProblem(text: string): string | undefined {
  return jsonTextDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH ? `Request body nests deeper than ${MAX_BODY_DEPTH} levels` : undefined;
}

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => value !== null && typeof value === 'object';
const pathOf = (parent: string, key: string | number) => (typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`);

/** One reason a value cannot be stored: where (keys and indexes from the value's root) and why. */
export interface FreeFormProblem {
  path: (string | number)[];
  message: string;
}

interface Visit {
  value: unknown;
  level: number;
  key?: string | number;
  parent?: Visit;
}

const pathTo = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * What keeps `value` from being stored: at most one problem per rule (the first place it is broken), so a hostile
 * value gets a short answer. Walks iteratively, so any depth is safe; the size is measured only once the value is
 * known to be shallow (JSON.stringify recurses).
 */
export function freeFormProblems(value: unknown, limits: FreeFormLimits): FreeFormProblem[] {
  let tooDeep = false;
  let badNumber: Visit | undefined;
  let emptyKey: Visit | undefined;
  let brokenKey: Visit | undefined;
  const stack: Visit[] = [{ value, level: 1 }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === 'number' && !isStorableNumber(current)) badNumber ??= visit;
    if (!isContainer(current)) continue;
    if (visit.level > limits.maxDepth) {
      tooDeep = true;
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(current) ? current.map((v, i) => [i, v]) : Object.entries(current);
    for (const [key, child] of entries) {
      if (key === '') emptyKey ??= visit;
      else if (typeof key === 'string' && hasLoneSurrogate(key)) brokenKey ??= visit;
      stack.push({ value: child, level: visit.level + 1, key, parent: visit });
    }
  }
  const problems: FreeFormProblem[] = [];
  if (tooDeep) problems.push({ path: [], message: `nests deeper than ${limits.maxDepth} levels` });
  if (emptyKey) problems.push({ path: pathTo(emptyKey), message: 'has an empty key; keys must have at least one character' });
  if (brokenKey) problems.push({ path: pathTo(brokenKey), message: 'has a key that is not valid Unicode (a lone surrogate such as \\ud800)' });
  if (badNumber) problems.push({ path: pathTo(badNumber), message: `is ${String(badNumber.value)}, a number Hark cannot store: ${NUMBER_RULE}; send it as a string` });
  if (!tooDeep && jsonBytes(value) > limits.maxBytes) problems.push({ path: [], message: `is larger than ${limits.maxBytes} bytes as JSON` });
  return problems;
}

interface CopyCounts {
  deep: string[];
  numbers: string[];
  emptyKeys: string[];
  brokenKeys: string[];
}

function copyWithin(value: unknown, path: string, level: number, limits: FreeFormLimits, counts: CopyCounts): unknown {
  if (typeof value === 'number' && !isStorableNumber(value)) {
    counts.numbers.push(path);
    return String(value);
  }
  if (!isContainer(value)) return value;
  if (level > limits.maxDepth) {
    counts.deep.push(path);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return value.map((item, i) => copyWithin(item, pathOf(path, i), level + 1, limits, counts));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === '') {
      counts.emptyKeys.push(path);
      continue;
    }
    const stored = key.replace(LONE_SURROGATE, '\uFFFD');
    if (stored !== key) counts.brokenKeys.push(pathOf(path, stored));
    // defineProperty, so a "__proto__" key stays a plain field.
    Object.defineProperty(out, stored, { value: copyWithin(item, pathOf(path, stored), level + 1, limits, counts), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Names in a note: the first few, then how many more. */
export const namesOf = (names: readonly string[], shown = 10): string =>
  names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;

const firstAt = (paths: readonly string[]) => `${paths.length === 1 ? 'at' : `${paths.length} places, the first at`} ${paths[0]}`;

/**
 * A copy of the object `value` that Hark can store, and notes naming what was changed: values nested deeper than
 * the limit are kept as their JSON text, numbers DynamoDB cannot hold exactly as their text, empty keys dropped,
 * and, when the result is still over the size limit, only its first keys that fit are kept. `value` comes from a
 * parsed request body, whose depth the door bounds (MAX_BODY_DEPTH), so the walk's recursion is bounded too.
 */
export function storableCopy(value: Record<string, unknown>, field: string, limits: FreeFormLimits): { value: Record<string, unknown>; notes: string[] } {
  const counts: CopyCounts = { deep: [], numbers: [], emptyKeys: [], brokenKeys: [] };
  const copy = copyWithin(value, field, 1, limits, counts) as Record<string, unknown>;
  const notes: string[] = [];
  if (counts.deep.length > 0) notes.push(`${field}: values nested deeper than ${limits.maxDepth} levels are kept as JSON text (${firstAt(counts.deep)})`);
  if (counts.numbers.length > 0) notes.push(`${field}: numbers Hark cannot store exactly are kept as text (${firstAt(counts.numbers)}); ${NUMBER_RULE}`);
  if (counts.emptyKeys.length > 0) notes.push(`${field}: dropped ${counts.emptyKeys.length} empty key(s), which cannot be stored (${firstAt(counts.emptyKeys)})`);
  if (counts.brokenKeys.length > 0) notes.push(`${field}: keys with a lone surrogate, which cannot be stored, have it replaced by U+FFFD (${firstAt(counts.brokenKeys)})`);
  if (jsonBytes(copy) <= limits.maxBytes) return { value: copy, notes };
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  let size = 2; // {}
  for (const [key, item] of Object.entries(copy)) {
    const entry = jsonBytes(key) + 1 + jsonBytes(item) + (size > 2 ? 1 : 0);
    if (dropped.length === 0 && size + entry <= limits.maxBytes) {
      Object.defineProperty(kept, key, { value: item, enumerable: true, writable: true, configurable: true });
      size += entry;
    } else dropped.push(key);
  }
  const total = Object.keys(copy).length;
  notes.push(`${field}: larger than ${limits.maxBytes} bytes as JSON; kept the first ${total - dropped.length} of ${total} keys and dropped ${namesOf(dropped)}`);
  return { value: kept, notes };
}
