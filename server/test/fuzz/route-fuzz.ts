import fc from 'fast-check';
import type { z } from 'zod';
import { errorAnswer, routes, type RouteDef } from '@everest/core/contract';
import { samplePdf } from '../sample-documents';
import { sessionTokens } from '../../src/features/auth/session';
import type { TestServer } from '../harness';
import { arbitraryOf, formText, hostileOf, hostileStrings, hostileValue, jsonSchemaOf, jsonText, pollutionMarker, type JsonSchema } from './schema-arbitrary';

export type RouteName = keyof typeof routes;

/** Who calls each kind of route: the role the route is written for, so the call gets past the access rule. */
export const callerOf = { public: null, 'signed-in': 'investor@example.com', administrator: 'admin@example.com' } as const;

/**
 * The file field of each multipart route (the route table names only its text fields). A new
 * multipart route without a line here fails the fuzz test, so none goes unfuzzed.
 */
export const fileFields: Partial<Record<RouteName, string>> = {
  updateProperty: 'image',
  uploadDocument: 'document',
  replaceDocument: 'document',
  uploadPersonalDocument: 'document',
  replacePersonalDocument: 'document',
  bulkUploadPersonalDocuments: 'documents',
};

/** Routes the fuzzer leaves out, each with its reason. Empty: every route of the table is fuzzed. */
export const notFuzzed: Partial<Record<RouteName, string>> = {};

/** One request as the fuzzer sends it. */
export interface FuzzRequest {
  params: unknown;
  query: unknown;
  body: unknown;
  /** How a POST's body travels. */
  encoding: 'json' | 'multipart' | 'text';
  /** A multipart call's file: a small PDF under this name, or none. */
  filename: string | null;
  /** Whether every part was generated from the schema (as opposed to made hostile). */
  validShaped: boolean;
}

export interface RouteFigures {
  route: RouteName;
  caller: string;
  runs: number;
  /** Requests whose body and query the route's own schemas accept. */
  accepted: number;
  statuses: Map<number, number>;
}

function objectOf(schema: z.ZodType | undefined): { schema: JsonSchema; valid: fc.Arbitrary<unknown> } {
  const json = schema ? jsonSchemaOf(schema) : { type: 'object', properties: {} };
  return { schema: json, valid: arbitraryOf(json) };
}

/** The requests for one route: about half generated from its schemas, half made hostile. */
export function requestsFor(route: RouteDef, name: RouteName): fc.Arbitrary<FuzzRequest> {
  const params = objectOf(route.params);
  const query = objectOf(route.query);
  const body = objectOf(route.body);
  const fileField = fileFields[name];
  const encoding: fc.Arbitrary<FuzzRequest['encoding']> =
    route.method === 'GET' ? fc.constant('json') : route.multipart ? fc.constantFrom('multipart', 'multipart', 'json', 'text') : fc.constantFrom('json', 'json', 'json', 'text');
  const filename: fc.Arbitrary<string | null> = fileField
    ? fc.oneof(fc.constant(null), fc.constant('report.pdf'), fc.constantFrom(...hostileStrings).map((s) => `${s}.pdf`), fc.string({ unit: 'binary', maxLength: 300 }))
    : fc.constant(null);
  const valid = fc.record({ params: params.valid, query: query.valid, body: body.valid, encoding, filename }).map((r) => ({ ...r, validShaped: true }));
  // Path segments are text whatever the schema says: hostile ones are hostile strings.
  const hostileParams = route.params
    ? fc.oneof(
        params.valid,
        fc.dictionary(fc.constantFrom(...Object.keys(params.schema.properties ?? {})), fc.oneof(fc.constantFrom(...hostileStrings, ...rawSegments), hostileValue), { minKeys: 1 }),
      )
    : fc.constant({});
  const hostile = fc
    .record({
      params: hostileParams,
      query: fc.oneof(query.valid, hostileOf(query.valid, query.schema)),
      body: route.method === 'POST' ? hostileOf(body.valid, body.schema) : body.valid,
      encoding,
      filename,
    })
    .map((r) => ({ ...r, validShaped: false }));
  return fc.oneof(valid, hostile);
}

/** Path segments sent as they are, not encoded: broken percent-escapes and an encoded surrogate, which the router must decode or refuse. */
const rawSegments = ['%', '%zz', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '..%2F..%2Fetc', '%00'];

function pathOf(route: RouteDef, params: unknown): string {
  const values = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  return route.path.replace(/:([A-Za-z0-9_]+)/g, (_segment, key: string) => {
    const text = formText(values[key]);
    if (rawSegments.includes(text)) return text;
    // A lone surrogate cannot travel in a URL at all (encodeURIComponent refuses it): U+FFFD instead.
    return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')) || '%20';
  });
}

function queryOf(query: unknown): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  if (query && typeof query === 'object' && !Array.isArray(query)) {
    for (const [key, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, formText(item));
    }
  } else {
    search.append('q', formText(query));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function bodyOf(request: FuzzRequest, fileField: string | undefined): { body: string | FormData; type?: string } {
  if (request.encoding === 'json') return { body: jsonText(request.body ?? {}), type: 'application/json' };
  if (request.encoding === 'text') return { body: jsonText(request.body ?? {}), type: 'text/plain' };
  const form = new FormData();
  const fields = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : { value: request.body };
  for (const [key, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, formText(item));
  }
  if (fileField && request.filename !== null) form.append(fileField, new Blob([new Uint8Array(samplePdf(`fuzz ${Math.random()}`))], { type: 'application/pdf' }), request.filename);
  return { body: form };
}

/**
 * The callers' ids, looked up once by e-mail before any route is fuzzed: a fuzzed profile edit may
 * change the investor's own e-mail, and the later routes must still sign in as that account.
 */
export async function callerIdsOf(server: TestServer): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const email of Object.values(callerOf)) {
    if (!email) continue;
    const [user] = await server.services.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from users where email = ?', [email]);
    if (!user) throw new Error(`the fuzz needs the demo user ${email}`);
    ids.set(email, user.id);
  }
  return ids;
}

