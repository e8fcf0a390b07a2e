import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { demoPassword, demoUsers } from '@everest/fixtures';
import { createApp } from './app';
import { StartupError, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { leaveShutdownSignalsToCaller } from './db/embedded';
import { seedDemoData } from './db/seed';
import type { Logger } from './logger';
import { sweepUnreferencedFiles } from './features/files/unreferenced-files';
import { createServices, type Services } from './services';
import { assertNoUnfinishedRestore } from './features/backups/restore-backup';
import { onSameDisk } from './features/backups/backup-place';
import { backupLocation } from './features/system/system.service';
import { timeZone } from '@everest/core/domain';

/** The built web app, served by the same process. */
export const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** How long shutdown waits for the requests in progress (a large download) before cutting them. */
export const shutdownGraceMs = 30_000;

interface Running {
  db?: Database;
  services?: Services;
  closeServices?: () => Promise<void>;
  server?: Server;
  connections?: Connections;
}

/**
 * Starts the product: database (embedded unless DATABASE_URL), migrations, demo data for the
 * embedded default, then the HTTP server.
 *
 * SIGINT, SIGTERM or SIGHUP (its terminal closed: an SSH session dropped, a window shut) stops
 * it gracefully: readiness turns 503 and the server stops accepting
 * connections; the requests in progress finish (for at most `shutdownGraceMs`, then they are
 * cut); the outbox worker stops after the message it is sending; the database connections
 * close and an embedded PostgreSQL stops; the process exits 0. A signal during start-up stops
 * the server once it is up (nothing is left half-started); a second signal exits at once (1).
 */
export async function startServer(config: Config, logger: Logger): Promise<void> {
  leaveShutdownSignalsToCaller();
  const running: Running = {};
  // Once, whether a signal or a failed start-up asks first.
  let closing: Promise<void> | undefined;
  const closeOpened = () =>
    (closing ??= (async () => {
      await running.closeServices?.();
      await running.db?.close();
    })());
  const startup = start(config, logger, running);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting.`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`${signal}: stopping; the requests in progress may take up to ${shutdownGraceMs / 1000} s.`);
    try {
      // A failed start-up is reported (and the process ended) by the CLI.
      await startup.catch(() => undefined);
      if (running.services) running.services.lifecycle.stopping = true;
      if (running.server && running.connections) await drain(running.server, running.connections, shutdownGraceMs, logger);
      await closeOpened();
      logger.info('Stopped.');
      process.exit(0);
    } catch (error) {
      logger.error('shutdown failed', error);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
  await startup.catch(async (error: unknown) => {
    // A start that failed half-way (its port taken, say) stops what it had started, the embedded
    // PostgreSQL above all, before the CLI reports it and exits: a PostgreSQL left running would
    // hold the data folder against the next start.
    await closeOpened().catch((closeError: unknown) => logger.error('closing after a failed start-up failed', closeError));
    throw error;
  });
}

async function start(config: Config, logger: Logger, running: Running): Promise<void> {
  const db = await openDatabase(config, logger);
  running.db = db;
  await assertNoUnfinishedRestore(db.orm);
  await db.migrate();
  const { services, close: closeServices } = await createServices(config, db, logger);
  running.services = services;
  running.closeServices = closeServices;
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

  // Mail queued while the server was down (or by another instance) goes out from now on.
  services.outbox.start();
  services.housekeeping.start();
  services.backupSchedule.start();
  const app = createApp(services, { webDist });
  const server = app.listen(config.port, config.host);
  running.connections = trackConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`Port ${config.port} is already in use: stop the other program or set PORT to a free port.`)
          : error,
      );
    });
  });
  running.server = server;

  logger.info(`Everest Properties is running at ${config.publicUrl} on Node ${process.version}`);
  logger.info(
    config.secondStep.setting === 'none'
      ? `Two-step sign-in is required of no role (REQUIRE_SECOND_STEP=none${db.embedded ? ", the demo's default" : ''}); anyone may turn it on in Manage Profile.`
      : `Two-step sign-in is required of: ${config.secondStep.requiredRoles.join(', ')} (REQUIRE_SECOND_STEP=${config.secondStep.setting}).`,
  );
  const backups = config.backups;
  if (!backups.schedule) logger.warn('Scheduled backups are off (no BACKUP_KEY, or BACKUP_SCHEDULE=off): nothing can bring the data back after a lost disk. See "Backups" in the README.');
  else {
    const sameDisk = (await onSameDisk(backups.to, config.dataDir)) ? ', on the same disk as the data: set BACKUP_TO to an s3:// bucket or another disk' : '';
    logger.info(`Backups: "${backups.schedule}" in ${timeZone} into ${backupLocation(config)}${sameDisk}.`);
  }
  if (db.embedded) {
    logger.info(`Demo sign-ins (password ${demoPassword}):`);
    for (const user of demoUsers) logger.info(`  ${user.email.padEnd(24)} ${user.role}`);
  }
}

/** The server's connections, and the answers in progress on them. */
interface Connections {
  sockets: Set<Socket>;
  answers: Set<ServerResponse>;
}

/** Follows the connections and the answers in progress, for `drain` to end each when it is idle. */
function trackConnections(server: Server): Connections {
  const tracked: Connections = { sockets: new Set(), answers: new Set() };
  server.on('connection', (socket: Socket) => {
    tracked.sockets.add(socket);
    socket.once('close', () => tracked.sockets.delete(socket));
  });
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    tracked.answers.add(res);
    res.once('close', () => tracked.answers.delete(res));
  });
  return tracked;
}

/**
 * Stops accepting connections and waits for the answers in progress, for at most `graceMs`.
 *
 * Not `server.close()`: since Node 19 it also calls closeIdleConnections, which destroys a
 * connection whose answer has been ended (`res.end()`) even while its last bytes (up to a
 * megabyte of a download, see local-file-store's buffers) still wait in the socket for a slow
 * client; the client got a cut file. Here the listening socket is closed as net.Server does,
 * and each connection is ended (FIN, after every queued byte) by us: an idle kept-alive one at
 * once, one with an answer in progress once that answer is sent; a request that arrives
 * meanwhile is answered with Connection: close. The server closes when the last is gone, and a
 * client's next request goes to another instance.
 */
async function drain(server: Server, connections: Connections, graceMs: number, logger: Logger): Promise<void> {
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  const endAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.shouldKeepAlive = false;
    else if (res.writableFinished) res.socket?.end();
    else res.once('finish', () => res.socket?.end());
  };
  const busy = new Set<Socket | null>();
  for (const res of connections.answers) {
    busy.add(res.socket);
    endAfter(res);
  }
  for (const socket of connections.sockets) if (!busy.has(socket)) socket.end();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => endAfter(res));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), graceMs);
  });
  try {
    if ((await Promise.race([closed, expired])) === 'expired') {
      logger.warn(`Requests still running after ${graceMs / 1000} s were cut off.`);
      server.closeAllConnections();
      for (const socket of connections.sockets) socket.destroy();
      await closed;
    }
  } finally {
    clearTimeout(timer);
  }
}
