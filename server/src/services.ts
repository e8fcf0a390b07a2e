import type { MikroORM } from '@mikro-orm/postgresql';
import { cacheTable, type CacheName } from './caches';
import type { Config } from './config';
import type { Database } from './db/database';
import { NotifiedCache } from './db/notified-cache';
import { DatabaseNotifications } from './db/notifications';
import type { SessionUsers } from './features/auth/session';
import type { CaptchaProvider } from './features/captcha/captcha-provider';
import { createCaptchaProvider } from './features/captcha/captcha.service';
import type { LiveShares } from './features/document-access/document-policy';
import type { DocumentListCache } from './features/document-access/documents.routes';
import type { PropertyDocumentCache } from './features/document-access/documents.service';
import { FileExistence } from './features/files/file-existence';
import { createFileStore } from './features/files/create-file-store';
import type { FileStore } from './features/files/file-store';
import { Geocoder } from './features/geocoding/geocoder';
import { BackupSchedule } from './features/backups/backup-schedule';
import { Housekeeping } from './features/housekeeping/housekeeping';
import { createMailSender } from './features/mail/mail-sender';
import { OutboxWorker } from './features/mail/outbox-worker';
import type { PropertyListCache } from './features/properties/properties.service';
import type { PublicPageCache } from './features/public-pages/public-pages';
import type { UserListCache } from './features/users/admin-users.routes';
import type { SerializedJson } from './http/serialized-json';
import type { CallEffects } from './http/state';
import type { Logger } from './logger';
import { Metrics } from './features/metrics/metrics';

// ---- Caches ----------------------------------------------------------------------------------

// The string and its forms as sent (bytes, brotli, gzip: the compressed ones about a third each).
const jsonSize = <T>(answer: SerializedJson<T>) => answer.json.length * 2;

/** The caches of the table (caches.ts), each typed by what its feature keeps in it. */
export interface Caches {
  propertyList: PropertyListCache;
  publicPages: PublicPageCache;
  documentLists: DocumentListCache;
  propertyDocuments: PropertyDocumentCache;
  userLists: UserListCache;
  sessionUsers: SessionUsers;
  liveShares: LiveShares;
}

/** The caches of the table, listening on `notifications`. */
async function createCaches(notifications: DatabaseNotifications): Promise<Caches> {
  const options = <N extends CacheName>(name: N) => {
    const { channel, maxBytes, ttlMs } = cacheTable[name];
    return { channel, maxBytes, ttlMs };
  };
  const caches: Caches = {
    propertyList: new NotifiedCache(notifications, { ...options('propertyList'), sizeOf: jsonSize }),
    publicPages: new NotifiedCache(notifications, {
      ...options('publicPages'),
      sizeOf: (page) => page.html.length + page.br.length + page.gzip.length,
    }),
    documentLists: new NotifiedCache(notifications, { ...options('documentLists'), sizeOf: jsonSize }),
    propertyDocuments: new NotifiedCache(notifications, {
      ...options('propertyDocuments'),
      sizeOf: (documents) => documents.reduce((bytes, document) => bytes + 2 * (document.head.length + document.tail.length) + 200, 0),
    }),
    userLists: new NotifiedCache(notifications, { ...options('userLists'), sizeOf: jsonSize }),
    sessionUsers: new NotifiedCache(notifications, {
      ...options('sessionUsers'),
      sizeOf: (record) => 200 + (record ? record.email.length + 40 * record.endedSessions.length : 0),
    }),
    liveShares: new NotifiedCache(notifications, {
      ...options('liveShares'),
      sizeOf: (share) => 200 + (share ? share.ownerEmail.length + 8 * share.propertyIds.length : 0),
    }),
  };
  // One after another: they LISTEN on the same connection.
  for (const cache of Object.values(caches)) await cache.start();
  // A list made of property documents dropped while it was being made is not kept: dropping them
  // drops the lists, whichever of the two notifications comes first.
  await notifications.on(cacheTable.propertyDocuments.channel, () => caches.documentLists.clear());
  return caches;
}

// ---- Services --------------------------------------------------------------------------------

/** What the features are given: one object built at start-up (or per test file). */
export interface Services extends Caches {
  config: Config;
  orm: MikroORM;
  files: FileStore;
  fileExistence: FileExistence;
  logger: Logger;
  captcha: CaptchaProvider;
  /** Address to coordinates (GEOCODER_URL), one search at a time for the whole instance. */
  geocoder: Geocoder;
  /** Delivers the mail outbox; `startServer` starts it, the 'queues-mail' effect wakes it. */
  outbox: OutboxWorker;
  /** What this server does once a call with each effect is over (see CallEffect). */
  effects: CallEffects;
  /** Prunes what has expired on a timer; `startServer` starts it. */
  housekeeping: Housekeeping;
  /** Set when shutdown begins: readiness answers 503, so a load balancer sends nothing new. */
  lifecycle: { stopping: boolean };
  /** The operators' figures, read at GET /metrics (METRICS_TOKEN). */
  metrics: Metrics;
  /** BACKUP_SCHEDULE; `startServer` starts it. */
  backupSchedule: BackupSchedule;
  /** Where the database is, for what opens connections of its own (a backup's snapshot). */
  database: { url: string; embedded: boolean };
}

/** Builds the services over an open database; `close` releases what they hold. */
export async function createServices(
  config: Config,
  db: Pick<Database, 'orm' | 'url'> & Partial<Pick<Database, 'embedded'>>,
  logger: Logger,
): Promise<{ services: Services; close: () => Promise<void> }> {
  const notifications = new DatabaseNotifications(db.url, logger);
  await notifications.start();
  const caches = await createCaches(notifications);
  const files = await createFileStore(config);
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
    ...caches,
    captcha: createCaptchaProvider(config, logger),
    geocoder: new Geocoder({
      url: config.geocoderUrl,
      // OpenStreetMap's usage policy: name the application and a way to reach its operator.
      userAgent: `EverestProperties-Admin/1.0 (+${config.publicUrl}; ${config.contactEmail})`,
    }),
    outbox,
    lifecycle: { stopping: false },
    metrics: new Metrics(db.orm),
    database: { url: db.url, embedded: db.embedded ?? false },
    effects: {
      // The database's notice reaches every instance a moment later; this one acts at once.
      'ends-sessions': () => caches.sessionUsers.clear(),
      'queues-mail': () => outbox.kick(),
      'changes-documents': () => caches.documentLists.clear(),
      'changes-users': () => caches.userLists.clear(),
      'changes-shares': () => caches.liveShares.clear(),
    },
    housekeeping: new Housekeeping({ orm: db.orm, files, logger, intervalMs: config.housekeepingIntervalMs }),
    backupSchedule: new BackupSchedule(
      {
        orm: db.orm,
        databaseUrl: db.url,
        files,
        dataDir: config.dataDir,
        backups: config.backups,
        secretsFromEnvironment: config.secretsFromEnvironment,
        logger,
        systemUrl: `${config.publicUrl}/investor-services`,
        onMailQueued: () => outbox.kick(),
      },
      config.backups.schedule,
    ),
  };
  const close = async () => {
    await services.backupSchedule.stop();
    await services.housekeeping.stop();
    await outbox.stop();
    mailSender.close();
    await notifications.close();
    files.close();
  };
  return { services, close };
}
