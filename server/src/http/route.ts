import type { default as Router, RouterMiddleware } from '@koa/router';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { z } from 'zod';
import { routes, type Access, type RouteDef } from '@everest/core/contract';
import { decodeCsvBytes } from '@everest/core/domain';
import { HttpError } from './errors';
import {
  readBatchMultipart,
  readMultipart,
  type BatchMultipartBody,
  type BatchUploadRule,
  type MultipartBody,
  type UploadedFile,
  type UploadRule,
} from './multipart';
import { encodingFor, type StoredEncoding } from './content-encoding';
import { logRequest, requestIdFrom, type RequestMetrics } from './request-log';
import type { HeaderPair } from './security-headers';
import { SerializedJson } from './serialized-json';
import type { Logger } from '../logger';
import type { AppState, CallEffect, SessionUser } from './state';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What a route answers (as its handler builds it), or nothing for a route that answers a file. */
export type AnswerOf<R extends RouteDef> = R['answer'] extends z.ZodType ? z.input<R['answer']> : void;

/** The caller of a route of this access: a signed-in user wherever the route table demands one. */
export type CallerOf<A extends Access> = A extends 'public' ? SessionUser | null : SessionUser;

export interface RouteInput<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  user: CallerOf<R['access']>;
  /**
   * The file of a multipart call (see RouteOptions.upload), checked and still in its temp file:
   * the handler keeps it or reads it; whatever it leaves is removed once the call is over.
   */
  upload: UploadedFile | null;
  /**
   * The form of a batch route (see RouteOptions.batch): its text fields, already parsed into
   * `body`, and its checked files, still in their temp files; null when the call was not
   * multipart. Whatever the handler leaves is removed once the call is over.
   */
  batch: BatchMultipartBody | null;
  ctx: Context & { state: AppState };
}

/** What a route knows before it reads a byte of its body. */
export type RouteHead<R extends RouteDef> = Pick<RouteInput<R>, 'query' | 'params' | 'user' | 'ctx'>;

/** A handler answers the route's answer schema (or a cached serialisation of it), or nothing when it has streamed a file. */
export type RouteHandler<R extends RouteDef> = (
  input: RouteInput<R>,
) => Promise<AnswerOf<R> | (R['answer'] extends z.ZodType ? SerializedJson<AnswerOf<R>> : never)>;

export interface RouteOptions<R extends RouteDef = RouteDef> {
  /** What the call may do that this server must act on once it is over (see CallEffect). */
  effects?: readonly CallEffect[];
  /** For a multipart route of the table: the file field it takes and how that is checked. */
  upload?: UploadRule;
  /** For a multipart route of the table that takes many files: how they and its text part are checked. */
  batch?: BatchUploadRule;
  /**
   * Runs after the access rule and before any byte of the body is read: an answer it gives is
   * the call's answer, and the body is never read (a retry answered from an earlier result
   * stores nothing again). Null lets the call go on.
   */
  before?: (head: RouteHead<R>) => Promise<AnswerOf<R> | null>;
  /**
   * For the busiest calls (the public property list, an investor's document list, a delegate's
   * view of it): a GET without path parameters whose handler answers a SerializedJson. `hot`
   * gives the caller's answer when memory alone decides it, and the call is then answered before
   * Koa sees it (see `hotAnswers`), else as any other call: undefined for anything it cannot
   * decide or would refuse, which the handler answers. A public route's is asked for anonymous
   * calls only; a signed-in route's, of a session that memory alone decides (HotSessions) and
   * that the access rule lets through, with the query as `bind` parses it (see `plainQuery`).
   * Its answer must be the handler's, whose own Cache-Control for a session is `privateAnswer`.
   */
  hot?: (caller: CallerOf<R['access']>, query: Infer<R['query']>) => SerializedJson<AnswerOf<R>> | undefined;
}

/**
 * The Cache-Control of an answer for one session alone, which no cache may keep: what a hot
 * answer to a session sends, and so what the handler of a signed-in hot route sets.
 */
