import { describe, expect, it } from 'vitest';
import { repeatedQueryParameter, refuseRepeatedQuery } from '#lib/http/context.ts';
import { HttpError } from '#lib/api-shapes/http-errors.ts';
import { couldBeId, impossiblePathId, nounOf } from '#lib/http/path-ids.ts';
import { matchPath, ROUTES } from '#lib/http/routes.ts';
import { queryParameters, rawErrorResponse, requestTarget } from '#lib/local/gateway.ts';

describe('ids in paths', () => {
  it('every id form can be an id: ULID, prefix id, tiny id', () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'sch_a1B2c3D4e5F6', 'mw_abcdefghij', '42', 'nonsense']) expect(couldBeId(id), id).toBe(true);
  });

  it('too long, empty, or characters no id has: cannot be an id', () => {
    for (const id of ['x'.repeat(65), '', '%E0%A4%A', '..', 'a/b', 'a b', 'é', '\u0000', 'sch-x', 'a.b', '__proto__\n']) expect(couldBeId(id), id).toBe(false);
  });

  it('404 names the kind the route addresses, for every route with an id', () => {
    for (const route of ROUTES.filter((r) => r.path.includes('{id}'))) {
      expect(nounOf(route.path, 'id'), route.path).not.toBe('Resource');
      const refused = impossiblePathId(route.path, { id: 'x'.repeat(10_000) });
      expect(refused?.status).toBe(404);
    }
    expect(impossiblePathId('/api/v4/teams/{id}/alerts', { id: '%E0%A4%A' })?.messages).toEqual(['Team not found']);
    expect(impossiblePathId('/api/v4/alerts/{id}/comments', { id: '..' })?.messages).toEqual(['Alert not found']);
    expect(impossiblePathId('/integration/{id}', { id: 'a'.repeat(65) })?.messages).toEqual(['Integration not found']);
    expect(impossiblePathId('/api/v4/teams/{id}', { id: 'tem_a1B2c3D4e5F6' })).toBeUndefined();
  });

  it('matchPath keeps a malformed percent-encoding as sent instead of throwing', () => {
    expect(matchPath('/api/v4/users/{id}', '/api/v4/users/%E0%A4%A')).toEqual({ id: '%E0%A4%A' });
    expect(matchPath('/api/v4/users/{id}', '/api/v4/users/sch%5Fx')).toEqual({ id: 'sch_x' });
  });
});

describe('repeated query parameters', () => {
  it('finds the first name given twice, in the raw query string', () => {
    expect(repeatedQueryParameter('sort=a&sort=b')).toBe('sort');
    expect(repeatedQueryParameter('limit=1&q=x&ops=a&limit=2')).toBe('limit');
    expect(repeatedQueryParameter('a%5B%5D=1&a[]=2')).toBe('a[]');
    expect(repeatedQueryParameter('sort=a,b&limit=2')).toBeUndefined();
    expect(repeatedQueryParameter('')).toBeUndefined();
    expect(repeatedQueryParameter(undefined)).toBeUndefined();
  });

  it('422 naming the parameter', () => {
    try {
      refuseRepeatedQuery('direction=asc&direction=desc');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(422);
      expect((error as HttpError).messages).toEqual(['query parameter direction is given more than once']);
    }
  });
});

describe('the local gateway builds events as API Gateway does', () => {
  it('splits the raw path from the raw query string, untouched', () => {
    expect(requestTarget('/api/v4/users/%E0%A4%A?a=%ZZ&b')).toEqual({ path: '/api/v4/users/%E0%A4%A', rawQueryString: 'a=%ZZ&b' });
    expect(requestTarget('/api/v4/users')).toEqual({ path: '/api/v4/users', rawQueryString: '' });
  });

  it('a request target that is not a path is a 400', () => {
    for (const target of ['*', 'http://[bad', '']) expect(() => requestTarget(target)).toThrow(HttpError);
  });

  it('queryStringParameters: decoded values, repeats joined with commas, empty values kept', () => {
    expect(queryParameters('sort=a&sort=b&q=%C3%A9t%C3%A9&flag&x=%ZZ')).toEqual({ sort: 'a,b', q: 'été', flag: '', x: '%ZZ' });
    expect(Object.getPrototypeOf(queryParameters('__proto__=1&constructor=2'))).toBe(Object.prototype);
    expect(queryParameters('__proto__=1&__proto__=2')).toEqual(JSON.parse('{"__proto__":"1,2"}'));
  });

  it('parser refusals are complete HTTP responses with the JSON error body', () => {
    const response = rawErrorResponse('HPE_HEADER_OVERFLOW');
    const [head, body] = response.split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ]);
    expect(JSON.parse(body)).toEqual({ errors: [{ message: 'The request header section is larger than the limit' }], code: 431 });
    expect(JSON.parse(rawErrorResponse('HPE_SOMETHING_ELSE').split('\r\n\r\n')[1]!)).toEqual({ errors: [{ message: 'Malformed HTTP request' }], code: 400 });
  });
});
