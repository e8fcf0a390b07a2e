// What the sync says it did, against the real server and PostgreSQL as sync-engine.test.ts does:
// a run that sends nothing says so, a file is read only once its writer has finished, a file the
// portal would refuse gets the portal's sentence, a document nobody can read is said to be one,
// and a correction reaches its readers in the digest. Time is driven by short windows.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/harness';
// Types only: the server's global setup (run by vitest.config.ts) declares what it provides.
import type {} from '../../../server/test/global-setup';
import { createPortal, type Portal } from './portal';
import { SyncEngine, type SyncEvent, type SyncOptions } from './sync-engine';
import { pdf, removeWorkspaces, workspace, write } from './testing/folder';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(async () => {
  await server?.close();
  removeWorkspaces();
});

function options(space: { folder: string; ledgerFile: string }, portal: Portal, events: SyncEvent[] = []): SyncOptions {
  return {
    ...space,
    portal,
    stabilityMs: 250,
    tickMs: 50,
    backoff: { baseMs: 100, maxMs: 400 },
    digestQuietMs: 0,
    watch: false,
    onEvent: (event) => events.push(event),
  };
}

describe('a run says what it did', () => {
  it('says "0 published, 3 already on the portal" on a second run that sends nothing, and never counts the manifest', async () => {
    const space = workspace('2025-Q1');
    write(space.folder, 'properties/General/Reported Letter One.pdf', pdf('letter one'));
    write(space.folder, 'properties/General/Reported Letter Two.pdf', pdf('letter two'));
    write(space.folder, 'investors/Reported K-1.pdf', pdf('k-1'));
    write(space.folder, 'investors/manifest.csv', Buffer.from('email,filename,document_category,title\ninvestor@example.com,Reported K-1.pdf,tax,Reported K-1\n'));
    const portal = createPortal({ serverUrl: server.url, ...admin });

    const first = await SyncEngine.create(options(space, portal));
    expect(await first.runOnce()).toBe(true);
    expect(first.status().summary).toBe('3 published, 0 already on the portal, 0 need attention, 0 still being written, 0 skipped by rule');
    expect(first.status().report.map((item) => item.path)).not.toContain('investors/manifest.csv');

    const events: SyncEvent[] = [];
    const second = await SyncEngine.create(options(space, portal, events));
    expect(await second.runOnce()).toBe(true);
    expect(second.status().summary).toBe('0 published, 3 already on the portal, 0 need attention, 0 still being written, 0 skipped by rule');
    expect(second.status().report.map((item) => [item.path, item.outcome])).toEqual([
      ['investors/Reported K-1.pdf', 'already-published'],
      ['properties/General/Reported Letter One.pdf', 'already-published'],
      ['properties/General/Reported Letter Two.pdf', 'already-published'],
    ]);
    // Nothing it says of this run is "published".
    expect(events.filter((event) => event.state === 'published')).toEqual([]);
  });
});
