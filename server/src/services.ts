import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Database } from './db/database';
import { DatabaseNotifications } from './db/notifications';
import { NotifiedCache } from './db/notified-cache';
import type { CaptchaProvider } from './features/captcha/captcha-provider';
import { createCaptchaProvider } from './features/captcha/captcha.service';
import { FileExistence } from './features/files/file-existence';
import { FileStore } from './features/files/file-store';
import { createMailSender } from './features/mail/mail-sender';
import { OutboxWorker } from './features/mail/outbox-worker';
import type { Logger } from './logger';

/** What the features are given: one object built at start-up (or per test file). */
export interface Services {
  config: Config;
  orm: MikroORM;
  files: FileStore;
  fileExistence: FileExistence;
  logger: Logger;
  /** The public property list, as JSON (one entry). */
  propertyList: NotifiedCache;
  /** Investors' document lists, as JSON, by user. */
  documentLists: NotifiedCache;
  captcha: CaptchaProvider;
  /** Delivers the mail outbox; `startServer` starts it, features kick it after queueing mail. */
  outbox: OutboxWorker;
}

/** Builds the services over an open database; `close` releases what they hold. */
export async function createServices(
  config: Config,
  db: Pick<Database, 'orm' | 'url'>,
  logger: Logger,
): Promise<{ services: Services; close: () => Promise<void> }> {
  const notifications = new DatabaseNotifications(db.url, logger);
  await notifications.start();
  const propertyList = new NotifiedCache(notifications, { channel: 'property_list_changed', maxBytes: 1_000_000 });
  // A minute at most, like FileExistence: a file that vanishes from disk changes no row.
  const documentLists = new NotifiedCache(notifications, { channel: 'document_lists_changed', maxBytes: 32_000_000, ttlMs: 60_000 });
  await propertyList.start();
  await documentLists.start();
  const files = new FileStore(path.join(config.dataDir, 'files'));
  const mailSender = createMailSender(config, logger);
  const outbox = new OutboxWorker({
    orm: db.orm,
    sender: mailSender,
    from: config.mailFrom,
    messageIdHost: new URL(config.publicUrl).hostname,
    logger,
  });
  const services: Services = {
    config,
    orm: db.orm,
    files,
    fileExistence: new FileExistence(files),
    logger,
    propertyList,
    documentLists,
    captcha: createCaptchaProvider(config, logger),
    outbox,
  };
  const close = async () => {
    await outbox.stop();
    mailSender.close();
    await notifications.close();
  };
  return { services, close };
}
