import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { routes, type Access, type RouteDef } from '@everest/core/contract';
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
import { SerializedJson } from './serialized-json';
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
}

/** The route table's access rule, the one place that decides 401 and 403. */
function callerFor<A extends Access>(access: A, user: SessionUser | null): CallerOf<A> {
  if (access === 'public') return user as CallerOf<A>;
  if (!user) throw new HttpError(401, 'Please sign in to continue.');
  if (access === 'administrator' && user.role !== 'administrator') throw new HttpError(403, 'Only administrators may do this.');
  if (access === 'administrator' && user.secondStepMissing) {
    throw new HttpError(403, 'Please turn on two-step sign-in in Manage Profile before using the administration panel.');
  }
  return user;
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
  router[method](route.path, async (ctx) => {
    const user = callerFor(route.access as R['access'], ctx.state.user);
    let multipart: MultipartBody | null = null;
    let batch: BatchMultipartBody | null = null;
    try {
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
      const input: RouteInput<R> = {
        ...head,
        body: (route.body ? route.body.parse(fields) : undefined) as Infer<R['body']>,
        upload: multipart?.file ?? null,
        batch,
      };
      const answer = await handler(input);
      if (answer instanceof SerializedJson) {
        sendSerialized(ctx, answer);
      } else if (answer !== undefined) {
        ctx.body = answer;
      }
    } finally {
      // Kept files were moved into the store; this removes what was refused, unused or never reached.
      await multipart?.file?.discard();
      await Promise.all(batch?.files.map((file) => file.discard()) ?? []);
      // After a failure too: a call may have committed before it failed, and acting on an effect
      // that did not happen costs nothing (an empty look at the outbox, a cache refilled).
      for (const effect of options.effects ?? []) ctx.state.effects[effect]();
    }
  });
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

/** Below this, compressing costs more than it saves (koa-compress's own default). */
const compressFrom = 1024;

function sendSerialized(ctx: Context, answer: SerializedJson<unknown>): void {
  ctx.type = 'application/json';
  if (answer.json.length >= compressFrom && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    // Compressed once and kept with the answer: koa-compress need not do it again.
    ctx.compress = false;
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = answer.gzip();
  } else {
    ctx.body = answer.json;
  }
}
