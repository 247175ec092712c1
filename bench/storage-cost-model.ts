// The pure side of the storms bench's part "costs" (bench/storage-costs.ts): DynamoDB Local works through one request
// at a time, so at saturation each call costs 1000 / (calls a second) ms of its time. From costs measured per command
// (a transaction's as a line over its items) the storage time of any traced create is predicted, and with it the
// highest rate, and ratio, the create can reach on this machine. docs/benchmarks.md, "Where the storm ratio stops".
import type { StorageCall } from './storage-counts.ts';

/** A straight line y = intercept + slope · x. */
export interface Line {
  intercept: number;
  slope: number;
}

/** The least-squares line through `points` (at least two distinct x). Pure. */
export function fitLine(points: readonly { x: number; y: number }[]): Line {
  const n = points.length;
  const meanX = points.reduce((s, p) => s + p.x, 0) / n;
  const meanY = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - meanX) ** 2, 0);
  if (n < 2 || sxx === 0) throw new RangeError('a line needs at least two points with different x');
  const slope = points.reduce((s, p) => s + (p.x - meanX) * (p.y - meanY), 0) / sxx;
  return { intercept: meanY - slope * meanX, slope };
}

/** Milliseconds of storage time per call at saturation, from calls completed per second. Pure. */
export const msPerCall = (ratePerSecond: number): number => 1000 / ratePerSecond;

/** What each kind of call costs DynamoDB Local, in ms of its time: a transaction and a batch read by their items. */
export interface CostModel {
  transaction: Line;
  batchGet: Line;
  getItem: number;
  putItem: number;
  updateItem: number;
  /** A Query, by the items it reads (the sweeper's and lists' reads; no create makes one today). */
  query: Line;
}

/** The modelled cost of one traced call. A command the model does not know costs as a single-item write. Pure. */
export function callCost(model: CostModel, call: Pick<StorageCall, 'command' | 'itemsRead' | 'itemsWritten'>): number {
  const at = (line: Line, x: number) => line.intercept + line.slope * x;
  switch (call.command) {
    case 'TransactWriteItemsCommand':
      return at(model.transaction, call.itemsWritten);
    case 'BatchGetItemCommand':
      return at(model.batchGet, Math.max(1, call.itemsRead));
    case 'GetItemCommand':
      return model.getItem;
    case 'PutItemCommand':
      return model.putItem;
    case 'QueryCommand':
      return at(model.query, call.itemsRead);
    default:
      return model.updateItem;
  }
}

/** The storage time a set of calls costs, in ms. Pure. */
export const predictedMs = (model: CostModel, calls: readonly Pick<StorageCall, 'command' | 'itemsRead' | 'itemsWritten'>[]): number =>
  calls.reduce((ms, call) => ms + callCost(model, call), 0);

/**
 * The highest rate a create costing `createMs` can reach when the storage is the only bound, and that rate as a
 * fraction of a raw transaction of `yardstickItems` puts (the goal's ratio, at best). Pure.
 */
export function ceilingOf(model: CostModel, createMs: number, yardstickItems: number): { perSecond: number; ratio: number } {
  const yardstickMs = model.transaction.intercept + model.transaction.slope * yardstickItems;
  return { perSecond: 1000 / createMs, ratio: yardstickMs / createMs };
}