export const privateAnswer = 'private, no-store';

/** The refusal of a session whose role must sign in with two steps and has none set up yet. */
export const secondStepMissingMessage = 'Please turn on two-step sign-in in Manage Profile first: your role must sign in with two steps.';
/** The refusal of a session opened with the password alone, for a role that must sign in with two steps. */
export const secondStepNotUsedMessage = 'This session was opened without your second step. Please sign out and sign in again with two steps.';

/**
 * The route table's access rule, the one place that decides 401 and 403. An account that must
 * have a second step and has none is refused every signed-in route but those marked
 * `beforeSecondStep` (its set-up, the profile, sign-out): its password alone must not open an
 * investor's documents by the investor routes either. Public routes answer it as
 * they would anyone: dropping the token would get the same answer.
 */
function callerFor<R extends RouteDef>(route: R, user: SessionUser | null): CallerOf<R['access']> {
  const refused = refusalOf(route, user);
  if (refused) throw refused;
  return user as CallerOf<R['access']>;
}

/** The access rule's refusal of this caller (see callerFor), or null when the call may go on. */
function refusalOf(route: RouteDef, user: SessionUser | null): HttpError | null {
  if (route.access === 'public') return null;
  if (!user) return new HttpError(401, 'Please sign in to continue.');
  if (route.access === 'administrator' && user.role !== 'administrator') return new HttpError(403, 'Only administrators may do this.');
  if (user.secondStepMissing && !route.beforeSecondStep) {
    return new HttpError(403, user.secondStepMissing === 'not-set-up' ? secondStepMissingMessage : secondStepNotUsedMessage);
  }
  return null;
}

/** The answer to text holding U+0000, which PostgreSQL cannot store. */
export const nulRefused =
  'Some text you sent contains an invisible control character (NUL) that cannot be saved. Please retype it and try again.';

/** The answer to text holding half of a UTF-16 pair (a lone surrogate), which no encoding can store. */
export const brokenCharacterRefused =
  'Some text you sent contains a broken character that cannot be saved. Please retype it and try again.';

// A lone surrogate: JSON's "\ud800" parses into one, and PostgreSQL refuses it in jsonb (the
// audit row), so a property named with one answered 500 (route fuzz, seed 500545103).
const loneSurrogate = /\p{Cs}/u;

function refuseUnstorable(text: string): void {
  if (text.includes('\u0000')) throw new HttpError(400, nulRefused);
  if (loneSurrogate.test(text)) throw new HttpError(400, brokenCharacterRefused);
}

/**
 * Refuses a route's input (its query, params or body, as parsed from JSON, a query string or a
 * multipart form) holding U+0000 or a lone surrogate anywhere, keys included: PostgreSQL refuses
 * both, so they would reach the database as a 500 with the visitor's values in the error. Checked
 * here, once for every route and field, rather than in each schema; walked without recursion, as
 * a body may nest thousands deep.
 */
function refuseUnstorableText(input: unknown): void {
  const pending: unknown[] = [input];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      refuseUnstorable(value);
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        refuseUnstorable(key);
        pending.push(item);
      }
    }
  }
}

/**
 * Binds one line of the route table, in this order: who may call it (401, 403), its query and
 * params, the `before` hook, then its body (a multipart form streamed into temp files: one
 * file by `upload`, many by `batch`), each parsed with the contract's schemas (a ZodError
 * becomes a 400); then it answers what the handler returns, removes the temp files the handler
 * did not keep, and acts on the route's effects.
 */
