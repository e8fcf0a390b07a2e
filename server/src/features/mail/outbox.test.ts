import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { openOrm } from '../../db/orm';
import type { Logger } from '../../logger';
import { altchaToken } from '../../../test/altcha';
import { ContactMessage } from '../contact/contact-message.entity';
import { smtpSender, type MailSender } from './mail-sender';
import { enqueueMail, enqueueMailBatch, retryFailedMail } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxTemplate } from './outbox-template.entity';
import { backoffMs, defaultOutboxWorkerOptions, OutboxWorker, type OutboxWorkerOptions } from './outbox-worker';
import { contactNotificationMail, escapeHtml, renderMail } from './templates';
import { SmtpListener } from '../../../test/smtp-listener';

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => lines.push({ level: 'info', message }),
    warn: (message) => lines.push({ level: 'warn', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
  return { logger, lines };
}

describe('e-mail templates', () => {
  it('escapes every value someone typed in the HTML, and keeps the plain text as written', () => {
    const mail = contactNotificationMail({
      firstName: '<img src=x onerror=alert(1)>',
      lastName: 'O\'Brien & Sons',
      email: 'x@example.com',
      subject: '"Hi" <script>',
      message: 'line one\n<a href="javascript:alert(1)">two</a>',
      receivedAt: new Date('2026-01-01T05:00:00Z'),
      reference: 7,
    });
    expect(mail.html).not.toMatch(/<img|<script|<a href="javascript/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('O&#39;Brien &amp; Sons');
    expect(mail.html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;two&lt;/a&gt;');
    expect(mail.text).toContain("O'Brien & Sons");
    expect(mail.text).toContain('> <a href="javascript:alert(1)">two</a>');
    // 05:00 UTC on 1 January is still New Year's Eve in Pasadena.
    expect(mail.text).toContain('Received: Dec 31, 2025, 9:00 PM (Pacific time)');
  });

  it('puts every e-mail in the branded layout: navy header with the firm, footer with the office', () => {
    const mail = renderMail({
      subject: 'Line\r\nBcc: someone@example.com',
      greeting: 'Hello Jane,',
      blocks: [
        { kind: 'paragraph', text: 'Your documents are ready.' },
        { kind: 'button', label: 'Open the portal', url: 'https://everest.test/investor-services?a=1&b=2' },
      ],
    });
    // A subject is one header line: no line break can smuggle in another header.
    expect(mail.subject).toBe('Line Bcc: someone@example.com');
    expect(mail.html).toContain('background:#131F2F');
    expect(mail.html).toContain('Everest Properties');
    expect(mail.html).toContain('225 E. Colorado Blvd., Suite 400');
    expect(mail.html).toContain('href="https://everest.test/investor-services?a=1&amp;b=2"');
    expect(mail.text).toBe(
      [
        'Hello Jane,',
        'Your documents are ready.',
        'Open the portal: https://everest.test/investor-services?a=1&b=2',
        '--\nEverest Properties\n225 E. Colorado Blvd., Suite 400\nPasadena, CA 91101\nPhone (626) 555-0100 · Fax (626) 555-0101',
      ].join('\n\n'),
    );
  });
});

describe('backoff', () => {
  it('waits 30 s after the first failure, doubling each time, at most an hour', () => {
    const waits = [1, 2, 3, 4, 8, 9, 20].map((attempts) => backoffMs(attempts, defaultOutboxWorkerOptions) / 1000);
    expect(waits).toEqual([30, 60, 120, 240, 3600, 3600, 3600]);
  });
});

describe('outbox worker', () => {
  let server: TestServer;
  const workers: OutboxWorker[] = [];
  const orms: MikroORM[] = [];
  const senders: MailSender[] = [];

  beforeAll(async () => {
    // No SMTP_URL: the server's own worker writes .eml files. ALTCHA_COMPLEXITY: cheap captchas,
    // as this file sends fifty messages; TRUST_PROXY: one client address each.
    server = await startTestServer({ env: { ALTCHA_COMPLEXITY: '10', TRUST_PROXY: 'true', CONTACT_EMAIL: 'team@everest.test' } });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    for (const sender of senders.splice(0)) sender.close();
  });
  afterAll(async () => {
    await Promise.all(orms.map((orm) => orm.close(true)));
    await server.close();
  });

  /** A second server instance's ORM: its own connection pool over the same database. */
  const secondOrm = async () => {
    if (!orms[0]) {
      const clientUrl = server.services.orm.config.get('clientUrl');
      if (!clientUrl) throw new Error('The test ORM has no clientUrl.');
      orms.push(await openOrm(clientUrl));
    }
    return orms[0] ?? server.services.orm;
  };
  const clearOutbox = () => server.services.orm.em.fork().nativeDelete(OutboxMessage, {});
  const queue = async (count: number, subject = 'Quarterly report') => {
    await server.services.orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < count; i++) {
        enqueueMail(em, { to: `investor${i}@example.com`, subject: `${subject} ${i}`, text: 'Text', html: '<p>HTML</p>' });
      }
    });
  };
  const rows = () => server.services.orm.em.fork().find(OutboxMessage, {}, { orderBy: { id: 'asc' } });
  const worker = (sender: MailSender, options: Partial<OutboxWorkerOptions>, orm = server.services.orm, logger = recordingLogger().logger) => {
    const w = new OutboxWorker({ orm, sender, from: 'Everest Properties <no-reply@everest.test>', messageIdHost: 'everest.test', logger }, options);
    workers.push(w);
    return w;
  };

  it('without SMTP_URL, writes each e-mail as an .eml file under DATA_DIR/mail', async () => {
    await clearOutbox();
    await queue(2, 'Welcome');
    expect(await server.services.outbox.runOnce()).toBe(2);
    const dir = path.join(server.services.config.dataDir, 'mail');
    const files = (await readdir(dir)).filter((name) => name.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const eml = await readFile(path.join(dir, files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^Subject: Welcome [01]$/m);
    expect(eml).toMatch(/^Message-ID: <outbox-\d+-\d+@localhost>$/m);
    expect((await rows()).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('retries with backoff, then marks the e-mail failed and logs it', async () => {
    await clearOutbox();
    await queue(1, 'Doomed');
    const failing: MailSender = { send: async () => Promise.reject(new Error('550 mailbox unavailable')), close: () => {} };
    const { logger, lines } = recordingLogger();
    const w = worker(failing, { maxAttempts: 3, backoffBaseMs: 1000, backoffMaxMs: 10_000 }, server.services.orm, logger);

    const t0 = Date.now();
    expect(await w.runOnce(() => new Date(t0))).toBe(1);
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: '550 mailbox unavailable' });
    expect(row?.nextAttemptAt.getTime()).toBe(t0 + 1000);
    // Not due yet: nothing is claimed.
    expect(await w.runOnce(() => new Date(t0 + 999))).toBe(0);
    expect(await w.runOnce(() => new Date(t0 + 1000))).toBe(1);
    [row] = await rows();
    expect(row?.nextAttemptAt.getTime()).toBe(t0 + 1000 + 2000);
    expect(await w.runOnce(() => new Date(t0 + 3000))).toBe(1);
    [row] = await rows();
    expect(row).toMatchObject({ status: 'failed', attempts: 3 });
    expect(await w.runOnce(() => new Date(t0 + 1_000_000))).toBe(0);
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      // The row's id finds it; its recipient and Subject stay out of the log.
      expect.stringMatching(/^E-mail \d+ failed 3 times and will not be retried \(`mail:retry` retries failed e-mail\): 550 mailbox unavailable$/),
    ]);

    // An operator fixed the cause: `mail:retry` gives it a fresh set of attempts, due now.
    const retryAt = new Date(t0 + 2_000_000);
    expect(await retryFailedMail(server.services.orm.em.fork(), retryAt)).toBe(1);
    [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 0 });
    expect(row?.nextAttemptAt.getTime()).toBe(retryAt.getTime());
    const smtp = await SmtpListener.start();
    try {
      const sender = smtpSender(smtp.url);
      expect(await worker(sender, {}, server.services.orm, logger).runOnce(() => retryAt)).toBe(1);
      sender.close();
      expect((await rows()).map((r) => r.status)).toEqual(['sent']);
      expect(smtp.received.map((mail) => mail.header('subject'))).toEqual(['Doomed 0']);
    } finally {
      await smtp.stop();
    }
  });

  it('loses nothing in an SMTP outage: 50 messages stored, then all delivered once by two instances', { timeout: 60_000 }, async () => {
    await clearOutbox();
    const smtp = await SmtpListener.start();
    await smtp.stop();
    try {
      // Two server instances over the same database: two workers, each with its own ORM and pool.
      const fast = { pollIntervalMs: 20, batchSize: 4, backoffBaseMs: 50, backoffMaxMs: 200, maxAttempts: 1000 };
      const sent = new Map<OutboxWorker, number>();
      const counting = (inner: MailSender, owner: () => OutboxWorker): MailSender => ({
        send: async (mail) => {
          await inner.send(mail);
          sent.set(owner(), (sent.get(owner()) ?? 0) + 1);
        },
        close: () => inner.close(),
      });
      const senderA = smtpSender(smtp.url);
      const senderB = smtpSender(smtp.url);
      senders.push(senderA, senderB);
      const a: OutboxWorker = worker(counting(senderA, () => a), fast);
      const b: OutboxWorker = worker(counting(senderB, () => b), fast, await secondOrm());
      a.start();
      b.start();

      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const res = await server.api('/api/contact', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.0.${Math.floor(i / 250)}.${(i % 250) + 1}` },
            body: JSON.stringify({
              firstName: 'Visitor',
              lastName: `Number ${i}`,
              email: `visitor${i}@example.com`,
              subject: `Outage message ${i}`,
              message: `Message body ${i}`,
              recaptchaToken: await altchaToken(server.api),
            }),
          });
          return res.status;
        }),
      );
      expect(answers).toEqual(Array(50).fill(200));
      expect(await server.services.orm.em.fork().count(ContactMessage, { subject: { $like: 'Outage message %' } })).toBe(50);

      // SMTP is down: every e-mail fails at least once and stays pending, with its error.
      await expect
        .poll(async () => (await rows()).every((r) => r.attempts >= 1 && r.status === 'pending'), { timeout: 10_000 })
        .toBe(true);
      expect((await rows())[0]?.lastError).toMatch(/ECONNREFUSED/);
      expect(smtp.received).toHaveLength(0);

      await smtp.listen();
      await expect.poll(() => smtp.received.length, { timeout: 20_000, interval: 50 }).toBe(50);
      await expect.poll(async () => (await rows()).every((r) => r.status === 'sent'), { timeout: 5_000 }).toBe(true);
      // Time for a duplicate to show up, if a row could be sent twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(smtp.received).toHaveLength(50);
      const subjects = smtp.received.map((mail) => mail.header('subject'));
      expect(new Set(subjects).size).toBe(50);
      expect(new Set(smtp.received.map((mail) => mail.header('message-id'))).size).toBe(50);
      for (let i = 0; i < 50; i++) expect(subjects).toContain(`Website contact: Outage message ${i}`);
      expect((sent.get(a) ?? 0) + (sent.get(b) ?? 0)).toBe(50);
    } finally {
      await smtp.stop();
    }
  });

  it('stores a batch template once and sends each recipient their own values, $-patterns and markup as typed', async () => {
    await clearOutbox();
    const smtp = await SmtpListener.start();
    try {
      const names = ['Ann <b>', 'Bo $& $1 $$', "Cy O'Neil & Co"];
      await server.services.orm.em.fork().transactional((em) =>
        enqueueMailBatch(
          em,
          ['name'] as const,
          (v) => ({ to: '', subject: 'Welcome', text: `Hello ${v.name}, and again ${v.name}.`, html: `<p>Hello ${v.name}</p>` }),
          names.map((name, i) => ({ to: `batch${i}@example.com`, values: { name: { text: name, html: escapeHtml(name) } } })),
        ),
      );
      // One body for the batch; each message holds only its values.
      expect(await server.services.orm.em.fork().count(OutboxTemplate, {})).toBeGreaterThanOrEqual(1);
      const stored = await rows();
      expect(stored.map((r) => [r.text, r.html, r.template?.id === stored[0]?.template?.id])).toEqual(names.map(() => [null, null, true]));

      const sender = smtpSender(smtp.url);
      senders.push(sender);
      const w = worker(sender, { batchSize: 10 });
      expect(await w.runOnce()).toBe(3);
      expect(smtp.received).toHaveLength(3);
      names.forEach((name, i) => {
        const mail = smtp.received.find((m) => m.header('to') === `batch${i}@example.com`);
        expect(mail?.text.trim()).toBe(`Hello ${name}, and again ${name}.`);
        expect(mail?.html).toContain(`<p>Hello ${escapeHtml(name)}</p>`);
      });
    } finally {
      await smtp.stop();
    }
  });

  it('sends a drained outbox over one SMTP connection, not one per e-mail', async () => {
    await clearOutbox();
    await queue(30, 'Pooled');
    const smtp = await SmtpListener.start();
    try {
      const sender = smtpSender(smtp.url);
      senders.push(sender);
      const w = worker(sender, { batchSize: 10 });
      for (let batch = 0; batch < 3; batch++) expect(await w.runOnce()).toBe(10);
      expect(smtp.received).toHaveLength(30);
      // A handshake per e-mail made a 10,000-investor notice take twenty minutes per instance.
      expect(smtp.connections).toBe(1);
    } finally {
      await smtp.stop();
    }
  });

  it('skips rows another instance is sending instead of waiting for them (SKIP LOCKED)', async () => {
    await clearOutbox();
    await queue(6, 'Locked');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const fromA: string[] = [];
    const fromB: string[] = [];
    const blocking: MailSender = {
      send: async (mail) => {
        entered();
        await held;
        fromA.push(mail.subject);
      },
      close: () => {},
    };
    const quick: MailSender = { send: async (mail) => void fromB.push(mail.subject), close: () => {} };
    const a = worker(blocking, { batchSize: 3 });
    const b = worker(quick, { batchSize: 3 }, await secondOrm());

    const claimA = a.runOnce();
    await inside;
    // A holds three rows locked in its open transaction; B takes the other three at once.
    expect(await b.runOnce()).toBe(3);
    expect(fromB.sort()).toEqual(['Locked 3', 'Locked 4', 'Locked 5']);
    release();
    expect(await claimA).toBe(3);
    expect(fromA.sort()).toEqual(['Locked 0', 'Locked 1', 'Locked 2']);
    expect((await rows()).every((r) => r.status === 'sent')).toBe(true);
  });

  it('never hands the same row to two workers claiming at the same moment', async () => {
    await clearOutbox();
    await queue(30, 'Race');
    const delivered: string[] = [];
    const slow: MailSender = {
      send: async (mail) => {
        // Holds the claim open, so that the other workers' claims run while these rows are locked.
        await new Promise((resolve) => setTimeout(resolve, 5));
        delivered.push(mail.subject);
      },
      close: () => {},
    };
    const claimers = [worker(slow, { batchSize: 3 }), worker(slow, { batchSize: 3 }, await secondOrm()), worker(slow, { batchSize: 3 })];
    // Every worker claims at once, again and again, until the outbox is empty.
    for (let round = 0; round < 20 && delivered.length < 30; round++) {
      const claimed = await Promise.all(claimers.map((w) => w.runOnce()));
      expect(claimed.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(9);
    }
    expect(delivered).toHaveLength(30);
    expect(new Set(delivered).size).toBe(30);
  });
});
