// List requests' query parameters: limit, offset/page, sort, direction, q, ops and the filters (docs/lists.md).

import { invalid } from '../errors.ts';
import { DEFAULT_PAGE_SIZE, MAX_LIST_OFFSET, MAX_PAGE_SIZE } from '../limits.ts';

export const LIST_OPS = ['equals', 'ne', 'lt', 'lte', 'gt', 'gte', 'beginsWith', 'contains', 'between'] as const;
export type ListOp = (typeof LIST_OPS)[number];

/** Query parameters with a meaning of their own; every other parameter is a filter. */
export const RESERVED_LIST_PARAMETERS: readonly string[] = ['limit', 'offset', 'page', 'ops', 'sort', 'direction', 'q'];

// The page size limits live in lib/limits.ts (docs/limits.md).
export const DEFAULT_LIMIT = DEFAULT_PAGE_SIZE;
export const MAX_LIMIT = MAX_PAGE_SIZE;
/** The deepest page: every list reads at least the objects it skips (docs/lists.md). */
export const MAX_OFFSET = MAX_LIST_OFFSET;

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

const OP_SET: ReadonlySet<string> = new Set(LIST_OPS);
const RESERVED: ReadonlySet<string> = new Set(RESERVED_LIST_PARAMETERS);
const DIGITS = /^\d+$/;

/** Parses the query parameters of a list request; 422 naming every problem found. */
export function parseListQuery(query: Record<string, string | undefined>): ListQuery {
  const { listQuery, problems } = readListQuery(query);
  if (problems.length > 0) throw invalid(problems);
  return listQuery;
}

/** Parses what it can and collects the problems (problematic parameters are left out of the query). */
export function readListQuery(query: Record<string, string | undefined>): { listQuery: ListQuery; problems: string[] } {
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
    else if (n > MAX_OFFSET) problems.push(`offset must be at most ${MAX_OFFSET}`);
    else offset = n;
  } else if (rawPage !== undefined) {
    const n = integerOf(rawPage);
    if (n === undefined || n < 1) problems.push('page must be an integer of 1 or more');
    else if ((n - 1) * limit > MAX_OFFSET) problems.push(`page must be at most ${Math.floor(MAX_OFFSET / limit) + 1} with limit ${limit} (it skips at most ${MAX_OFFSET} elements)`);
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

export function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
