import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@everest/core/contract';
import { errorHandler, HttpError } from './errors';
import { bind } from './route';
import { createLogger } from '../logger';
import type { AppState } from './state';

describe('a route’s effects', () => {
  const acted: string[] = [];
  let http: ReturnType<Koa['listen']>;
  let base = '';

  beforeAll(async () => {
    const app = new Koa<AppState>();
    app.use(errorHandler(createLogger('silent')));
    app.use((ctx, next) => {
      ctx.state.user = null;
      const act = (effect: string) => () => acted.push(effect);
      ctx.state.effects = {
        'ends-sessions': act('ends-sessions'),
        'queues-mail': act('queues-mail'),
        'changes-documents': act('changes-documents'),
        'changes-users': act('changes-users'),
      };
      return next();
    });
    const router = new Router<AppState>();
    // Any public line of the table will do: what is tested is bind's own behaviour.
    bind(
      router,
      routes.health,
      async ({ ctx }) => {
        acted.push('answered');
        if (ctx.query.fail) throw new HttpError(409, 'Refused after the commit.');
        return { status: 'ok', database: 'ok' } as const;
      },
      { effects: ['ends-sessions', 'queues-mail'] },
    );
    app.use(router.routes());
    http = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => http.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('acts on each effect once the handler is done, and after a failure too', async () => {
    acted.length = 0;
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    expect(acted).toEqual(['answered', 'ends-sessions', 'queues-mail']);

    acted.length = 0;
    expect((await fetch(`${base}/api/health?fail=1`)).status).toBe(409);
    expect(acted).toEqual(['answered', 'ends-sessions', 'queues-mail']);
  });
});
