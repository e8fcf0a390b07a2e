import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { routes, type RouteDef } from '@everest/core/contract';
import type { Logger } from '../logger';
import type { AppState } from './state';

/** An id a load balancer or a caller gave the request, kept when it is plainly an id and no more. */
const acceptableRequestId = /^[\w.:-]{1,128}$/;

/**
 * The request id (the caller's X-Request-Id when it is a plain id, else a fresh UUID), answered as
 * X-Request-Id, and one log line per request once its answer is over, downloads included:
 * method, path (never the query string, which may carry a download's token; a reset link's
 * token in a path is left out too, see loggedPath), status, duration
 * in ms, request id and the signed-in user's id. No header, body or query is ever logged.
 */
export function requestLog(logger: Logger, metrics?: RequestMetrics): Middleware<AppState> {
  // Not async: on the busiest calls a promise of its own per request is measurable.
  return (ctx, next) => {
    const started = performance.now();
    const requestId = requestIdFrom(ctx.req.headers['x-request-id']);
    ctx.res.setHeader('X-Request-Id', requestId);
    // 'close' comes once per answer, so `on` rather than `once`, which wraps the listener.
    ctx.res.on('close', () => {
      logRequest(logger, {
        method: ctx.method,
        path: ctx.path,
        status: ctx.res.statusCode,
        started,
        requestId,
        userId: ctx.state.user?.id,
        // The client went away before the whole answer was sent.
        aborted: !ctx.res.writableFinished,
      }, metrics);
    });
    return next();
  };
}

/**
 * The routes with a secret in their path (`secretInPath`), by the part of their pattern before
 * the first parameter, in lower case: @koa/router matches paths in any letter case.
 */
const secretPaths = (Object.values(routes) as RouteDef[])
  .filter((route) => route.secretInPath)
  .map((route) => ({ prefix: route.path.slice(0, route.path.indexOf('/:') + 1).toLowerCase(), pattern: route.path }));

/**
 * The path a log line may name: a route with a secret in its path (a reset link's token) by its
 * pattern, with anything that follows its prefix, so that no reset or welcome link ever reaches a
 * log; any other path as asked. Query strings are never passed here.
 */
export function loggedPath(path: string): string {
  for (const { prefix, pattern } of secretPaths) {
    if (path.length > prefix.length && path.slice(0, prefix.length).toLowerCase() === prefix) return pattern;
  }
  return path;
}

/** The request's id: the caller's X-Request-Id when it is a plain id, else a fresh UUID. */
export function requestIdFrom(offered: string | string[] | undefined): string {
  return typeof offered === 'string' && acceptableRequestId.test(offered) ? offered : randomUUID();
}

export interface RequestLine {
  method: string;
  /** Without the query string, which may carry a download's token; a secret in it is hidden here (loggedPath). */
  path: string;
  status: number;
  /** performance.now() when the request came. */
  started: number;
  requestId: string;
  userId?: number;
  aborted: boolean;
}

/** What counts requests for the operators' metrics (features/metrics). */
export interface RequestMetrics {
  observeRequest: (method: string, path: string, status: number, seconds: number) => void;
}

/** A request's log line (see requestLog) and its count, for the answers given by Koa and below it alike. */
export function logRequest(logger: Logger, line: RequestLine, metrics?: RequestMetrics): void {
  const ms = performance.now() - line.started;
  metrics?.observeRequest(line.method, line.path, line.status, ms / 1000);
  logger.info('request', {
    method: line.method,
    path: loggedPath(line.path),
    status: line.status,
    durationMs: Math.round(ms * 100) / 100,
    requestId: line.requestId,
    userId: line.userId,
    aborted: line.aborted ? true : undefined,
  });
}

/** This request's id, as answered in X-Request-Id (set by `requestLog`). */
export function requestIdOf(ctx: { response: { get: (field: string) => string } }): string {
  return ctx.response.get('X-Request-Id') || randomUUID();
}
