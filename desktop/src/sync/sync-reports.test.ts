// What the sync says it did, against the real server and PostgreSQL as sync-engine.test.ts does:
// a run that sends nothing says so, a file is read only once its writer has finished, a file the
// portal would refuse gets the portal's sentence, a document nobody can read is said to be one,
// and a correction reaches its readers in the digest. Time is driven by short windows.

import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '@everest/core/client';
import { publishingMessages } from '@everest/core/domain';
import { SmtpListener, startTestServer, type TestServer } from '@everest/server/testing';
import { planFolderDrop } from '../main/folder-drop/drop-plan';
import { emailToldSentence } from './digest';
import { createPortal, type Portal } from './portal';
import { stabilityMessages } from './stability';
import { SyncEngine, type SyncEvent, type SyncOptions } from './sync-engine';
import { pdf, removeWorkspaces, workspace, write } from '../../test/folder';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
  const signedIn = await createApiClient({ baseUrl: server.url }).call('login', { body: admin });
  if (!('token' in signedIn)) throw new Error('The test administrator has no second step.');
  token = signedIn.token;
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

const adminClient = () => createApiClient({ baseUrl: server.url, getToken: () => token });

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

describe('a file the portal would refuse', () => {
  it('gives a .docx that is really a PDF the portal\'s sentence in a Windows-1252, semicolon manifest, never "file not found"', async () => {
    const space = workspace('2025-Q2');
    write(space.folder, 'investors/Scan John.docx', pdf('a scan saved under the wrong name'));
    write(space.folder, 'investors/Side Letter Cover.pdf', pdf('cover'));
    // As Excel saves "CSV" on a Western Windows: Windows-1252, semicolons, a description column.
    const manifest = [
      'email;filename;document_category;title;description',
      'john.smith@example.com;Scan John.docx;legal;Signed side letter;',
      'john.smith@example.com;Side Letter Cover.pdf;legal;Side letter cover;Reçu le 3 février',
    ].join('\r\n');
    write(space.folder, 'investors/manifest.csv', Buffer.from(manifest, 'latin1'));
    const engine = await SyncEngine.create(options(space, createPortal({ serverUrl: server.url, ...admin })));
    expect(await engine.runOnce()).toBe(false);

    const notAWordDocument = publishingMessages.contentNotAsNamed('.docx');
    const { report } = engine.status();
    expect(report.filter((item) => item.outcome === 'needs-attention').map((item) => [item.path, item.row, item.message])).toEqual([
      ['investors/Scan John.docx', undefined, notAWordDocument],
      ['investors/manifest.csv', 2, notAWordDocument],
    ]);
    expect(report.find((item) => item.path === 'investors/Side Letter Cover.pdf')?.outcome).toBe('published');
    const { documents } = await adminClient().call('adminPersonalDocuments', { query: { search: 'Side letter cover' } });
    expect(documents.map((d) => [d.userEmail, d.description])).toEqual([['john.smith@example.com', 'Reçu le 3 février']]);
  });
});

describe('a property no investor can see', () => {
  it('publishes to it all the same and says "No investor can see this document", in the sync\'s report and in Folder Drop\'s plan', async () => {
    const space = workspace('2025-Q3');
    // Fig Garden Court is sold and not shown to investors (the seed's investorRelations false).
    write(space.folder, 'properties/Fig Garden Court/Hidden Closing Statement.pdf', pdf('closing statement'));
    write(space.folder, 'properties/Sunset Terrace Apartments/Seen Operating Report.pdf', pdf('operating report'));
    const portal = createPortal({ serverUrl: server.url, ...admin });
    const warning = `${publishingMessages.noReader}. ${publishingMessages.noReaderBecause('Fig Garden Court', false)}`;

    const plan = await planFolderDrop(space.folder, portal);
    expect(plan.propertyDocuments.map((d) => [d.property, d.noReader])).toEqual([
      ['Fig Garden Court', warning],
      ['Sunset Terrace Apartments', null],
    ]);

    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create(options(space, portal, events));
    expect(await engine.runOnce()).toBe(true);
    const { report } = engine.status();
    expect(report.map((item) => [item.path, item.outcome, item.message])).toEqual([
      ['properties/Fig Garden Court/Hidden Closing Statement.pdf', 'published', warning],
      ['properties/Sunset Terrace Apartments/Seen Operating Report.pdf', 'published', 'Published.'],
    ]);
    const said = events.find((e) => e.path === 'properties/Fig Garden Court/Hidden Closing Statement.pdf' && e.state === 'published');
    expect(said?.message).toContain(warning);
  });
});

