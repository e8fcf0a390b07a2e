import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { RouteDef } from '@everest/core/contract';
import { HttpError } from './errors';
import { SerializedJson } from './serialized-json';
import type { AppState } from './state';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteInput<R extends RouteDef> {
  body: Infer<R['body']>;
  query: Infer<R['query']>;
  params: Infer<R['params']>;
  ctx: Context & { state: AppState };
}

/** A handler answers the route's answer schema, or nothing when it has streamed a file. */
export type RouteHandler<R extends RouteDef> = (
  input: RouteInput<R>,
) => Promise<R['answer'] extends z.ZodType ? z.input<R['answer']> | SerializedJson : void>;

/**
 * Binds one line of the route table: checks who may call it, parses its input with the
 * contract's schemas (a ZodError becomes a 400), and answers what the handler returns.
 */
export function bind<R extends RouteDef>(router: Router<AppState>, route: R, handler: RouteHandler<R>): void {
  const method = route.method === 'GET' ? 'get' : 'post';
  router[method](route.path, async (ctx) => {
    if (route.access !== 'public') {
      const user = ctx.state.user;
      if (!user) throw new HttpError(401, 'Please sign in to continue.');
      if (route.access === 'administrator' && user.role !== 'administrator') {
        throw new HttpError(403, 'Only administrators may do this.');
      }
    }
    const input = {
      body: (route.body ? route.body.parse(ctx.request.body ?? {}) : undefined) as Infer<R['body']>,
      query: (route.query ? route.query.parse(ctx.query) : undefined) as Infer<R['query']>,
      params: (route.params ? route.params.parse(ctx.params) : undefined) as Infer<R['params']>,
      ctx,
    };
    const answer = await handler(input);
    if (answer instanceof SerializedJson) {
      sendSerialized(ctx, answer);
    } else if (answer !== undefined) {
      ctx.body = answer;
    }
  });
}

/** Below this, compressing costs more than it saves (koa-compress's own default). */
const compressFrom = 1024;

function sendSerialized(ctx: Context, answer: SerializedJson): void {
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
