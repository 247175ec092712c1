// The list engine behind every list endpoint: pagination, typed filters (`ops`), sorting and `q` search over the
// API representation of a bounded collection. Client-facing rules and every decision: docs/lists.md.

import { unprocessable } from './errors.ts';

export const LIST_OPS = ['equals', 'ne', 'lt', 'lte', 'gt', 'gte', 'beginsWith', 'contains', 'between'] as const;
export type ListOp = (typeof LIST_OPS)[number];

/** Query parameters with a meaning of their own; every other parameter is a filter. */
export const RESERVED_LIST_PARAMETERS: readonly string[] = ['limit', 'offset', 'page', 'ops', 'sort', 'direction', 'q'];

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** One filter parameter. `value: null` is the literal `null` (only with equals and ne). */
export type ListFilter =
  | { attribute: string; op: Exclude<ListOp, 'between'>; value: string | null }
  | { attribute: string; op: 'between'; from: string; to: string };

export interface ListQuery {
  limit: number;
  /** Elements skipped; computed from page when the query used page. */
  offset: number;
  filters: readonly ListFilter[];
  /** Attribute (dot path) to sort by; undefined = default order (created_at, then id). */
  sort: string | undefined;
  /** Undefined = asc with sort, desc for the default order. */
  direction: 'asc' | 'desc' | undefined;
  /** Case-insensitive search text; undefined when absent or empty. */
  q: string | undefined;
}

export interface ListOptions {
  /** Attributes (dot paths) `q` searches, e.g. ['title', 'description']. */
  searchFields: readonly string[];
  /**
   * Attributes `sort` accepts (a listed attribute also admits its dot paths: 'meta' admits 'meta.x').
   * Absent: inferred — any attribute at least one item has; with no items any attribute is accepted.
   */
  sortable?: readonly string[];
}

export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  total_count: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Query parsing

const OP_SET: ReadonlySet<string> = new Set(LIST_OPS);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_LIST_PARAMETERS);
const DIGITS = /^\d+$/;

/** Parses the query parameters of a list request; 422 naming every problem found. */
export function parseListQuery(query: Record<string, string | undefined>): ListQuery {
  const { listQuery, problems } = readListQuery(query);
  if (problems.length > 0) throw unprocessable(problems);
  return listQuery;
}

/** Parses what it can and collects the problems (problematic parameters are left out of the query). */
function readListQuery(query: Record<string, string | undefined>): { listQuery: ListQuery; problems: string[] } {
  const problems: string[] = [];
  // An empty reserved parameter counts as not given (forms send empty fields).
  const reserved = (name: string): string | undefined => {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    return value === undefined || value === '' ? undefined : value;
  };

  let limit = DEFAULT_LIMIT;
  const rawLimit = reserved('limit');
  if (rawLimit !== undefined) {
    const n = integerOf(rawLimit);
    if (n === undefined || n < 1 || n > MAX_LIMIT) problems.push(`limit must be an integer between 1 and ${MAX_LIMIT}`);
    else limit = n;
  }

  let offset = 0;
  const rawOffset = reserved('offset');
  const rawPage = reserved('page');
  if (rawOffset !== undefined && rawPage !== undefined) {
    problems.push('page and offset cannot be combined; give one of them');
  } else if (rawOffset !== undefined) {
    const n = integerOf(rawOffset);
    if (n === undefined) problems.push('offset must be an integer of 0 or more');
    else offset = n;
  } else if (rawPage !== undefined) {
    const n = integerOf(rawPage);
    if (n === undefined || n < 1 || !Number.isSafeInteger((n - 1) * limit)) problems.push('page must be an integer of 1 or more');
    else offset = (n - 1) * limit;
  }

  let direction: ListQuery['direction'];
  const rawDirection = reserved('direction');
  if (rawDirection !== undefined) {
    const d = rawDirection.toLowerCase();
    if (d === 'asc' || d === 'desc') direction = d;
    else problems.push('direction must be asc or desc');
  }

  let sort: string | undefined;
  const rawSort = reserved('sort');
  if (rawSort !== undefined) {
    if (rawSort.split('.').some((segment) => segment === '')) problems.push(`sort must be an attribute name, got ${quote(rawSort)}`);
    else sort = rawSort;
  }

  const q = reserved('q');

  // ops: attribute -> operation. Attributes whose ops token is wrong are left out of the filters, so one mistake
  // gives one message.
  const opOf = new Map<string, ListOp>();
  const skipped = new Set<string>();
  const rawOps = reserved('ops');
  if (rawOps !== undefined) {
    const named = new Set<string>();
    const duplicates = new Set<string>();
    for (const raw of rawOps.split(',')) {
      const token = raw.trim();
      if (token === '') continue;
      const parts = token.split(':');
      const attribute = parts[0]?.trim() ?? '';
      const op = parts[1]?.trim() ?? '';
      if (parts.length !== 2 || attribute === '' || op === '') {
        problems.push(`ops token ${quote(token)} must have the shape attribute:operation`);
        if (attribute !== '') skipped.add(attribute);
        continue;
      }
      if (named.has(attribute)) {
        if (!duplicates.has(attribute)) problems.push(`ops names ${attribute} more than once`);
        duplicates.add(attribute);
        opOf.delete(attribute);
        skipped.add(attribute);
        continue;
      }
      named.add(attribute);
      if (!OP_SET.has(op)) {
        problems.push(`ops: unknown operation ${quote(op)} for ${attribute}; use one of ${LIST_OPS.join(', ')}`);
        skipped.add(attribute);
      } else if (RESERVED.has(attribute)) {
        problems.push(`ops: ${attribute} is a reserved parameter and cannot be filtered`);
      } else if (!Object.hasOwn(query, attribute) || query[attribute] === undefined) {
        problems.push(`ops names ${attribute} but the query has no ${attribute} parameter`);
      } else {
        opOf.set(attribute, op as ListOp);
      }
    }
  }

  const filters: ListFilter[] = [];
  for (const [attribute, value] of Object.entries(query)) {
    if (value === undefined || RESERVED.has(attribute) || skipped.has(attribute)) continue;
    const op = opOf.get(attribute) ?? 'equals';
    if (op === 'between') {
      const at = value.indexOf('..');
      const from = value.slice(0, at);
      const to = value.slice(at + 2);
      if (at < 0 || at !== value.lastIndexOf('..') || from === '' || to === '') {
        problems.push(`${attribute} must have the shape <from>..<to> for between, got ${quote(value)}`);
        continue;
      }
      filters.push({ attribute, op, from, to });
    } else if (value === 'null') {
      if (op === 'equals' || op === 'ne') filters.push({ attribute, op, value: null });
      else problems.push(`${attribute}: null can only be used with equals or ne, not ${op}`);
    } else {
      filters.push({ attribute, op, value });
    }
  }

  return { listQuery: { limit, offset, filters, sort, direction, q }, problems };
}

