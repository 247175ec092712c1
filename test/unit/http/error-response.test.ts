import { describe, expect, it } from 'vitest';
import { errorResponse } from '#lib/http/responses.ts';
import { HttpError } from '#lib/http/errors.ts';

describe('errorResponse', () => {
  it('renders an HttpError with its status, messages and headers', () => {
    const result = errorResponse(new HttpError(405, 'nope', { allow: 'GET' }));
    expect(result.statusCode).toBe(405);
    expect(result.headers.allow).toBe('GET');
    expect(JSON.parse(result.body)).toEqual({ errors: [{ message: 'nope' }], code: 405 });
  });

  it('answers 409 for a transaction cancelled by a failed condition, since nothing was written', () => {
    const cancelled = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    const result = errorResponse(cancelled);
    expect(result.statusCode).toBe(409);
    expect(JSON.parse(result.body)).toEqual({ errors: [{ message: 'The object was changed by another request at the same time; retry' }], code: 409 });
  });

  it('answers 500 without internals for anything else', () => {
    const result = errorResponse(new TypeError('secret detail at /var/task/index.js:1'));
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('secret');
    expect(JSON.parse(result.body)).toEqual({ errors: [{ message: 'Internal server error' }], code: 500 });
  });
});
