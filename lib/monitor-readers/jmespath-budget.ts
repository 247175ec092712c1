// A wrapper key runs under a budget (docs/ingest.md, "The wrapper key's budget"): the JMESPath Community interpreter,
// with every node it visits charged one step plus the size of what the node gives (characters of a text, elements of
// a list, keys of an object), equality compared node by node, and the functions whose cost does not follow their
// input (padding, replace, join, to_string, trimming) checked before they run. Counting, not a clock: the same
// payload always gives the same answer.
import { TreeInterpreter, type JSONValue } from '@jmespath-community/jmespath';
import { MAX_WRAPPER_KEY_STEPS, MAX_WRAPPER_KEY_TEXT } from '../limits.ts';

type Interpreter = typeof TreeInterpreter;
type Node = Parameters<Interpreter['visit']>[0];
type Value = Parameters<Interpreter['visit']>[1];
type Runtime = Interpreter['runtime'];

/** A wrapper key that went over its budget on one payload; the message says how. */
export class WrapperKeyBudgetError extends Error {
  override name = 'WrapperKeyBudgetError';
}

const steps = MAX_WRAPPER_KEY_STEPS.toLocaleString('en-US');
const characters = MAX_WRAPPER_KEY_TEXT.toLocaleString('en-US');

class Budget {
  #left = MAX_WRAPPER_KEY_STEPS;
  /** Key counts of the objects seen, so a large object costs its size each time without being counted again. */
  readonly #keys = new WeakMap<object, number>();

