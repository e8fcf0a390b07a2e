import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkUploadPersonalDocumentsAnswer, documentAnswer, investorDocumentsAnswer, personalDocumentAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

/**
 * Every way an administrator puts a personal document in place (single upload, bulk batch, edit)
 * or changes a file that a personal document shares by content (replace of a property document),
 * walked through in one story; then each investor's portal and downloads are compared with the
 * database's idea of who owns what.
 */
describe('personal documents published by administrators', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [admin, investorA, investorB]) tokens.set(email, await client.signIn(email));
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  const token = (email: string) => tokens.get(email) ?? '';

  async function form(route: string, fill: (form: FormData) => void) {
    const body = new FormData();
    fill(body);
    const res = await server.api(route, { method: 'POST', headers: { authorization: `Bearer ${token(admin)}` }, body });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as unknown;
  }
  const file = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

  async function personalIds(email: string): Promise<number[]> {
    const res = await client.call('/api/investor/documents', { token: token(email) });
    expect(res.status, res.text).toBe(200);
    return investorDocumentsAnswer
      .parse(res.json)
      .documents.filter((d) => d.documentType === 'personal')
      .map((d) => d.id)
      .sort((a, b) => a - b);
  }

  async function ownedIds(email: string): Promise<number[]> {
    const rows = await server.services.orm.em
      .fork()
      .execute<{ id: number }[]>('select d.id from user_documents d join users u on u.id = d.user_id where lower(u.email) = ? order by d.id', [email]);
    return rows.map((r) => r.id);
  }

  it("never shows an investor another investor's personal document, through any of them", async () => {
    const shared = samplePdf('isolation: the same bytes for A and B');

    // Single upload, for A.
    const single = personalDocumentAnswer.parse(
      await form('/api/admin/upload-user-document', (f) => {
        f.set('userEmail', investorA);
        f.set('documentCategory', 'tax');
        f.set('title', 'Isolation Single A');
        f.set('document', file(shared), 'single.pdf');
      }),
    ).document;

    // A batch for both, one file of it the very content A already has.
    const manifest = [
      'email,filename,document_category,title',
      `${investorA},bulk-a.pdf,tax,Isolation Bulk A`,
      `${investorB},bulk-b.pdf,legal,Isolation Bulk B`,
      `${investorB},shared.pdf,tax,Isolation Shared B`,
    ].join('\n');
    const bulk = bulkUploadPersonalDocumentsAnswer.parse(
      await form('/api/admin/bulk-upload-user-documents', (f) => {
        f.set('csvManifest', new Blob([manifest]), 'manifest.csv');
        f.append('documents[]', file(samplePdf('isolation bulk a')), 'bulk-a.pdf');
        f.append('documents[]', file(samplePdf('isolation bulk b')), 'bulk-b.pdf');
        f.append('documents[]', file(shared), 'shared.pdf');
      }),
    );
    expect(bulk.successful.map((s) => [s.userEmail, s.title])).toEqual([
      [investorA, 'Isolation Bulk A'],
      [investorB, 'Isolation Bulk B'],
      [investorB, 'Isolation Shared B'],
    ]);

    // Edit of A's document: its owner stays A.
    const edited = await client.call('/api/admin/edit-user-document', {
      token: token(admin),
      body: { documentId: single.id, title: 'Isolation Single A, edited', documentCategory: 'legal' },
    });
    expect(edited.status, edited.text).toBe(200);

    // A 'General' document replaced by a file with the bytes of A's personal document.
    const general = documentAnswer.parse(
      await form('/api/admin/upload-document', (f) => {
        f.set('title', 'Isolation General');
        f.set('property', 'General');
        f.set('year', '2025');
        f.set('quarter', 'Q1');
        f.set('document', file(samplePdf('isolation general')), 'general.pdf');
      }),
    ).document;
    documentAnswer.parse(await form(`/api/admin/replace-document/${general.id}`, (f) => f.set('document', file(shared), 'replaced.pdf')));

    for (const [owner, other] of [
      [investorA, investorB],
      [investorB, investorA],
    ] as const) {
      const owned = await ownedIds(owner);
      expect(await personalIds(owner)).toEqual(owned);
      const others = await ownedIds(other);
      expect(others.length).toBeGreaterThan(0);
      for (const id of others) {
        expect(owned).not.toContain(id);
        const res = await server.api(`/api/investor/download/${id}?type=user`, { headers: { authorization: `Bearer ${token(owner)}` } });
        expect(res.status, `${owner} downloading ${other}'s document ${id}`).toBe(404);
        await res.body?.cancel();
      }
    }
    expect(await ownedIds(investorA)).toEqual(expect.arrayContaining([single.id, bulk.successful[0]?.documentId]));
    // The property document is everyone's, as a 'General' one should be: it is no way into A's papers.
    const res = await server.api(`/api/investor/download/${general.id}`, { headers: { authorization: `Bearer ${token(investorB)}` } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(shared)).toBe(true);
  });
});
