// The API description: a valid OpenAPI 3.1 document (checked by a real validator), one operation per route-table
// row and nothing else, and docs/openapi.json as `npm run openapi` writes it.
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES as ROUTES } from '#lib/http/routes.ts';
import { TOKEN_HEADER } from '#lib/ingest/intake.ts';
import { DESCRIBED_ROUTE_KEYS } from '#lib/http/openapi/operations.ts';
import { buildOpenApiDocument, openApiFileText, openApiJson, WEBHOOK_TOKEN_HEADER } from '#lib/http/openapi/document.ts';

type Document = ReturnType<typeof buildOpenApiDocument>;
type OperationObject = { security?: Record<string, string[]>[]; 'x-hark-role'?: string; responses: Record<string, unknown>; requestBody?: unknown };

const document = buildOpenApiDocument();
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

function operationsOf(doc: Document): Map<string, OperationObject> {
  const found = new Map<string, OperationObject>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, unknown>)[method];
      if (operation) found.set(`${method.toUpperCase()} ${path}`, operation as OperationObject);
    }
  }
  return found;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('the validator refuses a broken document (so the check above means something)', async () => {
    const broken = structuredClone(document) as unknown as Record<string, unknown>;
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has one operation per route-table row and nothing else', () => {
    expect([...operationsOf(document).keys()].sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    expect([...DESCRIBED_ROUTE_KEYS].sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('names each row’s role and asks an API key exactly where the row is not public', () => {
    const operations = operationsOf(document);
    for (const route of ROUTES) {
      const operation = operations.get(`${route.method} ${route.path}`)!;
      expect(operation['x-hark-role'], route.path).toBe(route.role);
      const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
      if (route.role === 'public') expect(schemes, route.path).not.toContain('apiKey');
      else expect(schemes, route.path).toEqual(['apiKey']);
      if (route.role === 'admin') expect(operation.responses['403'], route.path).toBeDefined();
    }
  });

  it('describes request bodies with the zod schemas the handlers validate with', () => {
    const createTeam = operationsOf(document).get('POST /api/v4/teams')!;
    const schema = (createTeam.requestBody as { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> })
      .content['application/json']!.schema;
    expect(schema.properties).toHaveProperty('name');
    expect(schema.properties).toHaveProperty('member_account_user_ids');
    expect(schema.properties.name).toMatchObject({ type: 'string', maxLength: 255 });
  });

  it('describes the Warning header on the success answers of rows that take a JSON body with an API key, and only there', () => {
    const operations = operationsOf(document);
    const headersOf = (key: string, status: string) => (operations.get(key)!.responses[status] as { headers?: Record<string, unknown> }).headers;
    expect(headersOf('POST /api/v4/teams', '201')).toHaveProperty('Warning');
    expect(headersOf('PUT /api/v4/teams/{id}', '200')).toHaveProperty('Warning');
    expect(headersOf('POST /api/v4/alerts', '200')).toHaveProperty('Warning');
    expect(headersOf('GET /api/v4/teams/{id}', '200')).toBeUndefined();
    expect(headersOf('POST /integration/{id}', '200')).toBeUndefined();
  });

  it('answers every failure with the error body', () => {
    const errorSchema = (document.components?.responses?.NotFound as { content: Record<string, { schema: { $ref: string } }> }).content['application/json']!.schema;
    expect(errorSchema.$ref).toBe('#/components/schemas/Error');
    expect(document.components?.schemas?.Error).toMatchObject({ type: 'object', required: ['errors', 'code'] });
  });

  it('names the webhook token header the webhook reads', () => {
    expect(WEBHOOK_TOKEN_HEADER).toBe(TOKEN_HEADER);
  });

  it('is served as the same document', () => {
    expect(JSON.parse(openApiJson())).toEqual(document);
  });

  it('docs/openapi.json is up to date (run `npm run openapi` after changing routes or schemas)', () => {
    expect(readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8')).toBe(openApiFileText());
  });
});
