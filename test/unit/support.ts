// What unit tests share: reading the messages of the 422 a validation throws.
import type { z } from 'zod';
import { DomainError } from '#lib/errors.ts';
import { HttpError } from '#lib/api-shapes/http-errors.ts';
import { STATUS_OF_KIND } from '#lib/http/responses.ts';
import { validate } from '#lib/api-shapes/validate.ts';

/** The messages of a failure the API answers 422: a domain error of a 422 kind, or a transport 422. */
function unprocessableMessages(error: unknown): string[] | undefined {
  if (error instanceof DomainError && STATUS_OF_KIND[error.kind] === 422) return [...error.messages];
  if (error instanceof HttpError && error.status === 422) return [...error.messages];
  return undefined;
}

/** The messages of the 422 that `run` throws; fails when it throws anything else, or nothing. */
export function messagesOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    const messages = unprocessableMessages(error);
    if (messages) return messages;
    throw error;
  }
  throw new Error('expected a 422');
}

/** The 422 messages of validating `input` with `schema`; [] when the input is valid. */
export function validationMessages(schema: z.ZodType, input: unknown): string[] {
  try {
    validate(schema, input);
  } catch (error) {
    const messages = unprocessableMessages(error);
    if (messages) return messages;
    throw error;
  }
  return [];
}
