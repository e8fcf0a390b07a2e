import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { migrate, openOrm } from '../src/db/orm';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test cluster from which new databases can be created. */
    adminDatabaseUrl: string;
    templateDatabase: string;
    /** Set in the server-s3 project only (s3-global-setup.ts): every test server keeps its files in this S3 server's bucket. */
    s3Endpoint?: string;
    s3Bucket?: string;
  }
}

const templateDatabase = `everest_template_${process.pid}`;

/**
 * One PostgreSQL for the whole run: an embedded cluster in a fresh temp folder, or the server at
 * DATABASE_URL. The schema is migrated once into a template database; each test file then gets
 * its own copy in milliseconds (see harness.ts).
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'everest-test-'));
    chmodSync(dir, 0o755);
    const cluster = await startEmbeddedPostgres(dir, () => {}, undefined, true);
    adminUrl = cluster.url();
    stop = cluster.stop;
  }

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${templateDatabase}"`);
  await admin.query(`create database "${templateDatabase}"`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${templateDatabase}`;
  const orm = await openOrm(templateUrl.toString());
  await migrate(orm);
  await orm.close(true);

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', templateDatabase);

  return async () => {
    if (process.env.DATABASE_URL) {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${templateDatabase}" with (force)`);
      await client.end();
    }
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
