import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildServer } from '../test/child-server';
import { loadAverage, printFigures, seconds } from '../test/drill-kit';
import { createTestDatabase, type TestDatabase } from '../test/harness';
import { openOrm } from '../src/db/orm';
import { enqueueMail, enqueueMailBatch } from '../src/features/mail/outbox';
import { SmtpListener } from '../test/smtp-listener';

const single = 500;
const batched = 500;

/** Waits for a state, looking again every 100 ms. */
async function until(look: () => Promise<boolean> | boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await look())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('SMTP down while 1,000 e-mails are queued', () => {
  let database: TestDatabase | undefined;
  let smtp: SmtpListener | undefined;
  const dataDirs: string[] = [];
  const servers: ChildServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await SmtpListener.start();
    await smtp.stop();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await smtp?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('delivers every one exactly once when SMTP is back, from two instances sharing the outbox', async () => {
    if (!database || !smtp) throw new Error('no database');
    // Two instances of the product over one database and one SMTP server, as in production.
    const instance = async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'everest-smtp-drill-'));
      chmodSync(dataDir, 0o755);
      dataDirs.push(dataDir);
      const server = await ChildServer.start({ DATABASE_URL: database?.url ?? '', DATA_DIR: dataDir, SMTP_URL: smtp?.url ?? '' });
      servers.push(server);
    };
    await Promise.all([instance(), instance()]);

    // 1,000 e-mails committed as the product's actions commit them: one at a time (a contact
    // message, a reset link) and as one batch statement (documents published to 500 investors).
    const orm = await openOrm(database.url);
    try {
      await orm.em.fork().transactional(async (em) => {
        for (let i = 0; i < single; i++) enqueueMail(em, { to: `one${i}@example.com`, subject: `Drill single ${i}`, text: `Text ${i}`, html: `<p>HTML ${i}</p>` });
      });
      await orm.em.fork().transactional((em) =>
        enqueueMailBatch(
          em,
          ['name'],
          (values) => ({ to: '', subject: 'Drill batch', text: `Hello ${values.name}`, html: `<p>Hello ${values.name}</p>` }),
          Array.from({ length: batched }, (_, i) => ({ to: `batch${i}@example.com`, values: { name: { text: `Investor ${i}`, html: `Investor ${i}` } } })),
        ),
      );
      const outbox = async () =>
        (await orm.em.fork().execute<{ status: string; attempts: number; n: string }[]>(`select status, attempts, count(*) as n from outbox_messages group by status, attempts`)).map(
          (row) => ({ ...row, n: Number(row.n) }),
        );
      const count = async (where: (row: { status: string; attempts: number }) => boolean) => (await outbox()).filter(where).reduce((sum, row) => sum + row.n, 0);

      // SMTP is down: every e-mail is tried, fails, and stays pending with its next attempt set.
      const queuedAt = Date.now();
      await until(async () => (await count((row) => row.attempts >= 1)) === single + batched, 'every e-mail to be tried during the outage', 60_000);
      const triedAll = Date.now();
      expect(await count((row) => row.status !== 'pending')).toBe(0);
      expect(smtp.received).toHaveLength(0);
      const failedAttempts = (await outbox()).reduce((sum, row) => sum + row.attempts * row.n, 0);

      await smtp.listen();
      const backAt = Date.now();
      await until(async () => (await count((row) => row.status === 'sent')) === single + batched, 'every e-mail to be sent once SMTP is back', 240_000);
      const drainedAt = Date.now();
      // Time for a second copy to arrive, if any row could be sent twice.
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const subjects = smtp.received.map((mail) => `${mail.header('subject')} ${mail.to.join(',')}`);
      const distinct = new Set(subjects);
      const duplicates = subjects.length - distinct.size;
      const expected = [
        ...Array.from({ length: single }, (_, i) => `Drill single ${i} one${i}@example.com`),
        ...Array.from({ length: batched }, (_, i) => `Drill batch batch${i}@example.com`),
      ];
      const lost = expected.filter((key) => !distinct.has(key)).length;
      expect(lost).toBe(0);
      expect(duplicates).toBe(0);
      expect(new Set(smtp.received.map((mail) => mail.header('message-id'))).size).toBe(single + batched);
      // Each batch e-mail carries its own value, put in at send time.
      const batchMail = smtp.received.find((mail) => mail.to[0] === 'batch7@example.com');
      expect(batchMail?.text).toContain('Hello Investor 7');
      expect(servers.map((server) => server.process.exitCode)).toEqual([null, null]);

      printFigures('Faults · SMTP down while 1,000 e-mails are queued', {
        'queued (one by one + one batch statement)': `${single + batched} (${single} + ${batched})`,
        'instances sharing the outbox': servers.length,
        'every e-mail tried during the outage in': seconds(triedAll - queuedAt),
        'failed attempts during the outage': failedAttempts,
        'delivered': smtp.received.length,
        'lost': lost,
        'sent twice': duplicates,
        'time to drain after SMTP is back (first retry waits 30 s)': seconds(drainedAt - backAt),
        'load (1/5/15 min)': loadAverage(),
      });
    } finally {
      await orm.close(true);
    }
  });
});