function integerOf(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

// ---------------------------------------------------------------------------------------------------------------
// Typed values

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
// Date, optional time (T, t or space), optional fraction, optional offset (Z, ±hh, ±hh:mm, ±hhmm). A space in place
// of the offset's '+' is accepted: an unencoded '+' in a query string arrives as a space.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?)?$/;
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

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const daysIn = (y: number, mo: number) => (mo === 2 && isLeap(y) ? 29 : (DAYS[mo - 1] ?? 0));

function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  if (y >= 100) return Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  date.setUTCFullYear(y); // Date.UTC maps years 0-99 to 1900-1999
  return date.getTime();
}

/** Digits of text[from, from + count) as a number; -1 when one is not a digit. */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The form the API renders (YYYY-MM-DDTHH:MM:SS.sssZ), read without a regex: it is parsed for every item. */
function parseRendered(text: string): number | undefined {
  const y = digitsAt(text, 0, 4);
  const mo = digitsAt(text, 5, 2);
  const d = digitsAt(text, 8, 2);
  const h = digitsAt(text, 11, 2);
  const mi = digitsAt(text, 14, 2);
  const s = digitsAt(text, 17, 2);
  const ms = digitsAt(text, 20, 3);
  if ((y | mo | d | h | mi | s | ms) < 0) return undefined;
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.') {
    return undefined;
  }
  return utcMs(y, mo, d, h, mi, s, ms);
}

/** Milliseconds since the epoch of an ISO-8601 date/datetime or `YYYY-MM-DD HH:MM:SS`; no offset means UTC. */
export function parseInstant(text: string): number | undefined {
  if (text.length === 24 && text[23] === 'Z') {
    const rendered = parseRendered(text);
    if (rendered !== undefined) return rendered;
  }
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, fs, zulu, sign, ohs, oms] = m;
  const ms = fs === undefined ? 0 : Number(fs.slice(0, 3).padEnd(3, '0'));
  const local = utcMs(Number(ys), Number(mos), Number(ds), Number(hs ?? 0), Number(mis ?? 0), Number(ss ?? 0), ms);
  if (local === undefined) return undefined;
  let offsetMinutes = 0;
  if (zulu === undefined && sign !== undefined) {
    const oh = Number(ohs);
    const om = Number(oms ?? 0);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return local - offsetMinutes * 60_000;
}

