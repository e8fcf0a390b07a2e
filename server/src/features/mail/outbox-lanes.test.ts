import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { openOrm } from '../../db/orm';
import { createLogger } from '../../logger';
import { newDocumentsMail } from '../document-access/document-mail';
import { smtpSender } from './mail-sender';
import { enqueueMail, enqueueMailBatch } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxWorker } from './outbox-worker';
import { SmtpListener } from '../../../test/smtp-listener';

// Issue 37: a reset link requested after a 10,000-user import was written 54 s later, behind the
// import's welcomes. Transactional mail has a lane of its own, drained beside the bulk lane.
describe('the outbox lanes', () => {
  let smtp: SmtpListener;
  let server: TestServer;
  let secondOrm: MikroORM | undefined;

  beforeAll(async () => {
    smtp = await SmtpListener.start();
    server = await startTestServer({ seed: true, env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true', PUBLIC_URL: 'https://everest.test' } });
  });
  afterAll(async () => {
    await secondOrm?.close(true);
    await server.close();
    await smtp.stop();
  });

  const em = () => server.services.orm.em.fork();
  const clearOutbox = async () => {
    await em().nativeDelete(OutboxMessage, {});
    smtp.received.length = 0;
  };

  /** `count` bulk e-mails as the product queues them: half an import's welcomes (a batch), half new-document notices. */
  const queueBulk = async (count: number, tag: string) => {
    const half = Math.floor(count / 2);
    await em().transactional(async (tx) => {
      await enqueueMailBatch(
        tx,
        ['name'] as const,
        (v) => ({ to: '', subject: `Welcome ${tag}`, text: `Hello ${v.name}`, html: `<p>Hello ${v.name}</p>` }),
        Array.from({ length: half }, (_, i) => ({ to: `welcome-${tag}-${i}@example.com`, values: { name: { text: `W${i}`, html: `W${i}` } } })),
      );
      for (let i = half; i < count; i++) {
        enqueueMail(tx, newDocumentsMail(`notice-${tag}-${i}@example.com`, `N${i}`, [{ title: 'Q3 Report', context: 'General · Q3 2026' }], 'https://everest.test/investor-portal'));
      }
    });
  };

  it('queues a reset link in the transactional lane, and batches and new-document notices in the bulk lane', async () => {
    await clearOutbox();
    await queueBulk(4, 'lanes');
    const reset = await server.api('/api/investor/request-password-reset', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.7' },
      body: JSON.stringify({ email: 'investor@example.com' }),
    });
    expect(reset.status).toBe(200);
    const rows = await em().find(OutboxMessage, {}, { orderBy: { id: 'asc' } });
    expect(rows.map((row) => [row.recipient.replace(/-lanes-\d+/, ''), row.lane])).toEqual([
      ['welcome@example.com', 'bulk'],
      ['welcome@example.com', 'bulk'],
      ['notice@example.com', 'bulk'],
      ['notice@example.com', 'bulk'],
      ['investor@example.com', 'transactional'],
    ]);
  });

  it('hands a reset link to SMTP while the bulk e-mails queued before it are still waiting', { timeout: 120_000 }, async () => {
    await clearOutbox();
    const bulk = 1_200;
    await queueBulk(bulk, 'import');
    // As in production: the worker polls, and the reset route kicks it after its commit.
    server.services.outbox.start();
    try {
      // The bulk drain is under way when the reset is asked for.
      await expect.poll(() => smtp.received.length, { timeout: 20_000, interval: 10 }).toBeGreaterThan(20);
      const reset = await server.api('/api/investor/request-password-reset', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.8' },
        body: JSON.stringify({ email: 'investor2@example.com' }),
      });
      expect(reset.status).toBe(200);
      const asked = smtp.received.length;
      await expect.poll(() => smtp.received.findIndex((mail) => mail.to.includes('investor2@example.com')), { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(0);
      const handed = smtp.received.findIndex((mail) => mail.to.includes('investor2@example.com'));
      // In line, it would have waited for the ~1,180 bulk e-mails ahead of it; in its lane it
      // passes them (a few batches are handed over while the request commits and the lane wakes).
      expect(handed - asked).toBeLessThan(200);
      expect(bulk - handed).toBeGreaterThan(800);
      expect(smtp.received[handed]?.header('subject')).toMatch(/password/i);

      // The bulk lane goes on to the end, each e-mail once.
      await expect.poll(() => smtp.received.length, { timeout: 90_000, interval: 100 }).toBe(bulk + 1);
      // A row is marked sent after SMTP has taken it: the last batch's marks follow its e-mails.
      await expect.poll(() => em().count(OutboxMessage, { status: { $ne: 'sent' } }), { timeout: 10_000, interval: 20 }).toBe(0);
      expect(smtp.received).toHaveLength(bulk + 1);
      expect(new Set(smtp.received.map((mail) => mail.header('message-id'))).size).toBe(bulk + 1);
    } finally {
      await server.services.outbox.stop();
    }
  });

  it('sends each e-mail of both lanes once when two instances drain them together', { timeout: 120_000 }, async () => {
    await clearOutbox();
    await queueBulk(600, 'shared');
    await em().transactional(async (tx) => {
      for (let i = 0; i < 60; i++) enqueueMail(tx, { to: `urgent-${i}@example.com`, subject: `Urgent ${i}`, text: 'Text', html: '<p>HTML</p>' });
    });
    const clientUrl = server.services.orm.config.get('clientUrl');
    if (!clientUrl) throw new Error('The test ORM has no clientUrl.');
    secondOrm = await openOrm(clientUrl);
    const fast = { pollIntervalMs: 20, batchSize: 7 };
    const instances = [server.services.orm, secondOrm].map((orm) => {
      const sender = smtpSender(smtp.url);
      const worker = new OutboxWorker({ orm, sender, from: 'Everest Properties <no-reply@everest.test>', messageIdHost: 'everest.test', logger: createLogger('silent') }, fast);
      return { sender, worker };
    });
    try {
      for (const { worker } of instances) worker.start();
      await expect.poll(() => smtp.received.length, { timeout: 60_000, interval: 50 }).toBe(660);
      // Time for a duplicate to show up, if a row could be sent twice.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.received).toHaveLength(660);
      expect(new Set(smtp.received.map((mail) => mail.header('message-id'))).size).toBe(660);
      expect(new Set(smtp.received.map((mail) => mail.to.join())).size).toBe(660);
      await expect.poll(() => em().count(OutboxMessage, { status: 'sent' }), { timeout: 10_000, interval: 20 }).toBe(660);
    } finally {
      await Promise.all(instances.map(({ worker }) => worker.stop()));
      for (const { sender } of instances) sender.close();
    }
  });
});
