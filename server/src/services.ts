import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from './config';
import type { Database } from './db/database';
import { DatabaseNotifications } from './db/notifications';
import { FileStore } from './features/files/file-store';
import { PropertyListCache } from './features/properties/property-list-cache';
import { listPublicProperties } from './features/properties/properties.service';
import type { Logger } from './logger';

/** What the features are given: one object built at start-up (or per test file). */
export interface Services {
  config: Config;
  orm: MikroORM;
  files: FileStore;
  logger: Logger;
  propertyList: PropertyListCache;
}

/** Builds the services over an open database; `close` releases what they hold. */
export async function createServices(
  config: Config,
  db: Pick<Database, 'orm' | 'url'>,
  logger: Logger,
): Promise<{ services: Services; close: () => Promise<void> }> {
  const notifications = new DatabaseNotifications(db.url, logger);
  await notifications.start();
  const propertyList = new PropertyListCache(notifications, () => listPublicProperties(db.orm.em.fork()));
  await propertyList.start();
  const services: Services = {
    config,
    orm: db.orm,
    files: new FileStore(path.join(config.dataDir, 'files')),
    logger,
    propertyList,
  };
  return { services, close: () => notifications.close() };
}
