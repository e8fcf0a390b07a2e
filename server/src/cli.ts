import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, StartupError } from './config';
import { startServer } from './server';
import { openDatabase } from './db/database';
import { seedDemoData } from './db/seed';
import { createFileStore } from './features/files/create-file-store';
import { retryFailedMail } from './features/mail/outbox';
import { createLogger } from './logger';
import { backupCommand, restoreCommand } from './features/backups/backup-commands';

const usage = `Usage: tsx src/cli.ts <command>
  start               migrate, seed the demo data when the database is embedded, and serve
  migrate             apply pending migrations
  seed --demo         load the demo data into an empty database
  mail:retry          send again the e-mail that failed all its attempts
  backup [--to PATH|s3://bucket/prefix] [--unencrypted]
                      back up the database, the files and the secrets; prints the archive's path
  backup --verify ARCHIVE
                      restore an archive into a scratch database and compare everything
  restore ARCHIVE     restore an archive into this (empty) install
  migration:create    write a migration for the difference between the entities and the database`;

async function main(argv: string[]): Promise<void> {
  const [command, ...flags] = argv;
  const config = loadConfig();
  const logger = createLogger(config.logLevel);

  if (command === 'start') {
    await startServer(config, logger);
    return;
  }
  if (command === 'backup') {
    await backupCommand(config, logger, flags);
    return;
  }
  if (command === 'restore') {
    await restoreCommand(config, logger, flags[0]);
    return;
  }

  const db = await openDatabase(config, logger);
  try {
    if (command === 'migrate') {
      await db.migrate();
      logger.info('Migrations are up to date.');
    } else if (command === 'seed') {
      if (!flags.includes('--demo')) throw new ConfigError('seed loads demo data with known passwords: say `seed --demo` to confirm.');
      await db.migrate();
      const files = await createFileStore(config);
      const result = await seedDemoData(db.orm.em.fork(), files).finally(() => files.close());
      logger.info(result === 'seeded' ? 'Demo data loaded.' : 'The database already has data; nothing was seeded.');
    } else if (command === 'mail:retry') {
      await db.migrate();
      const count = await retryFailedMail(db.orm.em.fork());
      logger.info(count === 0 ? 'No failed e-mail to retry.' : `${count} failed e-mail queued again; the running server sends them within seconds.`);
    } else if (command === 'migration:create') {
      const migrationsDir = fileURLToPath(new URL('./db/migrations', import.meta.url));
      mkdirSync(migrationsDir, { recursive: true });
      const migrator = db.orm.getMigrator();
      const result = await migrator.createMigration(migrationsDir, false, flags.includes('--initial'));
      logger.info(result.fileName ? `Wrote ${result.fileName}; add it to db/migrations/index.ts.` : 'No changes.');
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Start-up failures are one sentence, not a stack trace: the operator has something to fix.
  if (error instanceof StartupError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
