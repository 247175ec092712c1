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