describe('a scanner that writes a PDF as incremental updates', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('publishes it once, whole, though every chunk ends in %%EOF and the pauses are longer than the window: never a correction', async () => {
    const space = workspace('2025-Q2');
    const calls: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      calls.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return globalThis.fetch(input, init);
    };
    const events: SyncEvent[] = [];
    // A 300 ms window; a new file's first wait of 1 s; pauses of 0.6, 0.9 and 1.3 s, each longer
    // than the window and the last longer than the first wait: only the writer's own rhythm
    // (twice its longest pause) keeps the file from being read between chunks.
    const engine = await SyncEngine.create({
      ...options(space, createPortal({ serverUrl: server.url, ...admin, fetch }), events),
      stabilityMs: 300,
      newFileWaitMs: 1_000,
      watch: true,
    });
    await engine.start();
    const relative = 'properties/Mesa Verde Villas/Incremental Scan.pdf';
    const file = path.join(space.folder, relative);
    const chunks = [
      '%PDF-1.4\n1 0 obj << /Type /Page >> endobj\nxref\ntrailer << /Size 2 >>\nstartxref 9\n%%EOF\n',
      ...[2, 3, 4].map((page) => `${page} 0 obj << /Type /Page >> endobj\nxref\ntrailer << /Size ${page + 1} /Prev 9 >>\nstartxref 9\n%%EOF\n`),
    ];
    try {
      write(space.folder, relative, Buffer.from(chunks[0]!));
      for (const [i, wait] of [600, 900, 1_300].entries()) {
        await pause(wait);
        expect(calls.filter((c) => c.endsWith('/upload-document'))).toEqual([]);
        appendFileSync(file, chunks[i + 1]!);
      }
      await vi.waitFor(() => expect(engine.status().published.map((e) => e.path)).toEqual([relative]), { timeout: 15_000, interval: 50 });
      await engine.idle();
    } finally {
      await engine.stop();
    }
    expect(calls.filter((c) => c.endsWith('/upload-document'))).toHaveLength(1);
    expect(calls.filter((c) => c.includes('/replace-'))).toEqual([]);
    const { documents } = await adminClient().call('adminDocuments', undefined, { cache: 'no-store' });
    const [document] = documents.filter((d) => d.title === 'Incremental Scan');
    expect(document).toMatchObject({ version: 1, correctedAt: null });
    const response = await server.api(`/api/investor/download/${document!.id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(Buffer.from(await response.arrayBuffer()).toString()).toBe(chunks.join(''));
  });

  it('refuses a stability window under 5 seconds on the command line, with a sentence', async () => {
    const desktop = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
    const space = workspace();
    for (const value of ['0', '4.9']) {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/cli/sync.ts', '--server', server.url, '--folder', space.folder, '--ledger', space.ledgerFile, '--stability-seconds', value, '--once'],
        { cwd: desktop, env: { ...process.env, EVEREST_EMAIL: admin.email, EVEREST_PASSWORD: admin.password, INIT_CWD: desktop }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(2);
      expect(stderr.split('\n')[0]).toBe(stabilityMessages.tooShort);
    }
  });
});

describe('a correction made by the sync, with e-mail notification on', () => {
  let smtp: SmtpListener;
  let mailing: TestServer;

  beforeAll(async () => {
    smtp = await SmtpListener.start();
    mailing = await startTestServer({ seed: true, env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://everest.test' } });
    mailing.services.outbox.start();
  });
  afterAll(async () => {
    await mailing?.close();
    await smtp?.stop();
  });

  const queued = async () =>
    Number((await mailing.services.orm.em.fork().execute<{ count: string }[]>('select count(*) from outbox_messages'))[0]?.count);
  /** The e-mails received from `from` on, once every queued one has arrived. */
  async function delivered(from: number) {
    await vi.waitFor(async () => expect(smtp.received.length).toBe(await queued()), { timeout: 10_000, interval: 50 });
    const mails = smtp.received.slice(from);
    return { mails, to: (email: string) => mails.find((m) => m.to.includes(email)) };
  }

  it('tells the readers of a changed K-1 in the same digest, as corrected, and says how many people were told', async () => {
    const space = workspace('2025-Q3');
    const propertyFile = 'properties/Sunset Terrace Apartments/Corrected K-1 Summary.pdf';
    write(space.folder, propertyFile, pdf('K-1 summary, first figures'));
    write(space.folder, 'investors/Corrected K-1.pdf', pdf('K-1, first figures'));
    write(space.folder, 'investors/manifest.csv', Buffer.from('email,filename,document_category,title\ninvestor@example.com,Corrected K-1.pdf,tax,Corrected K-1 2025\n'));
    const portal = createPortal({ serverUrl: mailing.url, ...admin });
    const first = await SyncEngine.create({ ...options(space, portal), emailNotification: true });
    expect(await first.runOnce()).toBe(true);
    await delivered(0);

    const from = smtp.received.length;
    writeFileSync(path.join(space.folder, propertyFile), pdf('K-1 summary, the right figures'));
    writeFileSync(path.join(space.folder, 'investors/Corrected K-1.pdf'), pdf('K-1, the right figures'));
    const events: SyncEvent[] = [];
    const second = await SyncEngine.create({ ...options(space, portal, events), emailNotification: true });
    expect(await second.runOnce(), JSON.stringify(events)).toBe(true);

    const { mails, to } = await delivered(from);
    // One digest per reader: the investor has both, the employee reads Sunset's documents.
    expect(mails.flatMap((m) => m.to).sort()).toEqual(['employee@example.com', 'investor@example.com']);
    expect(to('investor@example.com')?.header('subject')).toBe('2 corrected documents are available in your investor portal');
    expect(to('investor@example.com')?.text).toContain('Corrected K-1 2025');
    expect(to('investor@example.com')?.text).toContain('Corrected K-1 Summary');
    expect(to('employee@example.com')?.header('subject')).toBe('A corrected document is available in your investor portal');
    expect(second.status().emailed).toEqual({ people: 2, documents: 2, corrected: 2 });
    expect(emailToldSentence(second.status().emailed)).toBe('E-mail: 2 people were told of 2 corrected documents.');
  });
});
