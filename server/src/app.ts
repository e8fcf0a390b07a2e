import Router from '@koa/router';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import compress from 'koa-compress';
import { authRoutes } from './features/auth/auth.routes';
import { bearerToken, SessionCheck, sessionAuth } from './features/auth/session';
import { SessionActivity } from './features/auth/sessions.service';
import { sessionsRoutes } from './features/auth/sessions.routes';
import { adminDocumentsRoutes } from './features/property-documents/admin-documents.routes';
import { adminPersonalDocumentsRoutes } from './features/personal-documents/admin-personal-documents.routes';
import { documentsRoutes } from './features/document-access/documents.routes';
import { captchaRoutes } from './features/captcha/captcha.routes';
import { contactRoutes } from './features/contact/contact.routes';
import { mediaRoutes } from './features/files/media.routes';
import { metricsEndpoint } from './features/metrics/metrics';
import { healthRoutes } from './features/health/health.routes';
import { openApiRoutes } from './http/openapi';
import { geocodingRoutes } from './features/geocoding/geocoding.routes';
import { adminPropertiesRoutes } from './features/properties/admin-properties.routes';
import { propertiesRoutes } from './features/properties/properties.routes';
import { adminUsersRoutes } from './features/users/admin-users.routes';
import { bulkImportRoutes, importJsonPaths, importTooLarge, maxImportJsonBytes } from './features/bulk-import/bulk-import.routes';
import { profileRoutes } from './features/users/profile.routes';
import { sharesRoutes } from './features/shares/shares.routes';
import { readReceiptsRoutes } from './features/read-receipts/read-receipts.routes';
import { systemRoutes } from './features/system/system.routes';
import { activityRoutes } from './features/audit/activity.routes';
import { errorHandler, HttpError } from './http/errors';
import { apiRoutes, bindUnbuiltRoutes, hotAnswers, type HotAnswers, type HotSessions } from './http/route';
import { loggedPath, requestLog } from './http/request-log';
import { originOf, securityHeaderPairs, securityHeaders } from './http/security-headers';
import { RequestState, type AppState } from './http/state';
import { webApp } from './http/web-app';
import { PublicPages } from './features/public-pages/public-pages';
import { renderEntryOf } from './features/public-pages/page-renderer';
import type { Services } from './services';

export interface AppOptions {
  /** The built web app (web/dist); omitted in API-only tests. */
  webDist?: string;
}

/**
 * Koa, with the hot routes answered before it (see `hotAnswers`): the server it listens with,
 * and any `callback()` a test takes, ask them first.
 */
class App extends Koa<AppState> {
  hotAnswers: HotAnswers = () => false;

  override callback(): ReturnType<Koa<AppState>['callback']> {
    const koa = super.callback();
    // node:http's (listen's): the app is never served over HTTP/2.
    return (req, res) => (this.hotAnswers(req as IncomingMessage, res as ServerResponse) ? answered : koa(req, res));
  }
}

const answered = Promise.resolve();