export function bind<R extends RouteDef>(
  router: Router<AppState>,
  route: R,
  handler: RouteHandler<R>,
  options: RouteOptions<R> = {},
): void {
  const method = route.method === 'GET' ? 'get' : 'post';
  // A GET without path parameters is also found by its exact path (see `apiRoutes`), unless a
  // route bound before it already matches that path and so answers it through the router.
  const exact = route.method === 'GET' && !route.path.includes(':') && router.match(route.path, 'GET').pathAndMethod.length === 0;
  const answer: RouteAnswer = async (ctx) => {
    const user = callerFor(route, ctx.state.user);
    let multipart: MultipartBody | null = null;
    let batch: BatchMultipartBody | null = null;
    try {
      // Only what the route reads: a stray query string on a route without one costs nothing.
      if (route.query) refuseUnstorableText(ctx.query);
      if (route.params) refuseUnstorableText(ctx.params);
      const head: RouteHead<R> = {
        query: (route.query ? route.query.parse(ctx.query) : undefined) as Infer<R['query']>,
        params: (route.params ? route.params.parse(ctx.params) : undefined) as Infer<R['params']>,
        user,
        ctx,
      };
      const early = options.before ? await options.before(head) : null;
      if (early !== null && early !== undefined) {
        ctx.body = early;
        return;
      }
      // Only after the access rule: a stranger never gets to stream a file into the temp folder.
      if (route.multipart && ctx.is('multipart')) {
        if (options.batch) batch = await readBatchMultipart(ctx, options.batch);
        else multipart = await readMultipart(ctx, options.upload);
      }
      const fields = batch?.fields ?? multipart?.fields ?? ctx.request.body ?? {};
      if (route.body) refuseUnstorableText(fields);
      // A batch's text part sent as a file (a manifest) is text the route reads too, once decoded
      // (UTF-16, as Excel's "Unicode Text" saves it, has a NUL byte in every ASCII letter).
      if (batch?.textFile && decodeCsvBytes(batch.textFile).text.includes('\u0000')) throw new HttpError(400, nulRefused);
      const input: RouteInput<R> = {
        ...head,
        body: (route.body ? route.body.parse(fields) : undefined) as Infer<R['body']>,
        upload: multipart?.file ?? null,
        batch,
      };
      const answer = await handler(input);
      if (answer instanceof SerializedJson) {
        const compressing = sendSerialized(ctx, answer);
        if (compressing) await compressing;
      } else if (answer !== undefined) {
        ctx.body = answer;
      }
    } finally {
      // Kept files were moved into the store; this removes what was refused, unused or never reached.
      // Awaited only when there is something to remove: an await of nothing is a turn of the
      // microtask queue on every call, the busiest ones included.
      if (multipart?.file) await multipart.file.discard();
      if (batch) await Promise.all(batch.files.map((file) => file.discard()));
      // After a failure too: a call may have committed before it failed, and acting on an effect
      // that did not happen costs nothing (an empty look at the outbox, a cache refilled).
      for (const effect of options.effects ?? []) ctx.state.effects[effect]();
    }
  };
  router[method](route.path, answer);
  if (exact) exactPathsOf(router).set(route.path, answer);
  if (options.hot) {
    if (!exact) throw new Error(`${route.path}: only a GET without path parameters, that no other route matches, can be hot`);
    // Parsed once: a call without a query string is parsed from `{}`, as Koa's `ctx.query` is then.
    const withoutQuery = route.query ? route.query.safeParse({}) : { success: true, data: undefined };
    hotPathsOf(router).set(route.path, {
      route,
      answer: options.hot as HotRoute['answer'],
      withoutQuery: withoutQuery.success ? { value: withoutQuery.data } : undefined,
    });
  }
}

/** A bound route: the router gives it the path's params, the exact-path lookup has none to give. */
type RouteAnswer = (ctx: Context & { state: AppState; params?: Record<string, string> }) => Promise<void>;

const exactPaths = new WeakMap<Router<AppState>, Map<string, RouteAnswer>>();
const hotPathsByRouter = new WeakMap<Router<AppState>, Map<string, HotRoute>>();

function exactPathsOf(router: Router<AppState>): Map<string, RouteAnswer> {
  let paths = exactPaths.get(router);
  if (!paths) exactPaths.set(router, (paths = new Map()));
  return paths;
}

