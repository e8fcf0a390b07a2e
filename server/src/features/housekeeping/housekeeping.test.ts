import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalDocumentAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createLogger } from '../../logger';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { Housekeeping, housekeepingLockKey, pruneExpired, runHousekeepingOnce } from './housekeeping';

const hour = 60 * 60_000;

describe('housekeeping', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let adminToken = '';
  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    adminToken = await client.signIn('admin@example.com');
  });
  afterAll(() => server.close());

  const em = () => server.services.orm.em.fork();
  const count = async (sql: string, params: unknown[] = []) => Number((await em().execute<{ n: string }[]>(sql, params))[0]?.n);

  /** Rows of every kind, expired or not, marked with `tag` so each test counts its own. */
  async function plantRows(tag: string): Promise<void> {
    const [user] = await em().execute<{ id: number }[]>(`select id from users where email = 'investor@example.com'`);
    const token = (state: string) => createHash('sha256').update(`${tag} ${state} ${randomBytes(8).toString('hex')}`).digest('hex');
    await em().execute(
      `insert into password_reset_tokens (user_id, token_hash, expires_at, used_at, created_at) values
         (?, ?, now() + interval '1 hour', null, now()),
         (?, ?, now() - interval '1 minute', null, now() - interval '2 hours'),
         (?, ?, now() + interval '6 days', now(), now())`,
      [user?.id, token('live'), user?.id, token('expired'), user?.id, token('used')],
    );
    await em().execute(
      `insert into captcha_solutions (signature, expires_at) values (?, now() + interval '10 minutes'), (?, now() - interval '1 second')`,
      [`${tag}-live`, `${tag}-expired`],
    );
    await em().execute(
      `insert into rate_limit_counters (key, window_start, count) values (?, date_trunc('hour', now()), 3), (?, now() - interval '2 days', 9)`,
      [`${tag}:current`, `${tag}:old`],
    );
    await em().execute(
      `insert into rate_limit_budgets (key, full_at) values (?, now() + interval '5 minutes'), (?, now() - interval '1 second')`,
      [`${tag}:spent`, `${tag}:full`],
    );
  }
  const liveRows = async (tag: string) => ({
    captcha: await count(`select count(*) as n from captcha_solutions where signature like ?`, [`${tag}-%`]),
    counters: await count(`select count(*) as n from rate_limit_counters where key like ?`, [`${tag}:%`]),
    budgets: await count(`select count(*) as n from rate_limit_budgets where key like ?`, [`${tag}:%`]),
  });

  it('removes used and expired links, expired captcha solutions and old counters, and keeps what is live', async () => {
    await plantRows('prune');
    const tokensBefore = await count('select count(*) as n from password_reset_tokens');
    const report = await pruneExpired(em(), server.services.files);
    expect(report.resetTokens).toBe(2);
    expect(report.captchaSolutions).toBe(1);
    expect(report.rateLimitCounters).toBe(1);
    expect(report.rateLimitBudgets).toBe(1);
    expect(await count('select count(*) as n from password_reset_tokens')).toBe(tokensBefore - 2);
    expect(await count('select count(*) as n from password_reset_tokens where used_at is not null or expires_at < now()')).toBe(0);
    expect(await liveRows('prune')).toEqual({ captcha: 1, counters: 1, budgets: 1 });
    expect(await count(`select count(*) as n from captcha_solutions where signature = 'prune-live'`)).toBe(1);
    // A second round, as another instance's, finds nothing more to remove.
    expect(await pruneExpired(em(), server.services.files)).toMatchObject({ resetTokens: 0, captchaSolutions: 0, rateLimitCounters: 0, rateLimitBudgets: 0 });
  });

  it("removes a deleted document's file once no row has named it for an hour, and keeps a live document's", async () => {
    const upload = async (title: string, bytes: Buffer) => {
      const form = new FormData();
      form.set('userEmail', 'investor@example.com');
      form.set('documentCategory', 'tax');
      form.set('title', title);
      form.set('document', new Blob([new Uint8Array(bytes)]), 'doc.pdf');
      const res = await server.api('/api/admin/upload-user-document', { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form });
      expect(res.status).toBe(200);
      return personalDocumentAnswer.parse(await res.json()).document;
    };
    const goneBytes = samplePdf('housekeeping: deleted');
    const keptBytes = samplePdf('housekeeping: kept');
    const gone = await upload('Housekeeping Deleted', goneBytes);
    await upload('Housekeeping Kept', keptBytes);
    expect((await client.call('/api/admin/delete-user-document', { token: adminToken, body: { documentId: gone.id } })).status).toBe(200);
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

    // Not an hour yet: an upload of the same bytes may be about to name it again.
    expect((await pruneExpired(em(), server.services.files)).storedFiles).toBe(0);
    expect(await server.services.files.exists(sha(goneBytes))).toBe(true);
    // Two hours on, by the clock housekeeping is given.
    expect((await pruneExpired(em(), server.services.files, Date.now() + 2 * hour)).storedFiles).toBe(1);
    expect(await server.services.files.exists(sha(goneBytes))).toBe(false);
    expect(await server.services.files.exists(sha(keptBytes))).toBe(true);
  });

  it('skips its round while another instance holds the lock, and runs once it is free', async () => {
    await plantRows('locked');
    const other = new pg.Client({ connectionString: server.databaseUrl });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [housekeepingLockKey.toString()]);
      expect(await runHousekeepingOnce(server.services.orm, server.services.files)).toBeNull();
      expect(await liveRows('locked')).toEqual({ captcha: 2, counters: 2, budgets: 2 });
      await other.query('select pg_advisory_unlock($1)', [housekeepingLockKey.toString()]);
      expect(await runHousekeepingOnce(server.services.orm, server.services.files)).toMatchObject({ captchaSolutions: 1, rateLimitCounters: 1 });
      expect(await liveRows('locked')).toEqual({ captcha: 1, counters: 1, budgets: 1 });
    } finally {
      await other.end();
    }
  });

  it('runs by itself on its timer until stopped', async () => {
    await plantRows('timer');
    const housekeeping = new Housekeeping({ orm: server.services.orm, files: server.services.files, logger: createLogger('silent'), intervalMs: 20 });
    housekeeping.start();
    try {
      await expect.poll(() => liveRows('timer'), { timeout: 20_000 }).toEqual({ captcha: 1, counters: 1, budgets: 1 });
    } finally {
      await housekeeping.stop();
    }
  });
});
