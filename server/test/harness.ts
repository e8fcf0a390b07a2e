import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { inject } from 'vitest';
import { createApp, type AppOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { openOrm } from '../src/db/orm';
import { seedDemoData } from '../src/db/seed';
import { createLogger } from '../src/logger';
import { createServices, type Services } from '../src/services';
import { AnswerCheck } from './openapi-answers';

export interface TestServer {
  /** Base URL of the real HTTP server, e.g. http://127.0.0.1:41234 */
  url: string;
  databaseUrl: string;
  services: Services;
  /** fetch against the server: `api('/api/properties')`. */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  /** Every answer so far, held against the OpenAPI description; `close` fails on a mismatch. */
  answers: AnswerCheck;
  close: () => Promise<void>;
}

export interface TestServerOptions extends AppOptions {
  /** Load the fixtures' demo data into this test file's database. */
  seed?: boolean;
  env?: Record<string, string>;
  /** A second instance: the same database and file store as this server, as behind a load balancer. */
  besides?: TestServer;
  /** Services to use instead of the configured ones (a geocoder with a short timeout, say). */
  overrides?: Partial<Services>;
  /** Where the server's log lines go (at the env's LOG_LEVEL, `error` unless asked), for a test that reads them. */
  logTo?: DestinationStream;
}

export interface TestDatabase {
  /** URL of a fresh copy of the migrated template. */
  url: string;
  drop: () => Promise<void>;
}

/** A database of its own for a test file, copied from the migrated template in milliseconds. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const database = `everest_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${database}" template "${inject('templateDatabase')}"`);
  await admin.end();
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  return {
    url: databaseUrl.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${database}" with (force)`);
      await client.end();
    },
  };
}

/**
 * In the server-s3 project, a bucket prefix per database (so a second instance shares the
 * first one's files); elsewhere nothing, and files live in DATA_DIR.
 */
function s3Env(databaseUrl: string): Record<string, string> {
  const endpoint = inject('s3Endpoint');
  const bucket = inject('s3Bucket');
  if (!endpoint || !bucket) return {};
  return {
    FILE_STORE: `s3://${bucket}/${new URL(databaseUrl).pathname.slice(1)}`,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
}

/**
 * The real server on an ephemeral port, over a database of its own copied from the migrated
 * template, with a file store in a fresh temp folder (or over those of `besides`).
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // A second instance shares the first one's database and files, and leaves them to it.
  const database = options.besides ? null : await createTestDatabase();
  const url = database?.url ?? options.besides?.databaseUrl ?? '';
  const dataDir = options.besides?.services.config.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'everest-data-'));
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    LOG_LEVEL: 'error',
    ...s3Env(url),
    // Tests sign in as the demo administrator without a second step, as the demo does; the
    // tests of the second step itself ask for REQUIRE_SECOND_STEP=administrator.
    REQUIRE_SECOND_STEP: 'none',
    ...options.env,
  });
  const orm = await openOrm(url);
  const { services, close: closeServices } = await createServices(config, { orm, url }, createLogger(config.logLevel, options.logTo));
  Object.assign(services, options.overrides);
  if (options.seed) await seedDemoData(orm.em.fork(), services.files);

  const server = createApp(services, options).listen(0, '127.0.0.1');
  const answers = new AnswerCheck();
  answers.watch(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    databaseUrl: url,
    services,
    api: (p, init) => fetch(`${baseUrl}${p}`, init),
    answers,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closeServices();
      await orm.close(true);
      if (database) {
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
      // OPENAPI_ANSWERS_LOG=file counts the answers checked, for a report of the whole suite.
      if (process.env.OPENAPI_ANSWERS_LOG) appendFileSync(process.env.OPENAPI_ANSWERS_LOG, `${answers.checked} ${answers.mismatches.length}\n`);
      answers.assertNone();
    },
  };
}
