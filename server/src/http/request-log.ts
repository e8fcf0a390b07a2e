import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger';
import type { AppState } from './state';

/** An id a load balancer or a caller gave the request, kept when it is plainly an id and no more. */
const acceptableRequestId = /^[\w.:-]{1,128}$/;

/**
 * The request id (the caller's X-Request-Id when it is a plain id, else a fresh UUID), answered as
 * X-Request-Id, and one log line per request once its answer is over, downloads included:
 * method, path (never the query string, which may carry a download's token), status, duration
 * in ms, request id and the signed-in user's id. No header, body or query is ever logged.
 */
export function requestLog(logger: Logger): Middleware<AppState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const offered = ctx.get('X-Request-Id');
    const requestId = acceptableRequestId.test(offered) ? offered : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.res.once('close', () => {
      logger.info('request', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100,
        requestId,
        userId: ctx.state.user?.id,
        // The client went away before the whole answer was sent.
        aborted: ctx.res.writableFinished ? undefined : true,
      });
    });
    await next();
  };
}

/** This request's id, as answered in X-Request-Id (set by `requestLog`). */
export function requestIdOf(ctx: { response: { get: (field: string) => string } }): string {
  return ctx.response.get('X-Request-Id') || randomUUID();
}
