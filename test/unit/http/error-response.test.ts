import { describe, expect, it } from 'vitest';
import { errorResponse } from '#lib/http/responses.ts';
import { HttpError } from '#lib/api-shapes/http-errors.ts';
import { conflict, forbidden, invalid, limitExceeded, lostRace, notFound, unauthenticated } from '#lib/errors.ts';

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

describe('errorResponse for domain errors', () => {
  it.each([
    [invalid(['name is required', 'rules line 2: bad']), 422],
    [limitExceeded('An account can hold at most 5000 team objects'), 422],
    [notFound('Team'), 404],
    [conflict('Team is in use'), 409],
    [lostRace('Team was changed by another request; retry'), 409],
    [forbidden('Only account admins can change configuration'), 403],
    [unauthenticated('Invalid API key'), 401],
  ])('maps %s to its status with every message', (error, status) => {
    const result = errorResponse(error);
    expect(result.statusCode).toBe(status);
    expect(JSON.parse(result.body)).toEqual({ errors: error.messages.map((message) => ({ message })), code: status });
  });
});
