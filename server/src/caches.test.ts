import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness';
import { cacheTable } from './caches';

describe('the cache table', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(Object.entries(cacheTable))('lists the tables whose triggers drop %s', async (_name, cache) => {
    // A trigger's arguments are stored as NUL-terminated strings: notify_change('<channel>').
    const rows: { table: string }[] = await server.services.orm.em.fork().getConnection().execute(
      `select distinct c.relname as "table"
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where not t.tgisinternal and p.proname = 'notify_change'
          and split_part(encode(t.tgargs, 'escape'), '\\000', 1) = ?
        order by 1`,
      [cache.channel],
    );
    expect(rows.map((row) => row.table)).toEqual([...cache.triggerTables].sort());
  });
});
