// The storms bench's cost model (bench/storage-cost-model.ts): the fitted line, what each call costs, and the
// ceiling a create's storage time allows.
import { describe, expect, it } from 'vitest';
import { callCost, ceilingOf, fitLine, msPerCall, predictedMs, type CostModel } from '../../../bench/storage-cost-model.ts';

const model: CostModel = {
  transaction: { intercept: 1.3, slope: 0.45 },
  batchGet: { intercept: 0.8, slope: 0.05 },
  getItem: 0.75,
  putItem: 0.8,
  updateItem: 1.1,
  query: { intercept: 0.9, slope: 0.02 },
};
const call = (command: string, itemsRead = 0, itemsWritten = 0) => ({ command: `${command}Command`, itemsRead, itemsWritten });

describe('fitLine', () => {
  it('finds the line through points on it', () => {
    const line = fitLine([1, 4, 10, 19, 28].map((x) => ({ x, y: 1.3 + 0.45 * x })));
    expect(line.intercept).toBeCloseTo(1.3, 10);
    expect(line.slope).toBeCloseTo(0.45, 10);
  });

  it('finds the least-squares line through scattered points', () => {
    // y = 1 + 2x, with +1 and −1 alternating: the errors cancel.
    const line = fitLine([{ x: 0, y: 2 }, { x: 1, y: 2 }, { x: 2, y: 6 }, { x: 3, y: 6 }]);
    expect(line.slope).toBeCloseTo(1.6, 10);
    expect(line.intercept).toBeCloseTo(1.6, 10);
  });

  it('refuses fewer than two distinct x', () => {
    expect(() => fitLine([{ x: 3, y: 1 }])).toThrow(RangeError);
    expect(() => fitLine([{ x: 3, y: 1 }, { x: 3, y: 2 }])).toThrow(RangeError);
  });
});

describe('callCost and predictedMs', () => {
  it('costs a transaction by the items it writes and a batch read by the keys it finds', () => {
    expect(callCost(model, call('TransactWriteItems', 0, 26))).toBeCloseTo(1.3 + 0.45 * 26, 10);
    expect(callCost(model, call('BatchGetItem', 2))).toBeCloseTo(0.9, 10);
    // A batch that found nothing still went to the storage once.
    expect(callCost(model, call('BatchGetItem', 0))).toBeCloseTo(0.85, 10);
    expect(callCost(model, call('Query', 10))).toBeCloseTo(1.1, 10);
  });

  it('costs single-item calls as measured, and an unknown command as a single-item write', () => {
    expect(callCost(model, call('GetItem', 1))).toBe(0.75);
    expect(callCost(model, call('PutItem', 0, 1))).toBe(0.8);
    expect(callCost(model, call('UpdateItem', 0, 1))).toBe(1.1);
    expect(callCost(model, call('DeleteItem', 0, 1))).toBe(1.1);
  });

  it('sums a create: a webhook create paging one person on two channels', () => {
    const calls = [call('BatchGetItem', 2), call('UpdateItem', 0, 1), call('UpdateItem', 0, 1), call('TransactWriteItems', 0, 26), call('GetItem', 1), call('GetItem', 1), call('TransactWriteItems', 0, 3), call('TransactWriteItems', 0, 3)];
    expect(predictedMs(model, calls)).toBeCloseTo(0.9 + 2.2 + (1.3 + 11.7) + 1.5 + 2 * (1.3 + 1.35), 10);
  });
});

describe('ceilingOf', () => {
  it('answers the rate a create allows and its ratio to a raw transaction of the yardstick size', () => {
    const { perSecond, ratio } = ceilingOf(model, 20, 19);
    expect(perSecond).toBe(50);
    expect(ratio).toBeCloseTo((1.3 + 0.45 * 19) / 20, 10);
  });

  it('turns calls a second into ms per call', () => {
    expect(msPerCall(100)).toBe(10);
  });
});