/** A hot route, and its caller's answer when it is ready in memory (RouteOptions.hot). */
interface HotRoute {
  route: RouteDef;
  answer: (caller: SessionUser | null, query: unknown) => SerializedJson<unknown> | undefined;
  /** The route's query parsed from none, or undefined when its schema refuses that (Koa's 400). */
  withoutQuery: { value: unknown } | undefined;
}

/** What no query string may hold for a hot answer: what Koa's URL parser (parseurl) reads otherwise than `?`…, and beyond ASCII. */
const unplainQuery = /[^\x21-\x22\x24-\x7e]/;

/**
 * A route's query as `bind` parses it from Koa's `ctx.query` (URLSearchParams over what follows
 * the first `?`, as Koa 3 reads it; refuseUnstorableText; the contract's schema), when the query
 * string is plain: printable ASCII without `#`, each parameter once and named by the schema.
 * Undefined for anything else (a refusal, an array form, an unknown or repeated parameter),
 * which is Koa's to answer as it would without a hot path.
 */
function plainQuery(schema: z.ZodType | undefined, search: string): { value: unknown } | undefined {
  if (!(schema instanceof z.ZodObject) || search === '' || unplainQuery.test(search)) return undefined;
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!Object.hasOwn(schema.shape, name) || Object.hasOwn(query, name)) return undefined;
    query[name] = value;
  }
  try {
    refuseUnstorableText(query);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(query);
  return parsed.success ? { value: parsed.data } : undefined;
}

function hotPathsOf(router: Router<AppState>): Map<string, HotRoute> {
  let paths = hotPathsByRouter.get(router);
  if (!paths) hotPathsByRouter.set(router, (paths = new Map()));
  return paths;
}

/** Answers a request below Koa, or says it is Koa's to answer (false). */
export type HotAnswers = (req: IncomingMessage, res: ServerResponse) => boolean;

/** The session check as the hot answers use it (features/auth/session.ts SessionCheck, wired in app.ts). */
export interface HotSessions {
  /**
   * The session of the request's Authorization header when memory alone decides that it grants
   * one (its token verified before, its user's record cached); null for anything else, which
   * Koa's session check then decides.
   */
  cached: (req: IncomingMessage) => SessionUser | null;
  /** Notes the session's use, as Koa's session check does (the sessions list of Manage Profile). */
  seen: (user: SessionUser, req: IncomingMessage) => void;
}

export interface HotAnswerOptions {
  securityHeaders: readonly HeaderPair[];
  logger: Logger;
  metrics?: RequestMetrics;
  /** Without it, only anonymous calls of public hot routes are answered below Koa. */
  sessions?: HotSessions;
}

/**
 * The router's hot routes (RouteOptions.hot), answered before Koa sees the request: a GET without
 * a body of a hot path whose answer is ready in memory, asked anonymously of a public route, or
 * with a session that memory alone decides (HotSessions) of a signed-in one, past the route
 * table's access rule (the same `refusalOf` as Koa's), with a plain query string that the route's
 * schema takes (`plainQuery`) or none. Everything Koa's
 * chain would add to such an answer is decided once here: the security headers, Vary (as
 * koa-compress sets it), the type, the encoding's header and, for a session, `privateAnswer`;
 * per request only the encoding is chosen (from the answers compressed in advance), the request
 * id made, the session's use noted and the log line written. Koa's context, middleware chain and
 * response handling were most of the busiest calls' cost. Any other request (a refusal, a
 * session, share or list not in memory, a query string out of the ordinary) is Koa's, where the route is bound
 * too, and is answered there exactly as if there were no hot path.
 */
