import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/harness';
import { openOrm } from '../../db/orm';
import { createLogger } from '../../logger';
import { smtpSender } from './mail-sender';
import { enqueueMail } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxWorker } from './outbox-worker';

// Shutdown stops the worker between two messages of its batch: the one on the wire is finished
// and recorded, the others wait for the next run (or another instance).
describe('the outbox worker stopped while it sends a batch', () => {
  let database: TestDatabase;
  let orm: MikroORM;
  let smtp: SMTPServer;
  const received: string[] = [];
  let holdFirst: () => void = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    holdFirst = resolve;
  });
  let releaseFirst: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    orm = await openOrm(database.url);
    // A real SMTP server that holds the first message's answer until the test lets it go.
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      disableReverseLookup: true,
      onData: (stream, session, callback) => {
        stream.resume();
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((a) => a.address).join(','));
          if (received.length === 1) {
            holdFirst();
            void released.then(() => callback());
          } else callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await orm.close(true);
    await database.drop();
  });

  it('finishes the message on the wire and leaves the rest of the batch pending', async () => {
    const em = orm.em.fork();
    for (const n of [1, 2, 3]) enqueueMail(em, { to: `r${n}@example.com`, subject: `S${n}`, text: 't', html: '<p>t</p>' });
    await em.flush();

    const sender = smtpSender(`smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`);
    const worker = new OutboxWorker({ orm, sender, from: 'x@example.com', messageIdHost: 'example.com', logger: createLogger('silent') }, { batchSize: 10 });
    worker.start();
    await firstArrived;
    const stopped = worker.stop();
    releaseFirst();
    await stopped;
    sender.close();

    expect(received).toEqual(['r1@example.com']);
    const rows = await orm.em.fork().find(OutboxMessage, {}, { orderBy: { id: 'asc' } });
    expect(rows.map((row) => [row.recipient, row.status])).toEqual([
      ['r1@example.com', 'sent'],
      ['r2@example.com', 'pending'],
      ['r3@example.com', 'pending'],
    ]);
  });
});