/** How an attribute compares, inferred from the values the collection holds. */
type Kind = 'number' | 'boolean' | 'timestamp' | 'string' | 'mixed' | 'none';
type Comparable = number | string;

const NUM = 1;
const BOOL = 2;
const TS = 4;
const STR = 8;
const OTHER = 16;

interface Shape {
  /** At least one item has the attribute (null counts). */
  present: boolean;
  kind: Kind;
  /** Some item holds an array there. */
  arrays: boolean;
  /** Some item holds an object (or nested array) there. */
  objects: boolean;
}

const MISSING = Symbol('missing');

/** Value at a dot path; arrays met on the way fan out (and their results are flattened into one array). */
function resolve(node: unknown, path: readonly string[], from = 0): unknown {
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

function shapeOf(items: readonly object[], path: readonly string[]): Shape {
  let present = false;
  let arrays = false;
  let seen = 0;
  for (const item of items) {
    const value = resolve(item, path);
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
function comparableOf(kind: Kind, value: unknown): Comparable | undefined {
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
function textOf(kind: Kind, value: unknown): string | undefined {
  if (kind === 'mixed') return value === null || typeof value === 'object' ? undefined : String(value);
  return typeof value === 'string' ? value : undefined;
}

const isTextual = (kind: Kind) => kind === 'string' || kind === 'timestamp' || kind === 'mixed' || kind === 'none';

/** A query value typed like the attribute, or a problem message naming it. */
function typedQueryValue(attribute: string, kind: Kind, text: string): Comparable | { problem: string } {
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

// ---------------------------------------------------------------------------------------------------------------
// Filters

type Predicate = (item: object) => boolean;

function compileFilter(filter: ListFilter, shape: Shape, problems: string[]): Predicate | undefined {
  const { attribute, op } = filter;
  const path = attribute.split('.');
  const { kind } = shape;
  const at = (item: object) => resolve(item, path);

  if (op === 'between') {
    const from = typedQueryValue(attribute, kind, filter.from);
    const to = typedQueryValue(attribute, kind, filter.to);
    let bad = false;
    for (const bound of [from, to]) {
      if (typeof bound === 'object') {
        problems.push(bound.problem);
        bad = true;
      }
    }
    if (bad) return undefined;
    const lo = from as Comparable;
    const hi = to as Comparable;
    if (lo > hi) {
      problems.push(`${attribute} must be a range whose start is not after its end, got ${quote(`${filter.from}..${filter.to}`)}`);
      return undefined;
    }
    return someMember(at, (v) => {
      const c = comparableOf(kind, v);
      return c !== undefined && c >= lo && c <= hi;
    });
  }

  const raw = filter.value;
  if (raw === null) {
    const isNull = (item: object) => {
      const v = at(item);
      return v === MISSING || v === null;
    };
    return op === 'equals' ? isNull : (item) => !isNull(item);
  }

  if (op === 'beginsWith') {
    if (!isTextual(kind)) {
      problems.push(`${attribute}: beginsWith applies to text attributes, not to ${kind} ones`);
      return undefined;
    }
    return someMember(at, (v) => textOf(kind, v)?.startsWith(raw) === true);
  }

  if (op === 'contains' && !shape.arrays) {
    if (!isTextual(kind)) {
      problems.push(`${attribute}: contains applies to text and array attributes, not to ${kind} ones`);
      return undefined;
    }
    return someMember(at, (v) => textOf(kind, v)?.includes(raw) === true);
  }

  const typed = typedQueryValue(attribute, kind, raw);
  if (typeof typed === 'object') {
    problems.push(typed.problem);
    return undefined;
  }
  const test = scalarTest(op, typed);
  const matches = someMember(at, (v) => {
    const c = comparableOf(kind, v);
    return c !== undefined && test(c);
  });
  // ne is exactly the complement of equals (arrays: no member equals; null and missing match).
  return op === 'ne' ? (item) => !matches(item) : matches;
}

function scalarTest(op: Exclude<ListOp, 'between' | 'beginsWith'>, q: Comparable): (c: Comparable) => boolean {
  switch (op) {
    case 'lt':
      return (c) => c < q;
    case 'lte':
      return (c) => c <= q;
    case 'gt':
      return (c) => c > q;
    case 'gte':
      return (c) => c >= q;
    default: // equals, ne (negated by the caller), contains on arrays (membership)
      return (c) => c === q;
  }
}

/** Scalars test themselves; arrays match when some member does. */
function someMember(at: (item: object) => unknown, test: (value: unknown) => boolean): Predicate {
  return (item) => {
    const value = at(item);
    if (value === MISSING) return false;
    if (Array.isArray(value)) return value.some(test);
    return test(value);
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Sorting

interface SortPlan {
  keys: readonly { path: readonly string[]; kind: Kind; descending: boolean }[];
}

function planSort(items: readonly object[], query: ListQuery, options: ListOptions, problems: string[]): SortPlan {
  if (query.sort === undefined) {
    const descending = query.direction !== 'asc';
    return {
      keys: ['created_at', 'id'].map((attribute) => {
        const path = [attribute];
        return { path, kind: shapeOf(items, path).kind, descending };
      }),
    };
  }
  const attribute = query.sort;
  const path = attribute.split('.');
  const shape = shapeOf(items, path);
  const known = options.sortable
    ? options.sortable.some((s) => attribute === s || attribute.startsWith(`${s}.`))
    : items.length === 0 || shape.present;
  if (!known) {
    problems.push(`sort: ${attribute} is not an attribute of this resource`);
  } else if (shape.arrays || shape.objects) {
    problems.push(`sort: ${attribute} holds ${shape.arrays ? 'arrays' : 'objects'} and cannot be sorted`);
  }
  return { keys: [{ path, kind: shape.kind, descending: query.direction === 'desc' }] };
}

function compareComparables(a: Comparable | undefined, b: Comparable | undefined, descending: boolean): number {
  if (a === b) return 0;
  // null and missing last, whatever the direction
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -order : order;
}

function sortItems<T extends object>(items: readonly T[], plan: SortPlan): T[] {
  const rows = items.map((item, index) => ({
    item,
    index,
    keys: plan.keys.map((key) => {
      const value = resolve(item, key.path);
      return value === MISSING ? undefined : comparableOf(key.kind, value);
    }),
  }));
  rows.sort((a, b) => {
    for (let k = 0; k < plan.keys.length; k++) {
      const order = compareComparables(a.keys[k], b.keys[k], (plan.keys[k] as SortPlan['keys'][number]).descending);
      if (order !== 0) return order;
    }
    return a.index - b.index; // stable: ties keep the collection's order
  });
  return rows.map((row) => row.item);
}

// ---------------------------------------------------------------------------------------------------------------
// Applying

interface Plan {
  predicates: Predicate[];
  sort: SortPlan;
  problems: string[];
}

function planList(items: readonly object[], query: ListQuery, options: ListOptions): Plan {
  const problems: string[] = [];
  const predicates: Predicate[] = [];
  for (const filter of query.filters) {
    const shape = shapeOf(items, filter.attribute.split('.'));
    if (!shape.present) continue; // unknown filter attributes are ignored
    const predicate = compileFilter(filter, shape, problems);
    if (predicate) predicates.push(predicate);
  }
  const sort = planSort(items, query, options, problems);
  return { predicates, sort, problems };
}

function searchPredicate(q: string, fields: readonly string[]): Predicate {
  const needle = q.toLowerCase();
  const paths = fields.map((field) => field.split('.'));
  const hit = (value: unknown): boolean => typeof value === 'string' && value.toLowerCase().includes(needle);
  return (item) =>
    paths.some((path) => {
      const value = resolve(item, path);
      return Array.isArray(value) ? value.some(hit) : hit(value);
    });
}

function runPlan<T extends object>(items: readonly T[], query: ListQuery, options: ListOptions, plan: Plan): ListPage<T> {
  const predicates = [...plan.predicates];
  if (query.q !== undefined) predicates.push(searchPredicate(query.q, options.searchFields));
  const matching = predicates.length === 0 ? items : items.filter((item) => predicates.every((p) => p(item)));
  const sorted = sortItems(matching, plan.sort);
  const data = sorted.slice(query.offset, query.offset + query.limit);
  return { data, has_more: query.offset + data.length < sorted.length, total_count: sorted.length };
}

/**
 * Filters, searches, sorts and pages a loaded collection (API representation of each object).
 * 422 naming every problem that needs the collection to be seen: filter values not of the attribute's type,
 * operations that do not apply to it, unknown or unsortable sort attributes.
 */
export function applyList<T extends object>(items: readonly T[], query: ListQuery, options: ListOptions): ListPage<T> {
  const plan = planList(items, query, options);
  if (plan.problems.length > 0) throw unprocessable(plan.problems);
  return runPlan(items, query, options, plan);
}

/** parseListQuery + applyList in one call, reporting the problems of both together in one 422. */
export function listFromQuery<T extends object>(
  items: readonly T[],
  query: Record<string, string | undefined>,
  options: ListOptions,
): ListPage<T> {
  const { listQuery, problems } = readListQuery(query);
  const plan = planList(items, listQuery, options);
  const all = [...problems, ...plan.problems];
  if (all.length > 0) throw unprocessable(all);
  return runPlan(items, listQuery, options, plan);
}
