import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { enqueueMail } from '../mail/outbox';

const token = 'a-metrics-token-of-at-least-32-characters';

describe('GET /metrics', () => {
  let server: TestServer;
  let without: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: true, env: { METRICS_TOKEN: token } });
    without = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    await without.close();
  });

  const scrape = async () => {
    const res = await server.api('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('does not exist without METRICS_TOKEN', async () => {
    const res = await without.api('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
  });

  it('answers only the bearer token of METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, token]) {
      const res = await server.api('/metrics', { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.text()).not.toContain('everest_');
    }
    const res = await server.api('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('counts requests by route pattern, never by the path asked', async () => {
    const client = recordingClient(server);
    const admin = await client.signIn('admin@example.com');
    expect((await client.call('/api/admin/property/987654', { token: admin })).status).toBe(404);
    // The hot public list, answered before Koa, is counted too.
    expect((await server.api('/api/properties')).status).toBe(200);
    await server.api('/no-such-page/secret-looking-4711');
    const text = await scrape();
    expect(text).toMatch(/everest_http_requests_total\{method="GET",route="\/api\/admin\/property\/:id",status="404"\} 1\n/);
    expect(text).toMatch(/everest_http_requests_total\{method="GET",route="\/api\/properties",status="200"\} \d+/);
    expect(text).toMatch(/everest_http_requests_total\{method="POST",route="\/api\/investor\/login",status="200"\} 1\n/);
    expect(text).toMatch(/everest_http_request_duration_seconds_bucket\{le="0.1",method="GET",route="\/api\/admin\/property\/:id"\} 1\n/);
    expect(text).toMatch(/route="other"/);
    expect(text).not.toContain('987654');
    expect(text).not.toContain('4711');
  });

  it("reports the outbox's backlog per lane, the pool, dropped log lines and the event loop's lag", async () => {
    const em = server.services.orm.em.fork();
    enqueueMail(em, { to: 'a@example.com', subject: 'One', text: 'x', html: '<p>x</p>' });
    enqueueMail(em, { to: 'b@example.com', subject: 'Two', text: 'x', html: '<p>x</p>', lane: 'bulk' });
    enqueueMail(em, { to: 'c@example.com', subject: 'Three', text: 'x', html: '<p>x</p>', lane: 'bulk' });
    await em.flush();
    await em.getConnection().execute(`update outbox_messages set status = 'failed' where subject = 'Three'`);
    const text = await scrape();
    expect(text).toContain('everest_outbox_messages{lane="transactional",status="pending"} 1\n');
    expect(text).toContain('everest_outbox_messages{lane="bulk",status="pending"} 1\n');
    expect(text).toContain('everest_outbox_messages{lane="bulk",status="failed"} 1\n');
    expect(text).toMatch(/everest_db_pool_connections\{state="used"\} \d+/);
    expect(text).toMatch(/everest_db_pool_connections\{state="free"\} \d+/);
    expect(text).toMatch(/everest_log_lines_dropped \d+/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);
  });

  it('reports the time and result of the last backup', async () => {
    const before = await scrape();
    expect(before).toContain('everest_backup_last_success_timestamp_seconds 0\n');
    expect(before).toContain('everest_backup_last_run{field="succeeded"} 0\n');
    const em = server.services.orm.em.fork();
    await em.getConnection().execute(
      `insert into backup_runs (trigger, outcome, started_at, finished_at, location, archive, size_bytes, same_disk)
       values ('schedule', 'succeeded', '2026-12-01T10:00:00Z', '2026-12-01T10:00:30Z', '/backups', 'a.tar.enc', 123456, false),
              ('schedule', 'failed', '2026-12-02T10:00:00Z', '2026-12-02T10:00:05Z', '/backups', null, null, false)`,
    );
    const after = await scrape();
    expect(after).toContain(`everest_backup_last_success_timestamp_seconds ${Date.parse('2026-12-01T10:00:30Z') / 1000}\n`);
    expect(after).toContain(`everest_backup_last_run{field="finished"} ${Date.parse('2026-12-02T10:00:05Z') / 1000}\n`);
    expect(after).toContain('everest_backup_last_run{field="succeeded"} 0\n');
    await em.getConnection().execute(`delete from backup_runs where outcome = 'failed'`);
    const fixed = await scrape();
    expect(fixed).toContain('everest_backup_last_run{field="succeeded"} 1\n');
    expect(fixed).toContain('everest_backup_last_run{field="size_bytes"} 123456\n');
  });
});
