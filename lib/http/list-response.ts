import type { ApiResponse } from './context.ts';
import { ok } from './context.ts';
import { listFromSource, type ListOptions, type ListSource } from '../list-engine/index.ts';

/**
 * Every list endpoint answers through here. A source that can read its collection in key order answers the
 * common case (no filter, no q, default order) in O(page); a plain array is a collection already loaded.
 */
export async function listResponse<T extends object>(
  objects: ListSource<T> | T[],
  query: Record<string, string | undefined>,
  options: ListOptions,
): Promise<ApiResponse> {
  const source: ListSource<T> = Array.isArray(objects) ? { all: async () => objects } : objects;
  return ok(await listFromSource(source, query, options));
}

/** A per-item view (an alert's or a broadcast's logs, notifications…): oldest first unless the query sorts otherwise. */
export const oldestFirst = (query: Record<string, string | undefined>, attribute = 'created_at'): Record<string, string | undefined> =>
  query.sort === undefined ? { ...query, sort: attribute, direction: query.direction ?? 'asc' } : query;