/** The Koa application: no `listen` here, so tests and the CLI each decide where it runs. */
export function createApp(services: Services, options: AppOptions = {}): Koa<AppState> {
  const { config, orm, logger } = services;
  // Behind one proxy, only the last X-Forwarded-For entry is the proxy's word; the ones before it
  // are whatever the client sent (maxIpsCount 1 makes Koa read that last one).
  const app = new App({ proxy: config.trustProxy, maxIpsCount: 1 });
  // What `ctx.ip` is with these settings, for the answers given below Koa.
  const clientAddress = (req: IncomingMessage) => {
    const header = config.trustProxy ? req.headers['x-forwarded-for'] : undefined;
    const forwarded = Array.isArray(header) ? header.join(',') : header;
    return (forwarded ? forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() : '') || req.socket.remoteAddress || '';
  };
  app.silent = true;
  // What fails after the answer has started (a file read mid-download) cannot become an answer.
  // A client that went away (a tab closed mid-download, an upload abandoned) is no fault of ours.
  app.on('error', (error: unknown, ctx?: Context) => {
    const what = `${ctx?.method ?? ''} ${loggedPath(ctx?.path ?? '')}`;
    if (isClientGone(error)) logger.info(`client went away before the answer was complete: ${what} (${(error as { code: string }).code})`);
    else logger.error(`answer failed ${what}`, error);
  });

  // Every call of the route table (bound here, used below the middleware it needs).
  const api = new Router<AppState>();
  for (const feature of [
    healthRoutes,
    openApiRoutes,
    propertiesRoutes,
    authRoutes,
    sessionsRoutes,
    profileRoutes,
    documentsRoutes,
    sharesRoutes,
    contactRoutes,
    captchaRoutes,
    adminUsersRoutes,
    adminPropertiesRoutes,
    adminDocumentsRoutes,
    adminPersonalDocumentsRoutes,
    bulkImportRoutes,
    readReceiptsRoutes,
    activityRoutes,
    systemRoutes,
    geocodingRoutes,
  ]) {
    feature(api, services);
  }
  bindUnbuiltRoutes(api);

  // Outermost: its line holds the status the client got, whatever answered it.
  app.use(requestLog(logger, services.metrics));
  app.use(metricsEndpoint(services.metrics, config.metricsToken));
  const tileOrigin = originOf(config.tileUrl);
  const recaptcha = config.captcha.provider === 'altcha' ? [] : ['https://www.google.com', 'https://www.gstatic.com'];
  const headers = securityHeaderPairs({
    imageOrigins: tileOrigin ? [tileOrigin] : [],
    scriptOrigins: recaptcha,
    connectOrigins: recaptcha,
    httpsOnly: config.publicUrl.startsWith('https:'),
  });
  app.use(securityHeaders(headers));
  // One session check for Koa's middleware and the hot answers, with one note of each session's use.
  const sessions = new SessionCheck(config, services.sessionUsers, new SessionActivity({ orm, logger }));
  const hotSessions: HotSessions = {
    cached: (req) => {
      const token = bearerToken(req.headers.authorization);
      return (token && sessions.cached(token)) || null;
    },
    seen: (user, req) => sessions.seen(user, req.headers['user-agent'] ?? '', clientAddress(req)),
  };
  app.hotAnswers = hotAnswers(api, { securityHeaders: headers, logger, metrics: services.metrics, sessions: hotSessions });
  const newState = () => new RequestState(orm, services.effects);
  app.use(compress({ threshold: 1024 }));
  // An answer to a request that came with a session is that user's: no cache anywhere may keep
  // it, whatever the route. Outside the error handler, so that refusals get it too.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.headerSent || !ctx.path.startsWith('/api/')) return;
    if (!ctx.state.user && !ctx.get('authorization')) return;
    if (!/\bno-store\b/.test(ctx.response.get('Cache-Control'))) ctx.set('Cache-Control', 'no-store');
  });
  app.use(errorHandler(logger));
  app.use((ctx, next) => {
    ctx.state = newState();
    return next();
  });
  app.use(sessionAuth(config, sessions));

  // JSON only (multipart routes parse their own streams); 100 kB is far above any form here.
  const jsonBodyOf = (limit: number | string, tooLarge: string) =>
    koaBody({
      json: true,
      jsonLimit: limit,
      jsonStrict: true,
      multipart: false,
      urlencoded: false,
      text: false,
      onError: (error) => {
        const status = (error as { status?: unknown }).status;
        throw status === 413 ? new HttpError(413, tooLarge) : new HttpError(400, 'The request body is not valid JSON.');
      },
    });
  const jsonBody = jsonBodyOf('100kb', 'The request is too large.');
  // The bulk import's rows of a 5 MB CSV, read only for an administrator: anyone else is refused
  // by the route's access rule without the server holding megabytes of their JSON.
  const importJsonBody = jsonBodyOf(maxImportJsonBytes, importTooLarge);
  app.use((ctx, next) => {
    if (!ctx.path.startsWith('/api/') || !ctx.is('json')) return next();
    if (!importJsonPaths.has(ctx.path)) return jsonBody(ctx, next);
    return ctx.state.user?.role === 'administrator' ? importJsonBody(ctx, next) : next();
  });

  app.use(apiRoutes(api));
  app.use(async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) throw new HttpError(404, 'There is no such API call.');
    await next();
  });

  const media = mediaRoutes(services);
  app.use(media.routes());

  if (options.webDist) app.use(webApp(options.webDist, new PublicPages(services, renderEntryOf(options.webDist))));
  return app;
}

/**
 * Errors that only say the connection closed under an answer: the peer reset or closed it
 * (ECONNRESET, EPIPE, a stream closed early), or ended it in the middle of its request body
 * (llhttp's HPE_INVALID_EOF_STATE, "Parse Error").
 */
const clientGoneCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'HPE_INVALID_EOF_STATE']);

function isClientGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && clientGoneCodes.has(code);
}
