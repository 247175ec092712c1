// The list engine behind every list endpoint: pagination, typed filters (`ops`), sorting and `q` search over the
// API representation of a bounded collection. Client-facing rules and every decision: docs/lists.md.
//   query.ts   parameters → ListQuery (422 on parameter problems)
//   shape.ts   what each attribute holds (fields hidden from the caller hold nothing); query values typed to match
//   filters.ts filters and q as predicates
//   sort.ts    default order and sort=
//   apply.ts   a loaded collection → the page
//   source.ts  the page from a ListSource: key-order reads for the common case, else the whole collection
export { applyList, listFromQuery } from './apply.ts';
export {
  DEFAULT_LIMIT,
  LIST_OPS,
  MAX_LIMIT,
  parseListQuery,
  RESERVED_LIST_PARAMETERS,
  type ListFilter,
  type ListOp,
  type ListOptions,
  type ListPage,
  type ListQuery,
} from './query.ts';
export { listFromSource, MAX_KEY_ORDER_READ, needsOnlyKeyOrder, pageFromKeyOrder, type KeyOrderPage, type ListSource } from './source.ts';
export { mergeInKeyOrder, sourceOverPartitions, type PartitionReader } from './source.ts';
export { hideFields, HIDDEN_FIELDS } from './shape.ts';
