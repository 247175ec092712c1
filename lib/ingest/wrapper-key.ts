// The integration's wrapper key: a JMESPath expression naming (or building) the object that holds the service's
// fields (docs/ingest.md, "Reading a payload"). Read with the JMESPath Community library, never by hand.
import { compile, search, type JSONValue } from '@jmespath-community/jmespath';

/** Why a wrapper key is not a JMESPath expression (the parser's message), or undefined when it is one. */
export function wrapperKeyProblem(expression: string): string | undefined {
  try {
    compile(expression);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface Unwrapped {
  /** The object whose keys are the service's fields. */
  fields: Record<string, unknown>;
  /** Set when the wrapper key did not give an object and the whole payload was read instead. */
  note?: string;
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

/**
 * The value of the wrapper key when it is an object; otherwise (no key, an expression that finds nothing, gives
 * something else than an object, or cannot be read) the whole payload, with a note saying why.
 */
export function unwrapPayload(payload: Record<string, unknown>, wrapperKey: string | null | undefined): Unwrapped {
  if (!wrapperKey || wrapperKey.trim() === '') return { fields: payload };
  let value: unknown;
  try {
    value = search(payload as JSONValue, wrapperKey);
  } catch (error) {
    return { fields: payload, note: `Wrapper key ${wrapperKey} could not be read (${(error as Error).message}); read the whole payload` };
  }
  if (isJsonObject(value)) return { fields: value };
  return { fields: payload, note: `Wrapper key ${wrapperKey} gave ${kindOf(value)}, not an object; read the whole payload` };
}
