// GET /api/v4/openapi.json through the local gateway: open to anyone, the same document docs/openapi.json holds.
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES as ROUTES } from '#lib/http/routes.ts';
import { buildOpenApiDocument } from '#lib/http/openapi/document.ts';
import { request, useTestStack } from './helpers.ts';

beforeAll(() => {
  useTestStack();
});

describe('GET /api/v4/openapi.json', () => {
  it('answers the OpenAPI 3.1 document without an API key', async () => {
    const reply = await request('GET', '/api/v4/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/application\/json/);
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(Object.keys(reply.body.paths as object)).toEqual([...new Set(ROUTES.map((r) => r.path))]);
  });

  it('ignores a wrong API key (the row is public) and answers 405 to other methods', async () => {
    expect((await request('GET', '/api/v4/openapi.json', { key: 'not-a-key' })).status).toBe(200);
    const reply = await request('POST', '/api/v4/openapi.json');
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
  });
});
