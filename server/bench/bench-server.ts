import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { seedDemoData } from '../src/db/seed';
import { createLogger, logDestination } from '../src/logger';
import { webDist } from '../src/server';
import { createServices, type Services } from '../src/services';

export interface BenchServer {
  url: string;
  /** Its PostgreSQL, for further instances over the same data. */
  databaseUrl: string;
  services: Services;
  close: () => Promise<void>;
}

/**
 * The product as `pnpm start` runs it (embedded PostgreSQL, demo data), on a free port. It logs
 * as deployed (`info`: a line per request), into /dev/null rather than over the figures.
 */
export async function startBenchServer(dataDir: string): Promise<BenchServer> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', PORT: '0' });
  const logger = createLogger(config.logLevel, logDestination('/dev/null'));
  const db = await openDatabase(config, logger);
  await db.migrate();
  const { services, close } = await createServices(config, db, logger);
  await seedDemoData(db.orm.em.fork(), services.files);
  const server = createApp(services, { webDist }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    databaseUrl: db.url,
    services,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await close();
      await db.close();
    },
  };
}
