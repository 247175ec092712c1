// The integration's wrapper key: a JMESPath expression naming (or building) the object that holds the service's
// fields (docs/ingest.md, "Reading a payload"). Read with the JMESPath Community library, never by hand; only the
// worker evaluates it, within a budget (jmespath-budget.ts).
import { compile, type JSONValue } from '@jmespath-community/jmespath';
import { searchWithinBudget, WrapperKeyBudgetError } from './jmespath-budget.ts';
import { MAX_WRAPPER_KEY_DEPTH, MAX_WRAPPER_KEY_LENGTH, MAX_WRAPPER_KEY_PROJECTIONS, MAX_WRAPPER_KEY_TEXT } from '../limits.ts';

type Ast = ReturnType<typeof compile>;
interface AstNode {
  readonly type: string;
  readonly [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
const childrenOf = (node: AstNode): AstNode[] =>
  Object.values(node).flatMap((value) => (Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : []));

const PROJECTIONS: ReadonlySet<string> = new Set(['Projection', 'ValueProjection', 'FilterProjection']);
const count = (n: number) => n.toLocaleString('en-US');

/** A literal number argument over MAX_WRAPPER_KEY_TEXT: a padding width or replacement count no payload needs. */
function literalArgumentProblem(node: AstNode): string | undefined {
  if (node.type !== 'Function') return undefined;
  const args = node.children as AstNode[];
  const at = node.name === 'replace' ? 3 : node.name === 'pad_left' || node.name === 'pad_right' ? 1 : -1;
  const arg = args[at];
  if (arg?.type !== 'Literal' || typeof arg.value !== 'number' || arg.value <= MAX_WRAPPER_KEY_TEXT) return undefined;
  const what = node.name === 'replace' ? 'count' : 'width';
  return `${String(node.name)}() ${what} ${arg.value} is more than ${count(MAX_WRAPPER_KEY_TEXT)}`;
}

/** The first limit the expression's shape breaks: nesting, nested projections, a literal argument out of bounds. */
function shapeProblem(root: AstNode): string | undefined {
  const walk = (node: AstNode, depth: number, projections: number): string | undefined => {
    if (depth > MAX_WRAPPER_KEY_DEPTH) return `it nests more than ${MAX_WRAPPER_KEY_DEPTH} levels deep`;
    const nested = projections + (PROJECTIONS.has(node.type) ? 1 : 0);
    if (nested > MAX_WRAPPER_KEY_PROJECTIONS) return `it nests more than ${MAX_WRAPPER_KEY_PROJECTIONS} projections ([*], [], [?…], .*)`;
    const problem = literalArgumentProblem(node);
    if (problem) return problem;
    for (const child of childrenOf(node)) {
      const found = walk(child, depth + 1, nested);
      if (found) return found;
    }
    return undefined;
  };
  return walk(root, 1, 0);
}

/**
 * Why a wrapper key may not be saved, worded to follow the field's name, or undefined when it may: at most
 * MAX_WRAPPER_KEY_LENGTH characters, JMESPath syntax (the parser's message), nesting and nested projections within
 * their limits, no literal padding width or replacement count beyond MAX_WRAPPER_KEY_TEXT.
 */
export function wrapperKeyProblem(expression: string): string | undefined {
  if (expression.length > MAX_WRAPPER_KEY_LENGTH) return `is longer than ${count(MAX_WRAPPER_KEY_LENGTH)} characters`;
  let ast: Ast;
  try {
    ast = compile(expression);
  } catch (error) {
    return `must be a JMESPath expression such as data or data.attributes (${(error as Error).message})`;
  }
  const shape = shapeProblem(ast as unknown as AstNode);
  return shape ? `costs more than a wrapper key may on every request: ${shape}` : undefined;
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export type Unwrapped =
  | {
      /** The object whose keys are the service's fields. */
      fields: Record<string, unknown>;
      /** Set when the wrapper key did not give an object and the whole payload was read instead. */
      note?: string;
      overBudget?: undefined;
    }
  | {
      /** The wrapper key went over its budget: the request is ignored, with this reason. */
      overBudget: string;
      fields?: undefined;
      note?: undefined;
    };

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * The value of the wrapper key when it is an object; otherwise (no key, an expression that finds nothing, gives
 * something else than an object, or cannot be read) the whole payload, with a note saying why. An expression that
 * goes over its budget (jmespath-budget.ts) gives `overBudget` instead: the request is not read at all.
 */
export function unwrapPayload(payload: Record<string, unknown>, wrapperKey: string | null | undefined): Unwrapped {
  if (!wrapperKey || wrapperKey.trim() === '') return { fields: payload };
  let value: unknown;
  try {
    value = searchWithinBudget(payload as JSONValue, compile(wrapperKey));
  } catch (error) {
    if (error instanceof WrapperKeyBudgetError) return { overBudget: `Wrapper key ${wrapperKey} went over its budget: ${error.message}` };
    return { fields: payload, note: `Wrapper key ${wrapperKey} could not be read (${(error as Error).message}); read the whole payload` };
  }
  if (isJsonObject(value)) return { fields: value };
  return { fields: payload, note: `Wrapper key ${wrapperKey} gave ${kindOf(value)}, not an object; read the whole payload` };
}

/** Plain paths of the wrapper keys a warm webhook process has seen (undefined: not a plain path). Bounded. */
const plainPaths = new Map<string, readonly string[] | undefined>();
const KEPT_PATHS = 500;

/** The field names of a wrapper key that only names fields (`data`, `data.attributes`, `"alert-body".fields`). */
function namesOf(node: AstNode): string[] | undefined {
  if (node.type === 'Field') return [node.name as string];
  if (node.type !== 'Subexpression') return undefined;
  const left = namesOf(node.left as AstNode);
  const right = left && namesOf(node.right as AstNode);
  return left && right ? [...left, ...right] : undefined;
}

/**
 * The fields a webhook request carries when its wrapper key is a plain path, found by reading that path as JMESPath
 * would (a field of an object, else nothing) without running the expression: the webhook only parses it
 * (docs/ingest.md, "The queue: ordering and deduplication"). `undefined` for any other expression: only the
 * worker evaluates those. A path that finds no object gives the whole payload, as the worker then reads it.
 */
export function plainPathFields(payload: Record<string, unknown>, wrapperKey: string): Record<string, unknown> | undefined {
  let names = plainPaths.get(wrapperKey);
  if (!plainPaths.has(wrapperKey)) {
    try {
      names = namesOf(compile(wrapperKey) as unknown as AstNode);
    } catch {
      names = undefined;
    }
    if (plainPaths.size >= KEPT_PATHS) plainPaths.delete(plainPaths.keys().next().value as string);
    plainPaths.set(wrapperKey, names);
  }
  if (!names) return undefined;
  let value: unknown = payload;
  for (const name of names) value = isJsonObject(value) ? (value[name] ?? null) : null;
  return isJsonObject(value) ? value : payload;
}
