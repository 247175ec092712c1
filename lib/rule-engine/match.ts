import type { Query } from './document.ts';
import { siftTester, type OperationCreator } from './sift.ts';
import { evaluateDay, evaluateNow, evaluateTimeBetween } from './special-functions.ts';
import { isMapping } from './values.ts';

/** What rules match against (docs/rules.md, "What a query sees"): the built alert, its source log and whether that parsed. */
export interface MatchData {
  readonly always: true;
  readonly alert: unknown;
  readonly log: unknown;
  readonly log_parsed: boolean;
}

export function matchDataOf(alert: unknown, log: unknown = {}, logParsed = false): MatchData {
  return { always: true, alert, log, log_parsed: logParsed };
}

/** A sift operation whose answer is fixed when the query is built: special functions depend only on now. */
class ConstantOperation {
  readonly propop = false;
  readonly result: boolean;
  keep = false;
  done = false;
  constructor(result: boolean) {
    this.result = result;
  }
  reset(): void {
    this.keep = false;
    this.done = false;
  }
  next(): void {
    this.keep = this.result;
    this.done = true;
  }
}

type Evaluator = (params: Readonly<Record<string, unknown>>, now: Date) => boolean;

const constantOf =
  (evaluate: Evaluator, now: Date): OperationCreator =>
  (params: unknown) =>
    new ConstantOperation(isMapping(params) && evaluate(params, now));

function specialOperations(now: Date): Record<string, OperationCreator> {
  return {
    $day: constantOf(evaluateDay, now),
    $now: constantOf(evaluateNow, now),
    $timeBetween: constantOf(evaluateTimeBetween, now),
    // Validation refuses $where; this keeps a query that skipped validation from running code.
    $where: () => {
      throw new Error('$where is not allowed');
    },
  };
}

/**
 * Whether `data` matches `query` at instant `now`, with MongoDB semantics (sift) plus $day, $now and
 * $timeBetween. Never throws: a query sift cannot build, or data it chokes on, simply does not match.
 */
export function matchQuery(query: Query, data: unknown, now: Date): boolean {
  try {
    return siftTester(query, specialOperations(now))(data);
  } catch {
    return false;
  }
}