  spend(cost: number): void {
    this.#left -= cost;
    if (this.#left < 0) throw new WrapperKeyBudgetError(`it needs more than ${steps} steps`);
  }

  sizeOf(value: unknown): number {
    if (typeof value === 'string' || Array.isArray(value)) return value.length;
    if (typeof value !== 'object' || value === null) return 0;
    let size = this.#keys.get(value);
    if (size === undefined) {
      size = Object.keys(value).length;
      this.#keys.set(value, size);
    }
    return size;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && Object.prototype.toString.call(value) === '[object Object]';

/** The library's strictDeepEqual, one step per node: lists built from shared parts could otherwise hold 2^40 of them. */
function equal(first: unknown, second: unknown, budget: Budget): boolean {
  budget.spend(1);
  if (first === second) return true;
  if (typeof first !== typeof second) return false;
  if (Array.isArray(first) && Array.isArray(second)) {
    return first.length === second.length && first.every((item, i) => equal(item, second[i], budget));
  }
  if (isPlainObject(first) && isPlainObject(second)) {
    const keys = Object.keys(first);
    const others = Object.keys(second);
    return keys.length === others.length && keys.every((key) => Object.hasOwn(second, key) && equal(first[key], second[key], budget));
  }
  return false;
}

/** Characters of `value` as JSON, counted until `limit` is passed (then `limit + 1`): shared parts count each time. */
export function jsonLengthAtMost(value: unknown, limit: number): number {
  let total = 0;
  const walk = (node: unknown): void => {
    if (total > limit) return;
    if (typeof node === 'string') total += node.length + 2;
    else if (Array.isArray(node)) {
      total += node.length + 1;
      for (const item of node) walk(item);
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      total += entries.length + 1;
      for (const [key, item] of entries) {
        total += key.length + 3;
        walk(item);
      }
    } else total += String(node).length;
  };
  walk(value);
  return Math.min(total, limit + 1);
}

function checkedText(length: number, what: string): number {
  if (length > MAX_WRAPPER_KEY_TEXT) throw new WrapperKeyBudgetError(`${what} would build more than ${characters} characters`);
  return length;
}

/** JavaScript's whitespace and U+0085, the library's default trim set. */
const DEFAULT_TRIM = /[\s\x85]/;

/** Linear trimming with the library's meaning (its trim_right regex backtracks quadratically on long runs of spaces). */
function trimmer(left: boolean, right: boolean) {
  return ([subject, chars]: unknown[]): string => {
    const text = subject as string;
    const set = typeof chars === 'string' && chars !== '' ? chars : undefined;
    const trimmed = (unit: string) => (set === undefined ? DEFAULT_TRIM.test(unit) : set.includes(unit));
    let start = 0;
    let end = text.length;
    if (left) while (start < end && trimmed(text[start] as string)) start++;
    if (right) while (end > start && trimmed(text[end - 1] as string)) end--;
    return text.slice(start, end);
  };
}

/** Occurrences of `part` in `text` that split/join would replace (every gap between UTF-16 units when it is empty). */
function occurrences(text: string, part: string): number {
  if (part === '') return Math.max(text.length - 1, 0);
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** The functions whose cost or output does not follow the size of their arguments, each checked before it runs. */
function guardFunctions(runtime: Runtime, budget: Budget): void {
  const original = (name: string) => {
    const entry = runtime._functionTable[name];
    if (!entry) throw new Error(`JMESPath has no ${name}()`);
    return entry;
  };
  const guard = (name: string, run: (args: JSONValue[], builtIn: (args: JSONValue[]) => JSONValue) => JSONValue) => {
    const entry = original(name);
    const builtIn = (args: JSONValue[]) => entry._func.call(runtime, args);
    runtime.register(name as never, (args) => run(args as JSONValue[], builtIn), entry._signature, { override: true });
  };
  for (const name of ['pad_left', 'pad_right']) {
    guard(name, (args, builtIn) => {
      const width = args[1];
      if (typeof width === 'number') budget.spend(checkedText(width, `${name} width ${width}`));
      return builtIn(args);
    });
  }
  guard('join', (args, builtIn) => {
    const [glue, list] = args as [string, string[]];
    budget.spend(checkedText(list.reduce((sum, item) => sum + item.length, 0) + glue.length * Math.max(list.length - 1, 0), 'join'));
    return builtIn(args);
  });
  guard('replace', (args, builtIn) => {
    const [subject, part, by, count] = args as [string, string, string, number | null | undefined];
    if (count === 0) return subject;
    if (count === null || count === undefined) {
      budget.spend(checkedText(subject.length + occurrences(subject, part) * (by.length - part.length), 'replace'));
      return builtIn(args);
    }
    if (!Number.isInteger(count) || count < 0) throw new Error('invalid-value: expecting a non-negative integer.');
    if (count > MAX_WRAPPER_KEY_TEXT) throw new WrapperKeyBudgetError(`replace count ${count} is more than ${characters}`);
    // The library replaces the first occurrence `count` times over (so `$&` patterns apply), after allocating an array
    // of `count` entries; done here one replacement at a time, each charged, stopping once nothing changes.
    let text = subject;
    for (let i = 0; i < count; i++) {
      const next = text.replace(part, by);
      budget.spend(checkedText(next.length, 'replace'));
      if (next === text) break;
      text = next;
    }
    return text;
  });
  guard('to_string', (args, builtIn) => {
    budget.spend(checkedText(jsonLengthAtMost(args[0], MAX_WRAPPER_KEY_TEXT), 'to_string'));
    return builtIn(args);
  });
  runtime.register('trim' as never, trimmer(true, true), original('trim')._signature, { override: true });
  runtime.register('trim_left' as never, trimmer(true, false), original('trim_left')._signature, { override: true });
  runtime.register('trim_right' as never, trimmer(false, true), original('trim_right')._signature, { override: true });
}

interface Internals {
  _rootValue: JSONValue;
  _scope: { withScope(scope: unknown): unknown };
  runtime: Runtime;
}

const BaseInterpreter = TreeInterpreter.constructor as new () => Interpreter;

class BudgetedInterpreter extends BaseInterpreter {
  readonly budget: Budget;

  constructor(budget: Budget) {
    super();
    this.budget = budget;
    guardFunctions(this.runtime, budget);
  }

  override visit(node: Node, value: Value): ReturnType<Interpreter['visit']> {
    this.budget.spend(1);
    if (node.type === 'Comparator' && (node.name === 'EQ' || node.name === 'NE')) {
      const same = equal(this.visit(node.left, value), this.visit(node.right, value), this.budget);
      return node.name === 'EQ' ? same : !same;
    }
    const result = super.visit(node, value);
    this.budget.spend(this.budget.sizeOf(result));
    return result;
  }

  /** `let` scopes: the library makes a plain interpreter here, which would run outside the budget. */
  override withScope(scope: Parameters<Interpreter['withScope']>[0]): Interpreter {
    const inner = new BudgetedInterpreter(this.budget);
    const self = this as unknown as Internals;
    const into = inner as unknown as Internals;
    into.runtime._functionTable = self.runtime._functionTable;
    into._rootValue = self._rootValue;
    into._scope = self._scope.withScope(scope) as Internals['_scope'];
    return inner;
  }
}

/**
 * Evaluates a compiled JMESPath expression on `data` within MAX_WRAPPER_KEY_STEPS, and checks its result is at most
 * MAX_WRAPPER_KEY_TEXT characters as JSON. Throws WrapperKeyBudgetError past either, and the library's errors as they are.
 */
export function searchWithinBudget(data: JSONValue, ast: Node): JSONValue {
  const interpreter = new BudgetedInterpreter(new Budget());
  const result = interpreter.search(ast, data);
  if (jsonLengthAtMost(result, MAX_WRAPPER_KEY_TEXT) > MAX_WRAPPER_KEY_TEXT) {
    throw new WrapperKeyBudgetError(`its result is more than ${characters} characters as JSON`);
  }
  return result;
}
