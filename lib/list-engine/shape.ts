// What an attribute of a listed collection holds (number, boolean, timestamp, text, mixed), read from the items
// themselves, and query values typed to match (docs/lists.md, Typing rules).

import { parseInstant } from '../time/instant.ts';
import { quote } from './query.ts';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function numberOf(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function booleanOf(text: string): number | undefined {
  const t = text.toLowerCase();
  if (t === 'true' || t === '1') return 1;
  if (t === 'false' || t === '0') return 0;
  return undefined;
}

/** How an attribute compares, inferred from the values the collection holds. */
export type Kind = 'number' | 'boolean' | 'timestamp' | 'string' | 'mixed' | 'none';
export type Comparable = number | string;

const NUM = 1;
const BOOL = 2;
const TS = 4;
const STR = 8;
const OTHER = 16;

export interface Shape {
  /** At least one item has the attribute (null counts). */
  present: boolean;
  kind: Kind;
  /** Some item holds an array there. */
  arrays: boolean;
  /** Some item holds an object (or nested array) there. */
  objects: boolean;
}

export const MISSING = Symbol('missing');

/**
 * The dot paths of an object its caller may not read (docs/lists.md, "Fields the caller cannot read"): the object as
 * returned shows them empty, and filters, sorting and `q` treat them as absent — one projection decides both. A
 * symbol key, so it never reaches the JSON answer; it survives a spread of the object.
 */
export const HIDDEN_FIELDS = Symbol('hidden fields');

/** Marks fields of an object as hidden from its caller (see HIDDEN_FIELDS); returns the object. */
export function hideFields<T extends object>(object: T, paths: readonly string[]): T {
  if (paths.length > 0) (object as Record<symbol, unknown>)[HIDDEN_FIELDS] = paths.map((p) => p.split('.'));
  return object;
}

/** Whether the item's caller may not read the path: it is, or lies under, one of the item's hidden fields. */
export function hides(item: object, path: readonly string[]): boolean {
  const hidden = (item as Record<symbol, unknown>)[HIDDEN_FIELDS] as readonly (readonly string[])[] | undefined;
  return hidden !== undefined && hidden.some((h) => h.length <= path.length && h.every((segment, i) => path[i] === segment));
}

/** The value at a path as the item's caller sees it: MISSING where the caller may not read. */
export const visibleAt = (item: object, path: readonly string[]): unknown => (hides(item, path) ? MISSING : resolve(item, path));

/** Value at a dot path; arrays met on the way fan out (and their results are flattened into one array). */
export function resolve(node: unknown, path: readonly string[], from = 0): unknown {
  let current = node;
  for (let i = from; i < path.length; i++) {
    if (Array.isArray(current)) {
      const out: unknown[] = [];
      let found = false;
      for (const member of current) {
        const r = resolve(member, path, i);
        if (r === MISSING) continue;
        found = true;
        if (Array.isArray(r)) out.push(...(r as unknown[]));
        else out.push(r);
      }
      return found ? out : MISSING;
    }
    const segment = path[i] as string;
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return MISSING;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function classify(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return NUM;
    case 'boolean':
      return BOOL;
    case 'string':
      return ISO_DATETIME.test(value) && parseInstant(value) !== undefined ? TS : STR;
    case 'object':
      return value === null ? 0 : OTHER;
    default:
      return OTHER;
  }
}

export function shapeOf(items: readonly object[], path: readonly string[]): Shape {
  let present = false;
  let arrays = false;
  let seen = 0;
  for (const item of items) {
    // A hidden field is a field of the collection (a filter on it is not ignored as unknown), holding nothing.
    if (hides(item, path)) present = true;
    const value = visibleAt(item, path);
    if (value === MISSING) continue;
    present = true;
    if (Array.isArray(value)) {
      arrays = true;
      for (const member of value) seen |= Array.isArray(member) ? OTHER : classify(member);
    } else {
      seen |= classify(value);
    }
  }
  const scalars = seen & ~OTHER;
  let kind: Kind;
  if (scalars === 0) kind = 'none';
  else if (scalars === NUM) kind = 'number';
  else if (scalars === BOOL) kind = 'boolean';
  else if (scalars === TS) kind = 'timestamp';
  else if (scalars === STR || scalars === (STR | TS)) kind = 'string';
  else kind = 'mixed';
  return { present, kind, arrays, objects: (seen & OTHER) !== 0 };
}

/** An item's scalar as the kind compares it; undefined for null, objects and values of another type. */
export function comparableOf(kind: Kind, value: unknown): Comparable | undefined {
  switch (kind) {
    case 'number':
      return typeof value === 'number' ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? (value ? 1 : 0) : undefined;
    case 'timestamp':
      return typeof value === 'string' ? parseInstant(value) : undefined;
    case 'mixed':
      return value === null || typeof value === 'object' ? undefined : String(value);
    default:
      return typeof value === 'string' ? value : undefined;
  }
}

/** An item's scalar as text for beginsWith/contains (timestamps: their text as rendered). */
export function textOf(kind: Kind, value: unknown): string | undefined {
  if (kind === 'mixed') return value === null || typeof value === 'object' ? undefined : String(value);
  return typeof value === 'string' ? value : undefined;
}

export const isTextual = (kind: Kind) => kind === 'string' || kind === 'timestamp' || kind === 'mixed' || kind === 'none';

/** A query value typed like the attribute, or a problem message naming it. */
export function typedQueryValue(attribute: string, kind: Kind, text: string): Comparable | { problem: string } {
  switch (kind) {
    case 'number': {
      const n = numberOf(text);
      return n ?? { problem: `${attribute} must be a number, got ${quote(text)}` };
    }
    case 'boolean': {
      const b = booleanOf(text);
      return b ?? { problem: `${attribute} must be true, false, 1 or 0, got ${quote(text)}` };
    }
    case 'timestamp': {
      const t = parseInstant(text);
      return (
        t ?? { problem: `${attribute} must be an ISO-8601 datetime (2024-05-01T10:00:00Z) or YYYY-MM-DD HH:MM:SS, got ${quote(text)}` }
      );
    }
    default:
      return text;
  }
}