/** A fresh session of the caller for one call (an earlier call may have signed that session out or changed the password). */
async function tokenFor(server: TestServer, userId: number | undefined): Promise<string | null> {
  if (userId === undefined) return null;
  const [user] = await server.services.orm.em
    .fork()
    .getConnection()
    .execute<{ id: number; token_version: number }[]>('select id, token_version from users where id = ?', [userId]);
  if (!user) throw new Error(`the fuzz's caller ${userId} was deleted by an earlier route (see fuzzOrder)`);
  return sessionTokens(server.services.config).issue({ userId: user.id, tokenVersion: user.token_version, secondStep: false });
}

/** Whether the route's own schemas take the request (the share of calls that reach its service). */
function accepted(route: RouteDef, request: FuzzRequest): boolean {
  const parts: [z.ZodType | undefined, unknown][] = [
    [route.params, request.params],
    [route.query, request.query],
    [route.body, request.body],
  ];
  return parts.every(([schema, value]) => !schema || schema.safeParse(value).success);
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** callerIdsOf's answer. */
  callerIds: Map<string, number>;
}

/**
 * Sends `runs` generated requests to one route as its caller and checks each answer: never a
 * 5xx, every refusal a JSON sentence without a stack trace, every JSON answer of the contract's
 * shape, and Object.prototype untouched (the server runs in this process). fast-check's report
 * of a failure names the seed and the shrunk request, so it can be replayed.
 */
export async function fuzzRoute(server: TestServer, name: RouteName, options: FuzzOptions): Promise<RouteFigures> {
  const route = routes[name] as RouteDef;
  const caller = callerOf[route.access];
  const figures: RouteFigures = { route: name, caller: caller ?? 'anonymous', runs: 0, accepted: 0, statuses: new Map() };
  const fileField = fileFields[name];
  await fc.assert(
    fc.asyncProperty(requestsFor(route, name), async (request) => {
      const token = await tokenFor(server, caller ? options.callerIds.get(caller) : undefined);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (token) headers.authorization = `Bearer ${token}`;
      let init: RequestInit = { method: route.method, headers };
      if (route.method === 'POST') {
        const { body, type } = bodyOf(request, fileField);
        if (type) headers['content-type'] = type;
        init = { ...init, body };
      }
      const res = await server.api(`${pathOf(route, request.params)}${queryOf(request.query)}`, init);
      const text = await res.text();
      figures.runs += 1;
      if (accepted(route, request)) figures.accepted += 1;
      figures.statuses.set(res.status, (figures.statuses.get(res.status) ?? 0) + 1);

      const where = `${route.method} ${route.path} answered ${res.status}: ${text.slice(0, 300)}`;
      if (res.status >= 500) throw new Error(where);
      if ((Object.prototype as Record<string, unknown>)[pollutionMarker] !== undefined) throw new Error(`Object.prototype was polluted by ${where}`);
      const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
      // Node's HTTP parser refuses a request line or headers over 16 kB itself (431), before the
      // app sees the request: that answer has no body to check.
      if (res.status === 431) return;
      if (res.status >= 400) {
        if (!isJson || !errorAnswer.safeParse(JSON.parse(text)).success) throw new Error(`a refusal that is not { error }: ${where}`);
        if (/\n\s+at /.test(text)) throw new Error(`a stack trace in ${where}`);
      } else if (route.answer && isJson) {
        const shape = route.answer.safeParse(JSON.parse(text));
        if (!shape.success) throw new Error(`an answer outside the contract (${shape.error.issues[0]?.message}): ${where}`);
      }
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true },
  );
  return figures;
}

/**
 * The order the routes are fuzzed in: the investor's first, then the public ones, then the
 * administrators', since a fuzzed edit-user may deactivate or delete the demo investor (the
 * built-in administrator cannot be).
 */
export function fuzzOrder(): RouteName[] {
  const names = Object.keys(routes) as RouteName[];
  const rank = { 'signed-in': 0, public: 1, administrator: 2 } as const;
  return names.filter((name) => !notFuzzed[name]).sort((a, b) => rank[routes[a].access] - rank[routes[b].access]);
}

/** One line per route: its caller, runs, how many its schemas took, and the statuses answered. */
export function figuresTable(all: RouteFigures[], seed: number, ms: number): string {
  const lines = [
    `route fuzz, seed ${seed}: ${all.reduce((n, f) => n + f.runs, 0)} requests over ${all.length} routes in ${(ms / 1000).toFixed(1)} s`,
    `${'route'.padEnd(26)} ${'caller'.padEnd(22)} ${'runs'.padStart(5)} ${'valid'.padStart(5)}  statuses`,
  ];
  for (const f of all) {
    const statuses = [...f.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ');
    lines.push(`${f.route.padEnd(26)} ${f.caller.padEnd(22)} ${String(f.runs).padStart(5)} ${String(f.accepted).padStart(5)}  ${statuses}`);
  }
  const fiveHundreds = all.reduce((n, f) => n + [...f.statuses].filter(([s]) => s >= 500).reduce((m, [, c]) => m + c, 0), 0);
  lines.push(`answers of 5xx: ${fiveHundreds}`);
  return lines.join('\n');
}
