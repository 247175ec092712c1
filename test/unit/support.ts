// What unit tests share: reading the messages of the 422 a validation throws.
import type { z } from 'zod';
import { isDomainError } from '#lib/errors.ts';
import { validate } from '#lib/http/validate.ts';

/** The messages of the 422 that `run` throws; fails when it throws anything else, or nothing. */
export function messagesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (isDomainError(error, 'invalid')) return [...error.messages];
    throw error;
  }
  throw new Error('expected a 422');
}

/** The 422 messages of validating `input` with `schema`; [] when the input is valid. */
export function validationMessages(schema: z.ZodType, input: unknown): string[] {
  try {
    validate(schema, input);
  } catch (error) {
    if (isDomainError(error, 'invalid')) return [...error.messages];
    throw error;
  }
  return [];
}
