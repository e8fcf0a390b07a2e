import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routes, type RouteDef } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';

interface Operation {
  operationId: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

const table = Object.entries(routes) as [string, RouteDef][];

/** What the document should say of a schema, computed here from zod itself. */
const schemaOf = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
};
const keysOf = (schema: z.ZodType | undefined) => Object.keys(schemaOf(schema ?? z.object({})).properties ?? {}).sort();

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: Document;
  let response: Response;
  beforeAll(async () => {
    server = await startTestServer();
    response = await server.api('/api/openapi.json');
    document = (await response.json()) as Document;
  });
  afterAll(() => server.close());

  it('answers anyone, as JSON a cache may keep', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate({ ...document });
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('holds exactly the routes of the table, each with its method and path', () => {
    const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const expected = table.map(([, route]) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(described.sort()).toEqual(expected.sort());
  });

  it.each(table)('describes %s with its parameters, request and answer schemas and access', (name, route) => {
    const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    expect(operation?.operationId).toBe(name);
    const parameters = (where: string) => operation?.parameters.filter((p) => p.in === where).map((p) => p.name).sort();
    expect(parameters('path')).toEqual(keysOf(route.params));
    expect(parameters('query')).toEqual(keysOf(route.query));
    expect(operation?.requestBody?.content['application/json']?.schema).toEqual(route.body ? schemaOf(route.body) : undefined);
    if (route.multipart) expect(operation?.requestBody?.content['multipart/form-data']).toBeDefined();
    const ok = operation?.responses['200']?.content;
    if (route.answer) expect(ok?.['application/json']?.schema).toEqual(schemaOf(route.answer));
    else expect(Object.keys(ok ?? {})).toEqual([route.path === routes.bulkImportTemplate.path ? 'text/csv' : 'application/octet-stream']);
    expect(operation?.responses.default?.content['application/json']?.schema).toEqual({
      type: 'object',
      properties: { error: { type: 'string' } },
      required: ['error'],
    });
    expect(operation?.security !== undefined).toBe(route.access !== 'public');
  });
});
