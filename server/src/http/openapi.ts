import type Router from '@koa/router';
import type { OpenAPIObject, OperationObject, ParameterObject, PathItemObject, SchemaObject } from 'openapi3-ts/oas31';
import { z } from 'zod';
import { errorAnswer, openApiAnswer, routes, type OpenApiAnswer, type RouteDef } from '@everest/core/contract';
import type { Services } from '../services';
import { bind } from './route';
import { SerializedJson } from './serialized-json';
import type { AppState } from './state';

/**
 * A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1. Always the input side: what a
 * client sends is parsed by these schemas, and what the server answers is what its handlers give
 * the answer schema (see AnswerOf in route.ts). A part JSON Schema cannot say (a transform's
 * result) becomes `{}`, "anything", rather than failing the whole document.
 */
function jsonSchema(schema: z.ZodType): SchemaObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest as SchemaObject;
}

/** `/api/investor/download/:id` in OpenAPI's spelling: `/api/investor/download/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** One parameter per property of a params or query object schema. */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): ParameterObject[] {
  if (!schema) return [];
  const object = jsonSchema(schema);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
  }));
}

const errorResponse = {
  description: 'A refusal or failure: `{ "error": "a sentence for a person" }`, with the status saying which.',
  content: { 'application/json': { schema: jsonSchema(errorAnswer) } },
};

/** What a route answers when it answers no JSON: the two routes that answer a file. */
const fileAnswers: Record<string, { type: string; description: string }> = {
  [routes.download.path]: { type: 'application/octet-stream', description: 'The document, with byte ranges (206) for viewers and resumed downloads.' },
  [routes.downloadVersion.path]: { type: 'application/octet-stream', description: 'One version of a document, with byte ranges (206).' },
  [routes.bulkImportTemplate.path]: { type: 'text/csv', description: 'The bulk import template.' },
};

function operationOf(name: string, route: RouteDef): OperationObject {
  const operation: OperationObject = {
    operationId: name,
    tags: [route.path.startsWith('/api/admin/') ? 'admin' : route.path.startsWith('/api/investor/') ? 'investor' : 'public'],
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    responses: {},
  };
  if (route.access !== 'public') {
    operation.security = [{ session: [] }];
    operation.description = route.access === 'administrator' ? 'Administrators only.' : 'Any signed-in user.';
  }
  if (route.body) {
    const schema = jsonSchema(route.body);
    operation.requestBody = {
      required: true,
      content: route.multipart
        ? {
            'application/json': { schema },
            // The same fields as text parts, beside the file parts the call takes.
            'multipart/form-data': { schema },
          }
        : { 'application/json': { schema } },
    };
  }
  const file = fileAnswers[route.path];
  operation.responses = {
    '200': route.answer
      ? { description: 'OK', content: { 'application/json': { schema: jsonSchema(route.answer) } } }
      : { description: file?.description ?? 'A file.', content: { [file?.type ?? 'application/octet-stream']: { schema: { type: 'string', contentMediaType: file?.type ?? 'application/octet-stream' } } } },
    default: errorResponse,
  };
  return operation;
}

/** The OpenAPI 3.1 document of every route of core's route table, written by nobody. */
export function buildOpenApiDocument(publicUrl: string): OpenAPIObject {
  const paths: Record<string, PathItemObject> = {};
  for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method === 'GET' ? 'get' : 'post'] = operationOf(name, route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Everest Properties API',
      version: '1',
      description: 'The public site, investor portal and administration API. Every error answers `{ "error": "…" }`.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: {
        // The session token from /api/investor/login; downloads opened by navigation may pass it as `?token=`.
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
    paths,
  };
}

/** `GET /api/openapi.json`: built once per instance, since the table cannot change while it runs. */
export function openApiRoutes(router: Router<AppState>, { config }: Services): void {
  let document: SerializedJson<OpenApiAnswer> | undefined;
  bind(router, routes.openApi, async ({ ctx }) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    document ??= SerializedJson.of(openApiAnswer.parse(buildOpenApiDocument(config.publicUrl)));
    return document;
  });
}
