import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentAnswer,
  investorDocumentsAnswer,
  receiptDocumentAnswer,
  receiptDocumentsAnswer,
  receiptInvestorAnswer,
  remindAnswer,
  type RemindBody,
} from '@everest/core/contract';
import { currentYear } from '@everest/core/domain';
import { demoUsers } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { samplePdf } from '../../../test/sample-documents';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { queuedMails } from '../../../test/queued-mails';

const admin = 'admin@example.com';
const investorA = 'investor@example.com';
const investorB = 'investor2@example.com';

const accessOf = (email: string) => demoUsers.find((u) => u.email === email)?.propertyAccess ?? [];
/** Everyone a document of `property` is published to: investors and employees with access (all demo users are active). */
const entitledTo = (property: string) =>
  demoUsers
    .filter((u) => (u.role === 'user' || u.role === 'everest_employee') && u.propertyAccess.includes(property))
    .map((u) => u.email)
    .sort();
/** A property investor B may read and investor A may not, with the most readers (the employee among them). */
const onlyB =
  accessOf(investorB)
    .filter((name) => !accessOf(investorA).includes(name))
    .sort((a, b) => entitledTo(b).length - entitledTo(a).length)[0] ?? '';
const entitledToOnlyB = entitledTo(onlyB);

describe('read receipts', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();
  let k1 = 0;
  let letter = 0;
  let formula = 0;
  let personalOfB = 0;
  let userIdOfB = 0;

  const em = () => server.services.orm.em.fork();
  const token = (email = admin) => tokens.get(email) ?? '';
  const get = (path: string, email = admin) => client.call(path, { token: token(email) });

  async function upload(title: string): Promise<number> {
    const form = new FormData();
    for (const [key, value] of Object.entries({ title, property: onlyB, year: String(currentYear()), quarter: 'Q1', emailNotification: 'false' })) {
      form.set(key, value);
    }
    form.set('document', new Blob([new Uint8Array(samplePdf(title))]), 'k1.pdf');
    const res = await server.api('/api/admin/upload-document', { method: 'POST', headers: { authorization: `Bearer ${token()}` }, body: form });
    expect(res.status).toBe(200);
    return documentAnswer.parse(await res.json()).document.id;
  }

  const open = async (email: string, id: number, type: 'property' | 'user' = 'property', preview = false) => {
    const res = await server.api(`/api/investor/download/${id}?type=${type}${preview ? '&preview=1' : ''}`, {
      headers: { authorization: `Bearer ${token(email)}` },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  };

  async function receipt(type: 'property' | 'personal', id: number, query = '') {
    const res = await get(`/api/admin/read-receipts/documents/${type}/${id}${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return receiptDocumentAnswer.parse(res.json);
  }

  async function remind(body: RemindBody) {
    const res = await client.call('/api/admin/read-receipts/remind', { body, token: token() });
    expect(res.status, res.text).toBe(200);
    return remindAnswer.parse(res.json);
  }

  const lastOutboxId = async () => (await em().findOne(OutboxMessage, { id: { $gt: 0 } }, { orderBy: { id: 'desc' } }))?.id ?? 0;
  const mailsAfter = (id: number) => queuedMails(em(), { id: { $gt: id } });

  beforeAll(async () => {
    expect(onlyB).not.toBe('');
    expect(entitledToOnlyB).toContain(investorB);
    expect(entitledToOnlyB.length).toBeGreaterThan(1);
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [admin, investorA, investorB]) tokens.set(email, await client.signIn(email));
    k1 = await upload('K-1 2025 Receipts Test');
    letter = await upload('Receipts Test Letter');
    formula = await upload('=HYPERLINK("http://evil.example","Receipts, click")');
    const [row] = await em()
      .getConnection()
      .execute<{ id: number; user_id: number }[]>(
        `select d.id, d.user_id from user_documents d join users u on u.id = d.user_id where u.email = ? order by d.id limit 1`,
        [investorB],
      );
    personalOfB = row!.id;
    userIdOfB = row!.user_id;
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('lists the investors entitled to a property document, then who opened it, first and last, and who has not', async () => {
    const before = await receipt('property', k1);
    expect(before.investors.map((i) => i.email).sort()).toEqual(entitledToOnlyB);
    expect(before.document).toMatchObject({ entitledCount: entitledToOnlyB.length, openedCount: 0, lastRemindedAt: null });
    expect(before.investors.every((i) => i.firstOpenedAt === null && i.opens === 0)).toBe(true);

    await open(investorB, k1, 'property', true);
    await open(investorB, k1);
    // Administrators read everything and are nobody's audience: their reads count for no one.
    await open(admin, k1);

    const after = await receipt('property', k1);
    expect(after.document.openedCount).toBe(1);
    const b = after.investors.find((i) => i.email === investorB);
    expect(b).toMatchObject({ opens: 2 });
    expect(b!.firstOpenedAt).not.toBeNull();
    expect(Date.parse(b!.lastOpenedAt!)).toBeGreaterThanOrEqual(Date.parse(b!.firstOpenedAt!));
    // Those who have not opened it come first.
    expect(after.investors.at(-1)?.email).toBe(investorB);
    expect(after.investors).not.toContainEqual(expect.objectContaining({ email: admin }));

    const notOpened = await receipt('property', k1, '?notOpened=true');
    expect(notOpened.investors.map((i) => i.email).sort()).toEqual(entitledToOnlyB.filter((e) => e !== investorB));
    expect(notOpened.totalCount).toBe(entitledToOnlyB.length - 1);

    const paged = await receipt('property', k1, '?limit=1&page=2');
    expect(paged.investors).toHaveLength(entitledToOnlyB.length > 1 ? 1 : 0);
    expect(paged.totalCount).toBe(entitledToOnlyB.length);
  });

  it('refuses a document that does not exist with 404', async () => {
    const res = await get('/api/admin/read-receipts/documents/property/999999');
    expect(res.status).toBe(404);
  });

  it('lists every document with its counts, searched and filtered to those someone has not opened', async () => {
    const res = await get('/api/admin/read-receipts/documents?search=receipts%20test&limit=100');
    expect(res.status, res.text).toBe(200);
    const { documents, totalCount } = receiptDocumentsAnswer.parse(res.json);
    expect(totalCount).toBe(2);
    expect(documents.map((d) => d.id).sort()).toEqual([k1, letter].sort());
    expect(documents.find((d) => d.id === k1)).toMatchObject({ context: onlyB, entitledCount: entitledToOnlyB.length, openedCount: 1 });

    // Investor B's own personal document: B is its one reader.
    const personal = await receipt('personal', personalOfB);
    expect(personal.investors.map((i) => i.email)).toEqual([investorB]);
    expect(personal.document.entitledCount).toBe(1);

    // Every document someone has not opened, paged: a document all its readers opened is left out.
    for (const email of entitledToOnlyB) {
      if (!tokens.has(email)) tokens.set(email, await client.signIn(email));
      await open(email, letter);
    }
    const filtered = receiptDocumentsAnswer.parse((await get('/api/admin/read-receipts/documents?search=receipts%20test&notOpened=true')).json);
    expect(filtered.documents.map((d) => d.id)).toEqual([k1]);
    expect(filtered.documents[0]).toMatchObject({ openedCount: 1 });
  });

  it("finds personal documents by their owner's name, entity or e-mail, as User Documents does (issue 35)", async () => {
    const [owner] = await em()
      .getConnection()
      .execute<{ first_name: string; last_name: string; entity: string }[]>('select first_name, last_name, entity from users where email = ?', [investorA]);
    const personalIds = async (search: string) => {
      const res = await get(`/api/admin/read-receipts/documents?search=${encodeURIComponent(search)}&limit=100`);
      expect(res.status, res.text).toBe(200);
      return receiptDocumentsAnswer.parse(res.json).documents.filter((d) => d.documentType === 'personal').map((d) => d.id).sort();
    };
    const userDocumentIds = async (search: string) => {
      const res = await get(`/api/admin/user-documents?search=${encodeURIComponent(search)}&page=1&limit=100`);
      expect(res.status, res.text).toBe(200);
      return (res.json as { documents: { id: number }[] }).documents.map((d) => d.id).sort();
    };
    const searches = [owner!.last_name.toLowerCase(), `${owner!.first_name} ${owner!.last_name}`.toUpperCase(), owner!.entity, investorA.split('@')[0]!];
    for (const search of searches.filter(Boolean)) {
      const found = await personalIds(search);
      expect(found.length, search).toBeGreaterThan(0);
      expect(found, search).toEqual(await userDocumentIds(search));
    }
    // '%' and '_' are searched as themselves, as in User Documents; SQL is text like any other.
    expect(await personalIds('%')).toEqual(await userDocumentIds('%'));
    expect(await personalIds("' or 1=1 --")).toEqual([]);
    // Hostile input is refused at the edge, and nobody but an administrator may search.
    expect((await get('/api/admin/read-receipts/documents?search=a%00b')).status).toBe(400);
    expect((await get(`/api/admin/read-receipts/documents?search=${'x'.repeat(5000)}`)).status).toBe(400);
    expect((await get('/api/admin/read-receipts/documents?search=carter', investorA)).status).toBe(403);
  });

  it('shows an investor what they may read, opened or not, not opened first', async () => {
    const res = await get(`/api/admin/read-receipts/investors/${userIdOfB}?limit=100`);
    expect(res.status, res.text).toBe(200);
    const answer = receiptInvestorAnswer.parse(res.json);
    expect(answer.investor.email).toBe(investorB);
    const portal = investorDocumentsAnswer.parse((await get('/api/investor/documents', investorB)).json).documents;
    expect(answer.investor.entitledCount).toBe(portal.length);
    expect(answer.totalCount).toBe(portal.length);
    const k1Row = answer.documents.find((d) => d.documentType === 'property' && d.id === k1);
    expect(k1Row?.opens).toBe(2);
    const firstOpened = answer.documents.findIndex((d) => d.firstOpenedAt !== null);
    expect(answer.documents.slice(firstOpened).every((d) => d.firstOpenedAt !== null)).toBe(true);

    const unopened = receiptInvestorAnswer.parse((await get(`/api/admin/read-receipts/investors/${userIdOfB}?notOpened=true&limit=100`)).json);
    expect(unopened.documents.some((d) => d.id === k1 && d.documentType === 'property')).toBe(false);
    expect(unopened.totalCount).toBe(answer.investor.entitledCount - answer.investor.openedCount);
    expect(unopened.documents).toContainEqual(expect.objectContaining({ documentType: 'personal', id: personalOfB }));
  });

  it('gives the portal an opened flag that its cached list drops on the first read', async () => {
    const portal = async (email: string) => investorDocumentsAnswer.parse((await get('/api/investor/documents', email)).json).documents;
    const flagOf = async (email: string, type: 'property' | 'personal', id: number) =>
      (await portal(email)).find((d) => d.documentType === type && d.id === id)?.opened;
    // The list is cached now, with the document still new.
    expect(await flagOf(investorB, 'personal', personalOfB)).toBe(false);
    expect(await flagOf(investorB, 'property', k1)).toBe(true);
    await open(investorB, personalOfB, 'user');
    // The first read raises the list's notice through the database: wait for that state.
    await expect.poll(() => flagOf(investorB, 'personal', personalOfB)).toBe(true);
  });

  it('reminds each investor once, listing every unopened document of the choice, and not again within 7 days', async () => {
    const [row] = await em().getConnection().execute<{ id: number }[]>(`select id from users where email = ?`, [investorA]);
    // A's own personal document, which only A may read.
    const [personalOfA] = await em()
      .getConnection()
      .execute<{ id: number }[]>(`select id from user_documents where user_id = ? order by id limit 1`, [row!.id]);
    const choice: RemindBody = {
      documents: [
        { documentType: 'property', id: k1 },
        { documentType: 'property', id: formula },
        { documentType: 'property', id: letter },
        { documentType: 'personal', id: personalOfA!.id },
      ],
    };
    const since = await lastOutboxId();
    const first = await remind(choice);
    const mails = await mailsAfter(since);
    // B opened the K-1 and the letter: only the formula document is B's. The others have two.
    const unopenedPairs = (entitledToOnlyB.length - 1) * 2 + 1 + 1;
    expect(first).toMatchObject({ remindedInvestors: entitledToOnlyB.length + 1, remindedDocuments: unopenedPairs, skippedRecent: 0 });
    expect(mails.map((m) => m.recipient).sort()).toEqual([...entitledToOnlyB, investorA].sort());
    const mailOf = (email: string) => mails.find((m) => m.recipient === email)!;
    expect(mailOf(investorB).text).toContain('=HYPERLINK');
    expect(mailOf(investorB).text).not.toContain('K-1 2025 Receipts Test');
    const other = entitledToOnlyB.find((e) => e !== investorB) ?? '';
    expect(mailOf(other).text).toContain('K-1 2025 Receipts Test');
    expect(mailOf(other).text).toContain('=HYPERLINK');
    expect(mailOf(other).html).toContain('=HYPERLINK(&quot;http://evil.example&quot;');
    expect(mailOf(investorA).text).not.toContain('Receipts Test');
    expect(mailOf(investorA).subject).toBe('Documents are waiting for you in your investor portal');

    // Pressed again at once: nothing goes, and the answer says why.
    const again = await remind(choice);
    expect(again).toMatchObject({ remindedInvestors: 0, remindedDocuments: 0, skippedRecent: unopenedPairs });
    expect(await mailsAfter(since)).toHaveLength(mails.length);
    expect((await receipt('property', k1)).document.lastRemindedAt).toBe(first.remindedAt);
    expect((await receipt('property', formula)).investors.find((i) => i.email === investorB)?.lastRemindedAt).toBe(first.remindedAt);

    // Eight days later for A's document only: A alone is reminded, of that document alone.
    await em().getConnection().execute(`update document_reminders set reminded_at = reminded_at - interval '8 days' where user_id = ?`, [row!.id]);
    const later = await lastOutboxId();
    const eightDays = await remind(choice);
    expect(eightDays).toMatchObject({ remindedInvestors: 1, remindedDocuments: 1, skippedRecent: unopenedPairs - 1 });
    expect((await mailsAfter(later)).map((m) => m.recipient)).toEqual([investorA]);
  });

  it('reminds only the chosen investors when the choice names them', async () => {
    await em().getConnection().execute(`update document_reminders set reminded_at = reminded_at - interval '8 days'`);
    const since = await lastOutboxId();
    const answer = await remind({ documents: [{ documentType: 'property', id: formula }], userIds: [userIdOfB] });
    expect(answer).toMatchObject({ remindedInvestors: 1, remindedDocuments: 1 });
    expect((await mailsAfter(since)).map((m) => m.recipient)).toEqual([investorB]);

    // An investor alone: every document they have not opened, in one e-mail.
    const unopened = receiptInvestorAnswer.parse((await get(`/api/admin/read-receipts/investors/${userIdOfB}?notOpened=true&limit=100`)).json);
    expect(unopened.totalCount).toBeGreaterThan(1);
    await em().getConnection().execute(`update document_reminders set reminded_at = reminded_at - interval '8 days'`);
    const before = await lastOutboxId();
    const all = await remind({ userIds: [userIdOfB] });
    expect(all).toMatchObject({ remindedInvestors: 1, remindedDocuments: unopened.totalCount, skippedRecent: 0 });
    const [mail, ...more] = await mailsAfter(before);
    expect(more).toHaveLength(0);
    for (const d of unopened.documents) expect(mail!.text).toContain(d.title);

    const neither = await client.call('/api/admin/read-receipts/remind', { body: {}, token: token() });
    expect(neither.status).toBe(400);
    expect(neither.json).toEqual({ error: 'Please choose documents or investors to remind.' });
  });

  it('counts the distinct documents a reminder names, not the investor-document pairs (issue 32 case 6)', async () => {
    const id = await upload('Distinct Reminder Notice');
    const answer = await remind({ documents: [{ documentType: 'property', id }] });
    expect(answer).toMatchObject({ remindedInvestors: entitledToOnlyB.length, remindedDocuments: entitledToOnlyB.length, distinctDocuments: 1 });
    expect(answer.message).toBe(`Reminded ${entitledToOnlyB.length} investors of 1 document.`);
  });

  it('a dry run answers who would be reminded, and sends and records nothing (issue 32 case 7)', async () => {
    const id = await upload('Dry Run Reminder Notice');
    const choice: RemindBody = { documents: [{ documentType: 'property', id }] };
    const since = await lastOutboxId();
    const reminders = () => em().getConnection().execute<{ n: number }[]>('select count(*)::int as n from document_reminders');
    const audits = () => em().count(AuditEvent, { action: 'remind-unopened-documents' });
    const [remindersBefore, auditsBefore] = [await reminders(), await audits()];

    const dry = await remind({ ...choice, dryRun: true });
    expect(dry).toMatchObject({ remindedInvestors: entitledToOnlyB.length, remindedDocuments: entitledToOnlyB.length, distinctDocuments: 1, skippedRecent: 0 });
    expect(dry.message).toBe(`This will e-mail ${entitledToOnlyB.length} investors about 1 document.`);
    expect(await mailsAfter(since)).toEqual([]);
    expect(await reminders()).toEqual(remindersBefore);
    expect(await audits()).toBe(auditsBefore);

    // Then sent for real, it does what the dry run said.
    const sent = await remind(choice);
    expect(sent).toMatchObject({ remindedInvestors: dry.remindedInvestors, remindedDocuments: dry.remindedDocuments, distinctDocuments: 1 });
    expect(await mailsAfter(since)).toHaveLength(dry.remindedInvestors);
    // Reminded just now: a dry run says nobody would be.
    expect(await remind({ ...choice, dryRun: true })).toMatchObject({ remindedInvestors: 0, skippedRecent: entitledToOnlyB.length });
  });

  it('exports a document’s receipts as CSV with formula cells escaped', async () => {
    const res = await server.api(`/api/admin/read-receipts/documents/property/${formula}/csv`, { headers: { authorization: `Bearer ${token()}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toContain(`read-receipts-property-${formula}.csv`);
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Document,Property,Year,Quarter,Investor e-mail,Investor name,Opened,First opened (Pacific time),Last opened (Pacific time),Opens,Last reminded (Pacific time),Opened on their behalf by',
    );
    expect(lines).toHaveLength(entitledToOnlyB.length + 2);
    // The title would run as a formula in a spreadsheet: it is written as text, quoted for its comma and quotes.
    expect(lines[1]!.startsWith(`"'=HYPERLINK(""http://evil.example"",""Receipts, click"")",`)).toBe(true);

    const investorCsv = await server.api(`/api/admin/read-receipts/investors/${userIdOfB}/csv`, { headers: { authorization: `Bearer ${token()}` } });
    expect(investorCsv.status).toBe(200);
    const rows = (await investorCsv.text()).split('\r\n').filter(Boolean);
    expect(rows.some((line) => line.includes(`"'=HYPERLINK(`) && line.includes(',No,'))).toBe(true);
    expect(rows.some((line) => line.includes('K-1 2025 Receipts Test') && line.includes(',Yes,'))).toBe(true);
  });

  it.each([
    ['GET', '/api/admin/read-receipts/documents'],
    ['GET', '/api/admin/read-receipts/documents/property/1'],
    ['GET', '/api/admin/read-receipts/documents/property/1/csv'],
    ['GET', '/api/admin/read-receipts/investors/1'],
    ['GET', '/api/admin/read-receipts/investors/1/csv'],
    ['POST', '/api/admin/read-receipts/remind'],
  ] as const)('lets only administrators call %s %s', async (method, path) => {
    const body = method === 'POST' ? { documents: [{ documentType: 'property', id: 1 }] } : undefined;
    expect((await client.call(path, { method, body })).status).toBe(401);
    expect((await client.call(path, { method, body, token: token(investorB) })).status).toBe(403);
  });
});
