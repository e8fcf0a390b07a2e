// `sync --match-content` against the real server and PostgreSQL, as the other sync tests run:
// an investors folder of K-1s with no manifest.csv, read by PDF.js in the reader pool, matched by
// core's rule. Each investor's own document list says what they got; the draft beside the
// ledger says what is left for a person, and why.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { textPdf } from '@everest/fixtures/k1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@everest/core/client';
import { createUserAnswer } from '@everest/core/contract';
import { contentMatchingMessages, draftReasonColumn, readCsv } from '@everest/core/domain';
import { splitPdf } from '@everest/web/pdf';
import { demoPassword, demoUsers } from '@everest/fixtures';
import { startTestServer, type TestServer } from '@everest/server/testing';
import { contentMatchMessages } from './content-match-messages';
import { createPortal } from './portal';
import { SyncEngine, type SyncEvent } from './sync-engine';
import { removeWorkspaces, sha256, workspace, write } from '../../test/folder';

const admin = { email: 'admin@example.com', password: demoPassword };
/** The demo investor John Smith (entity Smith Family Trust), who shares his full name with a new investor. */
const seededJohn = 'john.smith@example.com';
const password = 'Match-By-Content-2025!';
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

const pdfOf = async (pages: readonly string[]) => Buffer.from(await textPdf(pages));

const k1 = (partner: string, extra = '') =>
  `Schedule K-1 (Form 1065) 2025\nPart II Information About the Partner\nPartner's name: ${partner}\n${extra}\nOrdinary business income 12,345`;

/** An investor as an administrator creates them (demo-like), signed in as themselves. */
async function investor(name: string, email: string, entity = '') {
  const client = createApiClient({ baseUrl: server.url, getToken: () => token });
  const made = createUserAnswer.parse(await client.call('createUser', { body: { name, entity, email, password, role: 'user', properties: [], sendWelcomeEmail: false } }));
  return { id: made.user.id, email };
}

/** The personal documents an investor sees in their own list, each with its file as they download it. */
async function documentsOf(email: string): Promise<{ id: number; title: string; documentCategory: string; year: number; bytes: Buffer }[]> {
  const signedIn = await createApiClient({ baseUrl: server.url }).call('login', { body: { email, password: email === seededJohn ? demoPassword : password } });
  if (!('token' in signedIn)) throw new Error(`${email} has a second step`);
  const client = createApiClient({ baseUrl: server.url, getToken: () => signedIn.token });
  const { documents } = await client.call('investorDocuments', { query: {} }, { cache: 'no-store' });
  return Promise.all(
    documents.flatMap((d) => (d.documentType === 'personal' ? [d] : [])).map(async (d) => {
      const response = await server.api(`/api/investor/download/${d.id}?type=user`, { headers: { Authorization: `Bearer ${signedIn.token}` } });
      expect(response.status).toBe(200);
      return { id: d.id, title: d.title, year: d.year, documentCategory: d.documentCategory, bytes: Buffer.from(await response.arrayBuffer()) };
    }),
  );
}

function filesBelow(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(path.join(folder, p)).isFile()).sort();
}

