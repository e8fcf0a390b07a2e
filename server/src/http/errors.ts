import type { Context, Middleware } from 'koa';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Logger } from '../logger';
import { loggedPath, requestIdOf } from './request-log';

export const databaseUnavailableMessage = 'The service is briefly unavailable (its database cannot be reached). Please try again in a minute.';
export const storageFullMessage = 'The server has no room left to store files, so nothing was saved. Please try again later; the site team has been told.';

/**
 * The disk (or the user's quota on it) is full: the operator must free room, the client can only
 * wait. The file store's writes say ENOSPC or EDQUOT; PostgreSQL says SQLSTATE 53100 (disk_full),
 * which MikroORM's exception keeps as `code`.
 */
const storageFullCodes = new Set(['ENOSPC', 'EDQUOT', '53100']);
function storageFullCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && storageFullCodes.has(code) ? code : null;
}

/**
 * A failure the client can act on: its message is shown to the user as is. `fields` go into the
 * answer beside `error`, for the few refusals a client acts on (a sign-in's `captchaRequired`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly fields: Record<string, string | number | boolean> = {},
  ) {
    super(message);
  }
}

// zod's own wording ("Invalid input: expected string, received number"); our schemas carry
// sentences for users, which are answered as they are.
const zodDefaultMessage = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;

function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is not valid.';
  const field = issue.path.join('.');
  return zodDefaultMessage.test(issue.message) && field ? `${field}: ${issue.message}.` : issue.message;
}

/**
 * The one place that turns errors into answers: `{ "error": "sentence" }` with the right status,
 * never a stack trace. Unknown errors are logged with an id the user can quote.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      answerError(ctx, error, logger);
    }
  };
}

/** The answer to a request that failed with `error`. */
function answerError(ctx: Context, error: unknown, logger: Logger): void {
  if (error instanceof HttpError) {
    ctx.status = error.status;
    ctx.set(error.headers);
    ctx.body = { ...error.fields, error: error.message };
  } else if (error instanceof ZodError) {
    ctx.status = 400;
    ctx.body = { error: zodMessage(error) };
  } else if (isClientError(error)) {
    // ctx.throw() and Koa's own http-errors carry a status and a message meant for users.
    ctx.status = error.status;
    ctx.body = { error: clientErrorMessage(error) };
  } else if (storageFullCode(error)) {
    // Not a bug of ours: 507 Insufficient Storage, and one line (no stack) that says what to free.
    logger.error(`storage full: ${ctx.method} ${loggedPath(ctx.path)} answered 507 (${storageFullCode(error)})`);
    ctx.status = 507;
    ctx.body = { error: storageFullMessage };
  } else if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: no stack trace per request, and the client is told to come back.
    logger.warn(`database unreachable: ${ctx.method} ${loggedPath(ctx.path)} answered 503`);
    ctx.status = 503;
    ctx.set('Retry-After', '10');
    ctx.body = { error: databaseUnavailableMessage };
  } else {
    // The reference the user quotes is the request's id, which its log line also carries.
    const id = requestIdOf(ctx);
    logger.error(`request failed [${id}] ${ctx.method} ${loggedPath(ctx.path)}`, error);
    ctx.status = 500;
    ctx.body = { error: `Something went wrong on our side. Please try again later (reference ${id}).` };
  }
}

interface ClientError {
  status: number;
  message: string;
  type?: string;
}

function isClientError(error: unknown): error is ClientError {
  if (typeof error !== 'object' || error === null) return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: unknown }).expose === true;
}

function clientErrorMessage(error: ClientError): string {
  return error.message;
}
