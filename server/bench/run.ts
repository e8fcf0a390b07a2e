/**
 * `pnpm bench`: performance figures measured against the real server and a real PostgreSQL.
 * Each benchmark prints its figures and whether it meets its goal; nothing here is a test.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchDocuments } from './documents';
import { benchPropertyList } from './property-list';
import { startBenchServer } from './bench-server';

const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-'));
chmodSync(dir, 0o755);
const server = await startBenchServer(dir);
try {
  await benchPropertyList(server);
  await benchDocuments(server);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
