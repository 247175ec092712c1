import { z } from 'zod';
import { invalid } from '../errors.ts';
import { noteFieldsRead } from './unknown-fields.ts';

/** For a service that parses a body its own way (old field names first): the fields it reads are known. */
export { noteFieldsRead };

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[') || 'body';
}

/** Turns zod issues into one message per problem, each starting with the field it is about. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function issueMessages(error: z.ZodError, input: unknown): string[] {
  return error.issues.map((issue) => {
    const field = fieldOf(issue.path);
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `${field} is required`;
    if (issue.code === 'unrecognized_keys') return `${field}: unknown parameters ${issue.keys.join(', ')}`;
    return `${field} ${issue.message}`;
  });
}

/**
 * Validates input with a schema; 422 naming every problem when it does not fit. The fields the schema takes are
 * noted, so the answer's Warning names the body's others (lib/api-shapes/unknown-fields.ts). The failure is a domain
 * `invalid` error, which lib/http/responses.ts answers 422 naming each field.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  noteFieldsRead(input, schema);
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(issueMessages(result.error, input));
  return result.data;
}
