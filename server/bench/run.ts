/**
 * `pnpm bench`: performance figures measured against the real server and a real PostgreSQL.
 * Each benchmark prints its figures and whether it meets its goal; nothing here is a test.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchActivity } from './activity';
import { benchAdminUsers } from './admin-users';
import { benchBackups } from './backups';
import { benchBulkDocuments } from './bulk-documents';
import { benchBulkImport } from './bulk-import';
import { benchDocuments } from './documents';
import { benchMailLanes } from './mail-lanes';
import { benchPropertyList } from './property-list';
import { benchPublicPages } from './public-pages';
import { startBenchServer } from './bench-server';
import { benchTwoInstances } from './two-instances';

// backups runs over the documents fixture before bulk-import changes it. bulk-import runs near the
// end: it adds 5,000 users and queues 10,000 e-mails that the outbox worker then delivers, which
// would weigh on any benchmark after it; mail-lanes, last, starts an instance that drains them
// with its own 50,000.
const benchmarks = {
  'property-list': benchPropertyList,
  'public-pages': benchPublicPages,
  documents: benchDocuments,
  'admin-users': benchAdminUsers,
  activity: benchActivity,
  'bulk-documents': benchBulkDocuments,
  'two-instances': benchTwoInstances,
  backups: benchBackups,
  'bulk-import': benchBulkImport,
  'mail-lanes': benchMailLanes,
};

// `pnpm --filter @everest/server bench admin-users` runs the named ones only; none named, all of them.
const named = process.argv.slice(2);
for (const name of named) if (!(name in benchmarks)) throw new Error(`no benchmark named ${name}: ${Object.keys(benchmarks).join(', ')}`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-'));
chmodSync(dir, 0o755);
const server = await startBenchServer(dir);
try {
  for (const [name, bench] of Object.entries(benchmarks)) if (named.length === 0 || named.includes(name)) await bench(server);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
