import type Router from '@koa/router';
import type { ContentObject, OpenAPIObject, OperationObject, ParameterObject, PathItemObject, ResponseObject, ResponsesObject, SchemaObject } from 'openapi3-ts/oas31';
import { z } from 'zod';
import { errorAnswer, openApiAnswer, routes, type OpenApiAnswer, type RouteDef } from '@everest/core/contract';
import type { Config } from '../config';
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

/**
 * The answers a route may refuse with, each one derived from what its line in the route table
 * says it does, so that a new route is described with no line here. Every refusal carries
 * `{ "error": "a sentence for a person" }` (the error middleware, errors.ts). What the table
 * cannot say (a conflict, a rate limit, a file gone missing) is the `4XX` range, and failures
 * on the server's side are `default`.
 */
const refusals = {
  InvalidInput: {
    status: '400',
    description: 'The input does not fit this call (the sentence names the field), is not JSON, or holds text that cannot be stored (NUL).',
    applies: (route: RouteDef) => route.method === 'POST' || route.body !== undefined || route.query !== undefined || route.params !== undefined,
  },
  SignInNeeded: {
    status: '401',
    description: 'No session, or one that has ended (signed out, password changed, account deactivated): sign in again.',
    applies: (route: RouteDef) => route.access !== 'public',
  },
  AdministratorsOnly: {
    status: '403',
    description: "The session is not an administrator's, or its role must sign in with two steps and has none set up yet.",
    applies: (route: RouteDef) => route.access === 'administrator',
  },
  SecondStepNeeded: {
    status: '403',
    description: "The session's role must sign in with two steps and has none set up yet (set one up in Manage Profile).",
    applies: (route: RouteDef) => route.access === 'signed-in' && !route.beforeSecondStep,
  },
  // A path parameter names a record, unless it is a secret (a reset link's token), whose check answers 200.
  NotFound: {
    status: '404',
    description: 'Nothing with the id in the path exists, or this session may not see it.',
    applies: (route: RouteDef) => route.params !== undefined && !route.secretInPath,
  },
  TooLarge: {
    status: '413',
    description: 'The body, or a file in it, is larger than this call takes: the sentence says how large it may be.',
    applies: (route: RouteDef) => route.method === 'POST',
  },
  UnsupportedFileType: {
    status: '415',
    description: 'A file is not of a type this call takes (its first bytes are read, not its name).',
    applies: (route: RouteDef) => route.multipart === true,
  },
  RangeNotSatisfiable: {
    status: '416',
    description: 'The `Range` asked for is not in this file: `Content-Range` gives its size.',
    applies: (route: RouteDef) => route.file?.ranges === true,
  },
  Refused: {
    status: '4XX',
    description: 'Another refusal, the status saying which: for example 409 (a conflict with the data as it is now), 410 (a file gone missing) or 429 (too many attempts, with `Retry-After`).',
    applies: () => true,
  },
  Failure: {
    status: 'default',
    description: "A failure on the server's side, for example 500 with a reference to quote, 503 while the database cannot be reached (with `Retry-After`), 507 when storage is full.",
    applies: () => true,
  },
} satisfies Record<string, { status: string; description: string; applies: (route: RouteDef) => boolean }>;

type RefusalName = keyof typeof refusals;

/** A file answer: each media type the route's file may be sent as. */
function fileResponse(route: RouteDef): ResponseObject {
  if (!route.file) throw new Error(`The route ${route.path} answers neither JSON nor a file: give it an answer or a file in the route table.`);
  const content: ContentObject = Object.fromEntries(route.file.types.map((type) => [type, { schema: { type: 'string' as const, contentMediaType: type } }]));
  return { description: route.file.description, content };
}

function operationOf(name: string, route: RouteDef, used: Set<RefusalName>): OperationObject {
  const operation: OperationObject = {
    operationId: name,
    summary: route.summary,
    tags: [route.path.startsWith('/api/admin/') ? 'admin' : route.path.startsWith('/api/investor/') ? 'investor' : 'public'],
    // A public call says so (`[]`), rather than leaving a client to guess from the document's
    // default. A download opened by navigation takes the header or `?token=`: either will do.
    security: route.access === 'public' ? [] : route.tokenInQuery ? [{ session: [] }, { token: [] }] : [{ session: [] }],
    // `token` is described by its security scheme, not again as a parameter.
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query').filter((p) => !(route.tokenInQuery && p.name === 'token'))],
    responses: {},
  };
  if (route.access !== 'public') {
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
  const responses: ResponsesObject = { '200': route.answer ? { description: 'OK', content: { 'application/json': { schema: jsonSchema(route.answer) } } } : fileResponse(route) };
  if (route.file?.ranges) responses['206'] = { ...fileResponse(route), description: 'The part of the file the `Range` header asked for (`Content-Range` says which).' };
  for (const [refusal, { status, applies }] of Object.entries(refusals) as [RefusalName, (typeof refusals)[RefusalName]][]) {
    if (!applies(route)) continue;
    responses[status] = { $ref: `#/components/responses/${refusal}` };
    used.add(refusal);
  }
  operation.responses = responses;
  return operation;
}

/**
 * The OpenAPI 3.1 document of every route of core's route table, written by nobody. `publicUrl` is
 * the firm's site (PUBLIC_URL), where a reader of the licence finds who to ask.
 */
export function buildOpenApiDocument(publicUrl: string): OpenAPIObject {
  const paths: Record<string, PathItemObject> = {};
  const used = new Set<RefusalName>();
  for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method === 'GET' ? 'get' : 'post'] = operationOf(name, route, used);
  }
  // Only the refusals some route answers: a component nothing refers to is noise to a client.
  const responses: Record<string, ResponseObject> = {};
  for (const refusal of Object.keys(refusals) as RefusalName[]) {
    if (!used.has(refusal)) continue;
    responses[refusal] = { description: refusals[refusal].description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Everest Properties API',
      version: '1',
      description: 'The public site, investor portal and administration API. Every error answers `{ "error": "…" }`.',
      // The firm's own API: no open-source licence is granted, and no SPDX identifier says
      // "all rights reserved", so the licence is named and points to the firm's site.
      license: { name: 'Proprietary: © Everest Properties, all rights reserved', url: `${publicUrl}/` },
    },
    // Relative: the server that served this document, whatever address it was reached by.
    servers: [{ url: '/', description: 'The server that served this document' }],
    tags: [
      { name: 'public', description: 'The public site: properties, the contact form, health checks and this description.' },
      { name: 'investor', description: 'The investor portal: signing in, password resets, the account and its documents.' },
      { name: 'admin', description: 'The administration panel: administrators only.' },
    ],
    components: {
      schemas: { Error: jsonSchema(errorAnswer) },
      responses,
      securitySchemes: {
        // The session token from /api/investor/login.
        session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        token: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'For a download opened by browser navigation: a document link from `POST /api/investor/document-link` (a few minutes, one document), or the session token itself.',
        },
      },
    },
    paths,
  };
}

/** `GET /api/openapi.json`: built once per instance, since the table cannot change while it runs. */
export function openApiRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  let document: SerializedJson<OpenApiAnswer> | undefined;
  bind(router, routes.openApi, async ({ ctx }) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    document ??= SerializedJson.of(openApiAnswer.parse(buildOpenApiDocument(config.publicUrl)));
    return document;
  });
}