describe('sync --match-content', () => {
  it('publishes only the unique exact matches of an investors folder without a manifest, and drafts the rest beside the ledger', async () => {
    const amelia = await investor('Amelia Hartwell', 'amelia.hartwell@example.com');
    const marcus = await investor('Marcus Bell', 'marcus.bell@example.com');
    // The demo's John Smith is told apart by his entity; the new John Smith by an identifier an
    // administrator added (edit-user).
    const johnOne = { email: seededJohn };
    const johnTwo = await investor('John Smith', 'john.smith.ranch@example.com');
    const demoJohns = demoUsers.filter((u) => u.firstName === 'John' && u.lastName === 'Smith').map((u) => u.email);
    const lena = await investor('Lena Okonkwo', 'lena.okonkwo@example.com', 'Okonkwo Holdings LLC');
    const oscar = await investor('Oscar Lindqvist', 'oscar.lindqvist@example.com');
    const client = createApiClient({ baseUrl: server.url, getToken: () => token });
    await client.call('editUser', { body: { userId: johnTwo.id, identifiers: ['Smith Ranch Partners LP'] } });
    const held = new Map(await Promise.all([amelia, marcus, johnOne, johnTwo, lena, oscar].map(async (i) => [i.email, (await documentsOf(i.email)).map((d) => d.id)] as const)));

    const space = workspace('2025-Q4');
    const files = {
      amelia: await pdfOf([k1('Amelia Hartwell')]),
      johnTrust: await pdfOf([k1('John Smith', 'Smith Family Trust')]),
      johnRanch: await pdfOf([k1('John Smith', 'Smith Ranch Partners LP')]),
      johnAlone: await pdfOf([k1('John Smith')]),
      scan: await pdfOf(['']),
      two: await pdfOf([k1('Marcus Bell', 'Copy to: Oscar Lindqvist')]),
    };
    const combinedPages = [
      'Everest Properties Fund IV\nSchedules K-1 for tax year 2025: partners in order',
      k1('Marcus Bell'),
      'Statement A continued: Section 199A information',
      k1('Okonkwo Holdings LLC'),
      'Supplemental schedule: state apportionment',
      k1('Oscar Lindqvist'),
    ];
    const combined = await pdfOf(combinedPages);
    write(space.folder, 'investors/K1_2025_00017.pdf', files.amelia);
    write(space.folder, 'investors/K1_2025_00018.pdf', files.johnTrust);
    write(space.folder, 'investors/K1_2025_00019.pdf', files.johnAlone);
    write(space.folder, 'investors/K1_2025_00020.pdf', files.scan);
    write(space.folder, 'investors/K1_2025_00021.pdf', files.two);
    write(space.folder, 'investors/K1_2025_00022.pdf', files.johnRanch);
    write(space.folder, 'investors/Fund IV K-1s 2025.pdf', combined);
    const before = filesBelow(space.folder);

    const events: SyncEvent[] = [];
    const engine = await SyncEngine.create({
      ...space,
      portal: createPortal({ serverUrl: server.url, ...admin }),
      stabilityMs: 250,
      tickMs: 50,
      backoff: { baseMs: 100, maxMs: 400 },
      watch: false,
      matchContent: true,
      onEvent: (event) => events.push(event),
    });
    const ok = await engine.runOnce();
    const status = engine.status();
    // Something needs a person: the run says so in its exit code.
    expect(ok).toBe(false);
    const outcome = Object.fromEntries(status.report.map((item) => [item.path, item.outcome]));
    expect(outcome).toEqual({
      'investors/Fund IV K-1s 2025.pdf': 'needs-attention',
      'investors/K1_2025_00017.pdf': 'published',
      'investors/K1_2025_00018.pdf': 'published',
      'investors/K1_2025_00019.pdf': 'needs-attention',
      'investors/K1_2025_00020.pdf': 'needs-attention',
      'investors/K1_2025_00021.pdf': 'needs-attention',
      'investors/K1_2025_00022.pdf': 'published',
    });

    // Each investor sees exactly their own K-1: the whole file, or their section's pages.
    const sections = await splitPdf(combined, [[2, 3], [4, 5], [6]]);
    const expectOnly = async (email: string, ...expected: (Buffer | Uint8Array)[]) => {
      const documents = (await documentsOf(email)).filter((d) => !held.get(email)!.includes(d.id));
      expect(documents.map((d) => ({ title: d.title, year: d.year, category: d.documentCategory }))).toEqual(expected.map(() => ({ title: '2025 Schedule K-1', year: 2025, category: 'tax' })));
      expect(documents.map((d) => sha256(d.bytes)).sort()).toEqual(expected.map((bytes) => sha256(Buffer.from(bytes))).sort());
    };
    await expectOnly(amelia.email, files.amelia);
    await expectOnly(johnOne.email, files.johnTrust);
    await expectOnly(johnTwo.email, files.johnRanch);
    await expectOnly(marcus.email, sections[0]!);
    await expectOnly(lena.email, sections[1]!);
    await expectOnly(oscar.email, sections[2]!);

    // The draft, beside the ledger and never in the watched folder, lists the rest with their reasons.
    expect(filesBelow(space.folder)).toEqual(before);
    const [draftFile] = engine.contentDrafts();
    expect(draftFile).toBeDefined();
    expect(path.relative(space.folder, draftFile!).startsWith('..')).toBe(true);
    expect(path.dirname(path.dirname(path.dirname(draftFile!))).startsWith(path.dirname(space.ledgerFile))).toBe(true);
    const [header, ...records] = readCsv(readFileSync(draftFile!, 'utf8')).records.map((r) => r.cells);
    const draft = records.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i] ?? ''])));
    const reasons = Object.fromEntries(draft.map((row) => [row.filename!, row[draftReasonColumn]!]));
    expect(draft.every((row) => row.email === '')).toBe(true);
    expect(reasons).toEqual({
      // Every account named John Smith, by id: the demo's two, then this test's.
      'K1_2025_00019.pdf': `${contentMatchingMessages.shared('John Smith', 'in this PDF')} (candidates: ${[...demoJohns, johnTwo.email].join(' or ')})`,
      'K1_2025_00020.pdf': contentMatchingMessages.scan,
      'K1_2025_00021.pdf': `${contentMatchingMessages.severalInvestors('in this PDF')} (candidates: ${marcus.email} or ${oscar.email})`,
      'Investor K-1.pdf': contentMatchingMessages.beforeFirstIdentifier,
    });
    // The combined PDF's first page is a file of its own beside the draft, for staff to send with it.
    const cover = await splitPdf(combined, [[1]]);
    expect(sha256(readFileSync(path.join(path.dirname(draftFile!), 'Investor K-1.pdf')))).toBe(sha256(Buffer.from(cover[0]!)));

    // Each file that needs a person is said with its sentence; no line quotes a K-1's text.
    const attention = Object.fromEntries(status.report.filter((i) => i.outcome === 'needs-attention').map((i) => [i.path, i.message]));
    expect(attention['investors/K1_2025_00020.pdf']).toContain(contentMatchingMessages.scan);
    expect(attention['investors/Fund IV K-1s 2025.pdf']).toContain(`page 1: ${contentMatchingMessages.beforeFirstIdentifier}`);
    expect(attention['investors/Fund IV K-1s 2025.pdf']).toContain(`pages 2–3 published for ${marcus.email}`);
    for (const line of [...events.map((e) => e.message), ...status.report.map((i) => i.message)]) {
      for (const text of ['Ordinary business income', 'Part II', 'Statement A continued', 'state apportionment', 'partners in order']) expect(line).not.toContain(text);
    }

    // A second run finds everything recorded: nothing is published again.
    const again = await SyncEngine.create({ ...space, portal: createPortal({ serverUrl: server.url, ...admin }), stabilityMs: 250, tickMs: 50, watch: false, matchContent: true });
    await again.runOnce();
    expect(again.status().counts.published).toBe(0);
    await expectOnly(marcus.email, sections[0]!);
    await expectOnly(amelia.email, files.amelia);

    // Staff complete one row of the draft and drop it back as manifest.csv: that file is published
    // by the manifest, and what matching published stays published, not "not named".
    const completed = readFileSync(draftFile!, 'utf8')
      .split('\r\n')
      .filter((line, i) => i === 0 || line.includes('K1_2025_00019.pdf'))
      // A title of its own: under the K-1's own title it would be a correction of his other K-1 (core's identity rule).
      .map((line) => line.replace(/^,K1_2025_00019\.pdf,tax,2025 Schedule K-1,/, `${johnOne.email},K1_2025_00019.pdf,tax,2025 Schedule K-1 (second copy),`))
      .join('\r\n');
    write(space.folder, 'investors/manifest.csv', Buffer.from(`${completed}\r\n`));
    const dropped = await SyncEngine.create({ ...space, portal: createPortal({ serverUrl: server.url, ...admin }), stabilityMs: 250, tickMs: 50, watch: false, matchContent: true });
    await dropped.runOnce();
    const afterDrop = Object.fromEntries(dropped.status().report.map((item) => [item.path, item]));
    expect(afterDrop['investors/K1_2025_00019.pdf']?.outcome).toBe('published');
    expect(afterDrop['investors/K1_2025_00017.pdf']?.outcome).toBe('already-published');
    expect(afterDrop['investors/Fund IV K-1s 2025.pdf']).toMatchObject({ outcome: 'needs-attention', message: contentMatchMessages.matchedBefore });
    expect(afterDrop['investors/K1_2025_00020.pdf']?.outcome).toBe('needs-attention');
    const johns = (await documentsOf(johnOne.email)).filter((d) => !held.get(johnOne.email)!.includes(d.id));
    expect(johns.map((d) => [d.title, sha256(d.bytes)]).sort((a, b) => a[0]!.localeCompare(b[0]!))).toEqual([
      ['2025 Schedule K-1', sha256(files.johnTrust)],
      ['2025 Schedule K-1 (second copy)', sha256(files.johnAlone)],
    ]);
    await expectOnly(amelia.email, files.amelia);
  }, 240_000);
});
