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
  // Not async: on the busiest calls a promise of its own per request is measurable (issue 20).
  return (ctx, next) => {
    const started = performance.now();
    const offered = ctx.req.headers['x-request-id'];
    const requestId = typeof offered === 'string' && acceptableRequestId.test(offered) ? offered : randomUUID();
    ctx.res.setHeader('X-Request-Id', requestId);
    // 'close' comes once per answer, so `on` rather than `once`, which wraps the listener.
    ctx.res.on('close', () => {
      logger.info('request', {
        method: ctx.method,
        path: ctx.path,
        status: ctx.res.statusCode,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        requestId,
        userId: ctx.state.user?.id,
        // The client went away before the whole answer was sent.
        aborted: ctx.res.writableFinished ? undefined : true,
      });
    });
    return next();
  };
}

/** This request's id, as answered in X-Request-Id (set by `requestLog`). */
export function requestIdOf(ctx: { response: { get: (field: string) => string } }): string {
  return ctx.response.get('X-Request-Id') || randomUUID();
}
