import type { ApiResponse } from './context.ts';
import { ok } from './context.ts';
import { listFromQuery } from './list.ts';

/** Every list endpoint answers through here: the list engine over the API objects of a bounded collection. */
export function listResponse<T extends object>(
  objects: T[],
  query: Record<string, string | undefined>,
  options: { searchFields: string[]; sortable?: string[] },
): ApiResponse {
  return ok(listFromQuery(objects, query, options));
}
