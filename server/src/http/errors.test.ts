import { createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/harness';
import { openOrm } from '../db/orm';
import type { Logger } from '../logger';
import { errorHandler, storageFullMessage } from './errors';

describe('the error middleware', () => {
  const logged: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => logged.push({ level: 'info', message }),
    warn: (message) => logged.push({ level: 'warn', message }),
    error: (message) => logged.push({ level: 'error', message }),
  };
  let server: ReturnType<Koa['listen']>;
  let url = '';
  let database: TestDatabase;
  let orm: Awaited<ReturnType<typeof openOrm>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await openOrm(database.url);
    const app = new Koa();
    app.silent = true;
    app.use(errorHandler(logger));
    app.use(async (ctx) => {
      if (ctx.path === '/api/contact') {
        // PostgreSQL out of disk: the error it raises then, SQLSTATE 53100 (disk_full), through
        // the driver and MikroORM as a route's query meets it.
        await orm.em.fork().execute(`do $$ begin raise exception 'could not extend file' using errcode = '53100'; end $$`);
        return;
      }
      // A write the kernel refuses for want of room: /dev/full answers every write with ENOSPC,
      // exactly as a full disk does under a temp file.
      await pipeline(Readable.from([Buffer.alloc(64 * 1024)]), createWriteStream('/dev/full'));
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await orm.close();
    await database.drop();
  });

  it('answers 507 with a sentence, not 500, when the disk is full, and tells the operator', async () => {
    const res = await fetch(`${url}/api/admin/upload-document`, { method: 'POST' });
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: storageFullMessage });
    expect(logged).toEqual([{ level: 'error', message: 'storage full: POST /api/admin/upload-document answered 507 (ENOSPC)' }]);
  });

  it("answers 507 with the same sentence when PostgreSQL itself is out of disk (53100), not 500", async () => {
    logged.length = 0;
    const res = await fetch(`${url}/api/contact`, { method: 'POST' });
    expect(res.status).toBe(507);
    expect(await res.json()).toEqual({ error: storageFullMessage });
    expect(logged).toEqual([{ level: 'error', message: 'storage full: POST /api/contact answered 507 (53100)' }]);
  });
});
