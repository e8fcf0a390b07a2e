import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { demoPassword, demoUsers } from '@everest/fixtures';
import { createApp } from './app';
import { StartupError, type Config } from './config';
import { openDatabase } from './db/database';
import { seedDemoData } from './db/seed';
import type { Logger } from './logger';
import { sweepUnreferencedFiles } from './features/files/unreferenced-files';
import { createServices } from './services';

/** The built web app, served by the same process. */
export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * Starts the product: database (embedded unless DATABASE_URL), migrations, demo data for the
 * embedded default, then the HTTP server. SIGINT and SIGTERM stop it cleanly, database included.
 */
export async function startServer(config: Config, logger: Logger): Promise<void> {
  const db = await openDatabase(config, logger);
  const running: { server?: Server; closeServices?: () => Promise<void> } = {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping.`);
    await new Promise<void>((resolve) => (running.server ? running.server.close(() => resolve()) : resolve()));
    await running.closeServices?.();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await db.migrate();
  const { services, close: closeServices } = await createServices(config, db, logger);
  if (db.embedded && (await seedDemoData(db.orm.em.fork(), services.files)) === 'seeded') {
    logger.info('Demo data loaded.');
  }

  // Node ends any request after 5 minutes (http.Server requestTimeout), so a temp file untouched
  // for 10 belongs to a request that died with its server, not to another instance's upload.
  const swept = await services.files.sweepTemp(10 * 60_000);
  if (swept > 0) logger.info(`Removed ${swept} unfinished upload${swept === 1 ? '' : 's'} from the file store's temp folder.`);
  // An hour: far longer than an upload takes between keeping its file and committing its row.
  const unreferenced = await sweepUnreferencedFiles(db.orm.em.fork(), services.files, 60 * 60_000);
  if (unreferenced.files > 0) logger.info(`Removed ${unreferenced.files} stored file${unreferenced.files === 1 ? '' : 's'} that no document or photo names any more.`);

  running.closeServices = closeServices;
  // Mail queued while the server was down (or by another instance) goes out from now on.
  services.outbox.start();
  const app = createApp(services, { webDist });
  const server = app.listen(config.port, config.host);
  running.server = server;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => {
      void db.close();
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`Port ${config.port} is already in use: stop the other program or set PORT to a free port.`)
          : error,
      );
    });
  });

  logger.info(`Everest Properties is running at ${config.publicUrl}`);
  logger.info(
    config.secondStep.setting === 'none'
      ? `Two-step sign-in is required of no role (REQUIRE_SECOND_STEP=none${db.embedded ? ", the demo's default" : ''}); anyone may turn it on in Manage Profile.`
      : `Two-step sign-in is required of: ${config.secondStep.requiredRoles.join(', ')} (REQUIRE_SECOND_STEP=${config.secondStep.setting}).`,
  );
  if (db.embedded) {
    logger.info(`Demo sign-ins (password ${demoPassword}):`);
    for (const user of demoUsers) logger.info(`  ${user.email.padEnd(24)} ${user.role}`);
  }
}
