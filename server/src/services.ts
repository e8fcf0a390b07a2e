import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Database } from './db/database';
import { DatabaseNotifications } from './db/notifications';
import { NotifiedCache } from './db/notified-cache';
import type { CaptchaProvider } from './features/captcha/captcha-provider';
import { createCaptchaProvider } from './features/captcha/captcha.service';
import type { SessionUsers } from './features/auth/session';
import { FileExistence } from './features/files/file-existence';
import { FileStore } from './features/files/file-store';
import { createMailSender } from './features/mail/mail-sender';
import { OutboxWorker } from './features/mail/outbox-worker';
import type { SerializedJson } from './http/serialized-json';
import type { Logger } from './logger';

const jsonSize = (answer: SerializedJson) => answer.json.length;

/** What the features are given: one object built at start-up (or per test file). */
export interface Services {
  config: Config;
  orm: MikroORM;
  files: FileStore;
  fileExistence: FileExistence;
  logger: Logger;
  /** The public property list, as JSON (one entry). */
  propertyList: NotifiedCache<SerializedJson>;
  /** Investors' document lists, as JSON, by user. */
  documentLists: NotifiedCache<SerializedJson>;
  /** Users as session checks see them, by id. */
  sessionUsers: SessionUsers;
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
  const propertyList = new NotifiedCache<SerializedJson>(notifications, { channel: 'property_list_changed', maxBytes: 1_000_000, sizeOf: jsonSize });
  // A minute at most, like FileExistence: a file that vanishes from disk changes no row.
  const documentLists = new NotifiedCache<SerializedJson>(notifications, {
    channel: 'document_lists_changed',
    maxBytes: 32_000_000,
    ttlMs: 60_000,
    sizeOf: jsonSize,
  });
  // Revocation rests on the notification (and each writing route's own clear); the TTL only
  // bounds what an unforeseen write path could leave behind.
  const sessionUsers: SessionUsers = new NotifiedCache(notifications, {
    channel: 'session_users_changed',
    maxBytes: 4_000_000,
    ttlMs: 60_000,
    sizeOf: (record) => 200 + (record?.email.length ?? 0),
  });
  // One after another: they LISTEN on the same connection.
  for (const cache of [propertyList, documentLists, sessionUsers]) await cache.start();
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
    sessionUsers,
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