export function hotAnswers(router: Router<AppState>, { securityHeaders, logger, metrics, sessions }: HotAnswerOptions): HotAnswers {
  const paths = hotPathsOf(router);
  const headersOf = (encoding: StoredEncoding, session: boolean) => [
    ...securityHeaders.flat(),
    'Vary',
    'Accept-Encoding',
    ...(session ? ['Cache-Control', privateAnswer] : []),
    'Content-Type',
    'application/json; charset=utf-8',
    ...(encoding === 'identity' ? [] : ['Content-Encoding', encoding]),
  ];
  const headersBy = (session: boolean): Record<StoredEncoding, string[]> => ({
    br: headersOf('br', session),
    gzip: headersOf('gzip', session),
    identity: headersOf('identity', session),
  });
  const anonymousHeaders = headersBy(false);
  const sessionHeaders = headersBy(true);
  return (req, res) => {
    // A body is Koa's to read (and to refuse, when it is not JSON), even on a GET.
    if (req.method !== 'GET' || req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') return false;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const hot = paths.get(path);
    if (!hot) return false;
    const started = performance.now();
    let user: SessionUser | null = null;
    let parsed: { value: unknown } | undefined;
    if (hot.route.access !== 'public') {
      if (!sessions) return false;
      user = sessions.cached(req);
      if (!user || refusalOf(hot.route, user)) return false;
      // After the access rule, as in `bind` (a delegate's onBehalfOf reads through a share).
      parsed = query === -1 ? hot.withoutQuery : plainQuery(hot.route.query, url.slice(query + 1));
      if (!parsed) return false;
    } else if (req.headers.authorization !== undefined) {
      // A public route asked with a session: Koa notes the session and says no-store.
      return false;
    }
    const ready = hot.answer(user, parsed?.value);
    if (!ready) return false;
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const encoding = ready.json.length >= compressFrom ? encodingFor(req.headers['accept-encoding']) : 'identity';
    const body = ready.kept(encoding);
    if (!body) return false;
    res.writeHead(200, [...(user ? sessionHeaders : anonymousHeaders)[encoding], 'Content-Length', String(body.length), 'X-Request-Id', requestId]);
    // The answer is in memory and handed over whole: its line is written now, not on 'close'.
    res.end(body);
    if (user) sessions?.seen(user, req);
    logRequest(logger, { method: 'GET', path, status: 200, started, requestId, userId: user?.id, aborted: false }, metrics);
    return true;
  };
}

/**
 * The router's routes as one middleware. A GET of a path without parameters (the public property
 * list, health) is found by a lookup of its exact path; anything else (HEAD, a trailing slash,
 * other letter case, parameters) goes through @koa/router as before, whose match tries every
 * route's pattern in turn for each request.
 */
export function apiRoutes(router: Router<AppState>): RouterMiddleware<AppState> {
  const paths = exactPathsOf(router);
  const routed = router.routes();
  return (ctx, next) => {
    const answer = ctx.method === 'GET' ? paths.get(ctx.path) : undefined;
    return answer ? answer(ctx) : routed(ctx, next);
  };
}

/**
 * Binds every line of the route table that no feature has bound yet, answering 501 behind the
 * same access rule: every route of the contract refuses strangers from the day it is written
 * down, and the authorization matrix (drills/authorization-matrix.test.ts) covers it.
 */
export function bindUnbuiltRoutes(router: Router<AppState>): void {
  for (const route of Object.values(routes) as RouteDef[]) {
    if (router.match(route.path, route.method).route) continue;
    bind(router, route, async () => {
      throw new HttpError(501, 'This call is not available yet.');
    });
  }
}

/** Below this, compressing costs more than it saves (koa-compress's own threshold here). */
const compressFrom = 1024;

function sendSerialized(ctx: Context, answer: SerializedJson<unknown>): Promise<void> | undefined {
  const encoding = answer.json.length >= compressFrom ? encodingFor(ctx.req.headers['accept-encoding']) : 'identity';
  // Compressed once (off the event loop) and kept with the answer: koa-compress need not do it again.
  ctx.compress = false;
  if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
  // What `ctx.type = 'application/json'` sets, without looking the type up on every call.
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  const body = answer.bytesAsync(encoding);
  if (body instanceof Promise) {
    return body.then((made) => {
      ctx.body = made;
    });
  }
  ctx.body = body;
  return undefined;
}
