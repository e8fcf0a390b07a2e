import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { StartupError, type Config } from '../config';
import type { Logger } from '../logger';
import { runningEmbeddedPostgres, startEmbeddedPostgres } from './embedded';
import { migrate, openOrm } from './orm';

export interface Database {
  orm: MikroORM;
  url: string;
  /** True when this process started its own PostgreSQL (no DATABASE_URL). */
  embedded: boolean;
  migrate: () => Promise<void>;
  close: () => Promise<void>;
}

function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database at DATABASE_URL, or, without it, an embedded PostgreSQL under DATA_DIR/postgres.
 * A database that does not answer stops start-up with one sentence.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  logger: Logger,
  /** Use the embedded PostgreSQL a running server has started, rather than refuse to start a second (commands run beside a server). */
  options: { besideServer?: boolean } = {},
): Promise<Database> {
  let url = config.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    try {
      const dir = path.join(config.dataDir, 'postgres');
      const cluster = (options.besideServer ? runningEmbeddedPostgres(dir) : null) ?? (await startEmbeddedPostgres(dir, logger.debug));
      await ensureDatabase(cluster.url(), 'everest');
      url = cluster.url('everest');
      stopEmbedded = cluster.stop;
    } catch (error) {
      throw new StartupError(
        `The embedded PostgreSQL could not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  let orm: MikroORM;
  try {
    orm = await withTimeout(openOrm(url), 15_000, 'no answer within 15 seconds');
    await withTimeout(orm.em.getConnection().execute('select 1'), 15_000, 'no answer within 15 seconds');
  } catch (error) {
    await stopEmbedded?.();
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new StartupError(`Cannot connect to the database at ${describe(url)}: ${reason}. Check DATABASE_URL.`);
  }

  return {
    orm,
    url,
    embedded: stopEmbedded !== undefined,
    migrate: () => migrate(orm),
    close: async () => {
      await orm.close(true);
      await stopEmbedded?.();
    },
  };
}

/** Creates `name` on the cluster at `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}
