import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';

describe('liveness and readiness', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is ready when the database answers and every migration is applied', async () => {
    const res = await server.api('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied' });
  });

  it('is not ready while a migration is missing, and says which, yet stays alive', async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number; name: string }>('select id, name from mikro_orm_migrations order by id desc limit 1');
      const last = rows[0];
      if (!last) throw new Error('no migration recorded');
      await client.query('delete from mikro_orm_migrations where id = $1', [last.id]);
      try {
        const res = await server.api('/api/health/ready');
        expect(res.status).toBe(503);
        expect(((await res.json()) as { error: string }).error).toBe(`The database is missing 1 migration (${last.name}).`);
        expect((await server.api('/api/health')).status).toBe(200);
      } finally {
        await client.query('insert into mikro_orm_migrations (id, name, executed_at) values ($1, $2, now())', [last.id, last.name]);
      }
      expect((await server.api('/api/health/ready')).status).toBe(200);
    } finally {
      await client.end();
    }
  });

  it('is not ready once shutdown has begun, so a load balancer sends nothing new', async () => {
    server.services.lifecycle.stopping = true;
    try {
      const res = await server.api('/api/health/ready');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 'The server is shutting down.' });
      expect((await server.api('/api/health')).status).toBe(200);
    } finally {
      server.services.lifecycle.stopping = false;
    }
  });
});
