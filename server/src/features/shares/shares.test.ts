import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  activityAnswer,
  adminUserSharesAnswer,
  createShareAnswer,
  documentAnswer,
  documentRecipientsAnswer,
  incomingSharesAnswer,
  investorCategoriesAnswer,
  investorDocumentsAnswer,
  outgoingSharesAnswer,
  receiptInvestorAnswer,
} from '@everest/core/contract';
import { currentYear } from '@everest/core/domain';
import { demoPassword } from '@everest/fixtures';
import { samplePdf } from '../../../test/sample-documents';
import { startTestServer, type TestServer } from '../../../test/harness';
import { recordingClient, type Answer } from '../../../test/test-client';
import { queuedMails } from '../../../test/queued-mails';
import { cacheTable } from '../../caches';
import { findLiveShare } from '../document-access/document-policy';
import { shareMessages } from './shares.service';

const admin = 'admin@example.com';
const owner = 'investor@example.com';
/** An investor of their own, and a delegate of the owner's. */
const otherInvestor = 'investor2@example.com';
const employee = 'employee@example.com';
const linkPattern = /\/investor-services\?resetToken=([A-Za-z0-9_-]+)/;
const newPassword = 'Delegate-Passw0rd!';
const notAvailable = { error: 'This document does not exist or is not available to you.' };

describe('shared access (issue 36)', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  const tokens = new Map<string, string>();
  const em = () => server.services.orm.em.fork();
  const token = (email: string) => tokens.get(email) ?? '';
  let counter = 0;
  const freshEmail = (name: string) => `${name}.${(counter += 1)}@cpa.example.com`;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    for (const email of [admin, owner, otherInvestor, employee]) tokens.set(email, await client.signIn(email));
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  // ---- The database's view, which every answer is compared with ---------------------------

  async function userId(email: string): Promise<number> {
    const [row] = await em().execute<{ id: number }[]>('select id from users where email = ?', [email]);
    if (!row) throw new Error(`${email} has no account`);
    return row.id;
  }
  const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
  async function personalIds(ofUser: number, categories?: string[]): Promise<number[]> {
    const rows = await em().execute<{ id: number }[]>(
      `select id from user_documents where user_id = ? ${categories ? 'and document_category = any(?::text[])' : ''}`,
      categories ? [ofUser, `{${categories.join(',')}}`] : [ofUser],
    );
    return ids(rows);
  }
  async function propertyIdsOf(ofUser: number): Promise<number[]> {
    return (await em().execute<{ property_id: number }[]>('select property_id from property_access where user_id = ? order by property_id', [ofUser])).map(
      (r) => r.property_id,
    );
  }
  async function propertyDocumentIds(propertyIds: number[], general: boolean): Promise<number[]> {
    const rows = await em().execute<{ id: number }[]>(
      `select id from property_documents where property_id = any(?::int[]) ${general ? 'or property_id is null' : ''}`,
      [`{${propertyIds.join(',')}}`],
    );
    return ids(rows);
  }

  // ---- Calls ------------------------------------------------------------------------------

  const behalf = (onBehalfOf?: number) => (onBehalfOf === undefined ? '' : `?onBehalfOf=${onBehalfOf}`);
  async function listed(as: string, onBehalfOf?: number): Promise<{ property: number[]; personal: number[] }> {
    const res = await client.call(`/api/investor/documents${behalf(onBehalfOf)}`, { token: token(as) });
    expect(res.status, res.text).toBe(200);
    const documents = investorDocumentsAnswer.parse(res.json).documents;
    return {
      property: ids(documents.filter((d) => d.documentType === 'property')),
      personal: ids(documents.filter((d) => d.documentType === 'personal')),
    };
  }
  async function download(as: string, id: number, type: 'property' | 'user', onBehalfOf?: number): Promise<{ status: number; body: string }> {
    const query = `type=${type}${onBehalfOf === undefined ? '' : `&onBehalfOf=${onBehalfOf}`}`;
    const res = await server.api(`/api/investor/download/${id}?${query}`, { headers: { authorization: `Bearer ${token(as)}` } });
    return { status: res.status, body: await res.text() };
  }
  const share = (as: string, body: object): Promise<Answer> =>
    client.call('/api/investor/shares/create', { token: token(as), body: { currentPassword: demoPassword, ...body } });
  async function shareOk(as: string, body: object) {
    const res = await share(as, body);
    expect(res.status, res.text).toBe(200);
    return createShareAnswer.parse(res.json);
  }
  /** The delegate chooses a password from the share's e-mail, then signs in. */
  async function acceptInvitation(email: string): Promise<void> {
    const mail = (await queuedMails(em(), { recipient: email })).at(-1);
    const linkToken = mail && linkPattern.exec(mail.text)?.[1];
    if (!linkToken) throw new Error(`no e-mail with a link for ${email}`);
    const reset = await client.call('/api/investor/reset-password', { body: { token: linkToken, password: newPassword, confirmPassword: newPassword } });
    expect(reset.status, reset.text).toBe(200);
    tokens.set(email, await client.signIn(email, newPassword));
  }
  const revoke = (as: string, shareId: number) => client.call('/api/investor/shares/revoke', { token: token(as), body: { shareId } });

  // The daily limit of invitations is tested on its own; the other tests share as often as they need.
  beforeEach(async () => {
    await em().getConnection().execute("delete from rate_limit_counters where key like 'share-create:%'");
  });

  // ---- Invitations that cannot carry an investor's phishing -------------------------------

  it("sends a fixed Subject, names who shared from the account, and quotes the note as text with links defanged", async () => {
    const cpa = freshEmail('phished');
    const note = 'URGENT: security notice — verify your account at https://evil.example.com/login today\r\nor www.evil-bank.com';
    await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [], note });
    const [mail] = await queuedMails(em(), { recipient: cpa });
    expect(mail?.subject).toBe('Documents were shared with you on the Everest Properties investor portal');
    expect(mail?.text).toContain('James Carter, investor@example.com');
    expect(mail?.html).toContain('James Carter, investor@example.com');
    for (const part of [mail?.text ?? '', mail?.html ?? '']) {
      expect(part).toContain('hxxps://evil[.]example[.]com/login');
      expect(part).toContain('www[.]evil-bank[.]com');
      expect(part).not.toContain('https://evil');
      expect(part).not.toContain('evil.example.com');
    }
    // In the HTML, the only links are the firm's own.
    const hrefs = [...(mail?.html ?? '').matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/\/investor-services\?resetToken=/);
    // Quoted as the investor's, line by line, in the text part.
    expect(mail?.text).toMatch(/^> URGENT: security notice/m);
    expect(mail?.text).toMatch(/^> or www\[\.\]evil-bank\[\.\]com$/m);
  });

  it('allows at most 5 invitations a day per investor', async () => {
    const body = { personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] };
    for (let i = 0; i < 5; i++) await shareOk(otherInvestor, { ...body, email: freshEmail('daily') });
    const sixth = freshEmail('daily');
    const refused = await share(otherInvestor, { ...body, email: sixth });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ error: expect.stringContaining(shareMessages.tooMany) });
    expect(await queuedMails(em(), { recipient: sixth })).toHaveLength(0);
  });

  it('refuses CR, LF and TAB in names at every input: the profile, the administrators, the import', async () => {
    const hostile = ['Margaret\r\nURGENT: verify at https://evil.example', 'Tab\tName', 'Trailing\n', 'Line\u2028Separator'];
    const profileId = await userId(employee);
    for (const name of hostile) {
      const profile = await client.call('/api/investor/update-profile', { token: token(employee), body: { email: employee, firstName: name } });
      expect(profile.status, JSON.stringify(name)).toBe(400);
      expect(profile.json).toEqual({ error: 'First name cannot contain line breaks, tabs or other control characters.' });
      const edit = await client.call('/api/admin/edit-user', { token: token(admin), body: { userId: profileId, lastName: name } });
      expect(edit.status).toBe(400);
      expect(edit.json).toEqual({ error: 'Last name cannot contain line breaks, tabs or other control characters.' });
      const created = await client.call('/api/admin/create-user', { token: token(admin), body: { name, email: freshEmail('created') } });
      expect(created.status).toBe(400);
      const entity = await client.call('/api/admin/create-user', { token: token(admin), body: { entity: name, email: freshEmail('created') } });
      expect(entity.status).toBe(400);
      const preview = await client.call('/api/admin/preview-bulk-import', {
        token: token(admin),
        body: { csvData: [{ email: freshEmail('imported'), firstName: name, lastName: 'Row' }] },
      });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.text).toContain('First name cannot contain line breaks, tabs or other control characters.');
    }
    // Names with spaces, accents and apostrophes are still names.
    const fine = await client.call('/api/admin/edit-user', { token: token(admin), body: { userId: profileId, lastName: "O'Brien-Núñez Jr." } });
    expect(fine.status, fine.text).toBe(200);
  });

  // ---- Personal documents by category, to a new address -----------------------------------

  it('shares only tax documents with a new address: a delegate account, an e-mail naming the investor, exactly the tax documents', async () => {
    const ownerId = await userId(owner);
    const cpa = freshEmail('tax.only');
    const created = await shareOk(owner, { email: cpa, personalScope: 'categories', categories: ['tax'], propertyScope: 'none', propertyIds: [] });
    expect(created.share).toMatchObject({ delegateEmail: cpa, delegateName: null, status: 'invited', personalScope: 'categories', categories: ['tax'] });

    const [account] = await em().execute<{ role: string; password_hash: string; invited_at: Date | null }[]>(
      'select role, password_hash, invited_at from users where email = ?',
      [cpa],
    );
    expect(account).toMatchObject({ role: 'delegate', password_hash: '' });
    expect(account?.invited_at).not.toBeNull();
    const [mail] = await queuedMails(em(), { recipient: cpa });
    expect(mail?.text).toContain('James Carter, investor@example.com');
    expect(mail?.text).toContain('Tax');
    expect(mail?.text).toMatch(linkPattern);

    await acceptInvitation(cpa);
    const incoming = incomingSharesAnswer.parse((await client.call('/api/investor/shared-with-me', { token: token(cpa) })).json);
    expect(incoming.ownDocuments).toBe(false);
    expect(incoming.shares).toEqual([expect.objectContaining({ ownerId, ownerName: 'James Carter', personalScope: 'categories', categories: ['tax'] })]);

    const taxIds = await personalIds(ownerId, ['tax']);
    const allPersonal = await personalIds(ownerId);
    expect(taxIds.length).toBeGreaterThan(0);
    expect(allPersonal.length).toBeGreaterThan(taxIds.length);
    expect(await listed(cpa, ownerId)).toEqual({ property: [], personal: taxIds });
    // A delegate-only account reads nothing of its own: not even the General documents.
    expect(await listed(cpa)).toEqual({ property: [], personal: [] });

    const categories = investorCategoriesAnswer.parse((await client.call(`/api/investor/categories?onBehalfOf=${ownerId}`, { token: token(cpa) })).json);
    expect(categories.categories.map((c) => c.value)).toEqual(['tax']);

    const tax = taxIds[0]!;
    const notTax = allPersonal.find((id) => !taxIds.includes(id))!;
    const unknown = await download(cpa, 2_000_000, 'user', ownerId);
    expect(unknown).toEqual({ status: 404, body: JSON.stringify(notAvailable) });
    expect((await download(cpa, tax, 'user', ownerId)).status).toBe(200);
    expect(await download(cpa, notTax, 'user', ownerId)).toEqual(unknown);
    expect(await download(cpa, tax, 'user')).toEqual({ status: 404, body: unknown.body });
    const general = (await propertyDocumentIds([], true))[0]!;
    expect(await download(cpa, general, 'property', ownerId)).toEqual({ status: 404, body: unknown.body });
    expect(await download(cpa, general, 'property')).toEqual({ status: 404, body: unknown.body });

    // The document link checks the share as the download does.
    const linkOk = await client.call('/api/investor/document-link', { token: token(cpa), body: { id: tax, type: 'user', onBehalfOf: ownerId } });
    expect(linkOk.status, linkOk.text).toBe(200);
    const linkRefused = await client.call('/api/investor/document-link', { token: token(cpa), body: { id: notTax, type: 'user', onBehalfOf: ownerId } });
    expect(linkRefused.status).toBe(404);
    const [version] = await em().execute<{ id: number }[]>(`select id from document_versions where document_type = 'personal' and document_id = ?`, [tax]);
    const versionRead = await server.api(`/api/investor/download-version/${version!.id}?onBehalfOf=${ownerId}`, { headers: { authorization: `Bearer ${token(cpa)}` } });
    expect(versionRead.status).toBe(200);
    await versionRead.arrayBuffer();
  });

  it('records every read through a share as read by the delegate on behalf of the owner, and the receipts count it as the owner’s open', async () => {
    const ownerId = await userId(owner);
    const cpa = freshEmail('receipts');
    await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    await acceptInvitation(cpa);
    const delegateId = await userId(cpa);
    const document = (await personalIds(ownerId)).at(-1)!;
    expect((await download(cpa, document, 'user', ownerId)).status).toBe(200);

    const [audit] = await em().execute<{ user_id: number; action: string; details: { onBehalfOf: { userId: number; email: string } } }[]>(
      `select user_id, action, details from audit_events where document_type = 'personal' and document_id = ? and user_id = ? order by id desc limit 1`,
      [document, delegateId],
    );
    expect(audit).toMatchObject({ user_id: delegateId, action: 'download', details: { onBehalfOf: { userId: ownerId, email: owner } } });
    // Filed under the owner, not the delegate: a delegate's own documents stay unopened.
    const reads = await em().execute<{ user_id: number; delegate_ids: number[] }[]>(
      `select user_id, delegate_ids from document_reads where document_type = 'personal' and document_id = ?`,
      [document],
    );
    expect(reads).toEqual([{ user_id: ownerId, delegate_ids: [delegateId] }]);

    const receipt = receiptInvestorAnswer.parse((await client.call(`/api/admin/read-receipts/investors/${ownerId}?limit=100`, { token: token(admin) })).json);
    const row = receipt.documents.find((d) => d.documentType === 'personal' && d.id === document);
    expect(row).toMatchObject({ opens: 1, openedBy: [{ userId: delegateId, email: cpa, name: '' }] });
    // The owner's list shows it opened (a delegate's open counts as theirs).
    const ownList = investorDocumentsAnswer.parse((await client.call('/api/investor/documents', { token: token(owner) })).json).documents;
    expect(ownList.find((d) => d.documentType === 'personal' && d.id === document)?.opened).toBe(true);
  });

  // ---- Property documents by property, to an investor of their own ---------------------------

  it('shares chosen properties with an investor: their own reads unchanged, the on-behalf reads separate, and they follow the owner’s access', async () => {
    const ownerId = await userId(owner);
    const delegateId = await userId(otherInvestor);
    const ownBefore = await listed(otherInvestor);
    const ownerProperties = await propertyIdsOf(ownerId);
    const delegateProperties = await propertyIdsOf(delegateId);
    // A property the owner has and the delegate has not, so that the share is all that opens it.
    const chosen = ownerProperties.find((id) => !delegateProperties.includes(id))!;
    const created = await shareOk(owner, { email: otherInvestor, personalScope: 'none', categories: [], propertyScope: 'properties', propertyIds: [chosen] });
    expect(created.share.properties.map((p) => p.id)).toEqual([chosen]);
    const mail = (await queuedMails(em(), { recipient: otherInvestor })).at(-1);
    expect(mail?.subject).toBe('Documents were shared with you on the Everest Properties investor portal');
    expect(mail?.text).toContain('Shared by: James Carter, investor@example.com');
    expect(mail?.text).not.toMatch(linkPattern);

    const chosenDocuments = await propertyDocumentIds([chosen], false);
    expect(chosenDocuments.length).toBeGreaterThan(0);
    // Through the share: the chosen property only, without General, without personal documents.
    expect(await listed(otherInvestor, ownerId)).toEqual({ property: chosenDocuments, personal: [] });
    expect(await listed(otherInvestor)).toEqual(ownBefore);
    const incoming = incomingSharesAnswer.parse((await client.call('/api/investor/shared-with-me', { token: token(otherInvestor) })).json);
    expect(incoming.ownDocuments).toBe(true);

    const document = chosenDocuments[0]!;
    expect((await download(otherInvestor, document, 'property')).status).toBe(404);
    expect((await download(otherInvestor, document, 'property', ownerId)).status).toBe(200);
    const [ownRead] = await em().execute<unknown[]>(`select 1 from document_reads where user_id = ? and document_type = 'property' and document_id = ?`, [
      delegateId,
      document,
    ]);
    expect(ownRead).toBeUndefined();

    // The owner loses the property: the delegate loses it at the same moment.
    const [property] = await em().execute<{ name: string }[]>('select name from properties where id = ?', [chosen]);
    const removed = await client.call('/api/admin/remove-property', { token: token(admin), body: { userId: ownerId, property: property!.name } });
    expect(removed.status, removed.text).toBe(200);
    // The download at once; the cached list on the database's notice, as the owner's own list.
    expect((await download(otherInvestor, document, 'property', ownerId)).status).toBe(404);
    await expect.poll(() => listed(otherInvestor, ownerId)).toEqual({ property: [], personal: [] });
    expect((await download(otherInvestor, document, 'property', ownerId)).status).toBe(404);
    const given = await client.call('/api/admin/assign-property', { token: token(admin), body: { userId: ownerId, property: property!.name } });
    expect(given.status, given.text).toBe(200);
    await expect.poll(() => listed(otherInvestor, ownerId)).toEqual({ property: chosenDocuments, personal: [] });

    const revoked = await revoke(owner, created.share.id);
    expect(revoked.status, revoked.text).toBe(200);
  });

  it("shares General documents only with 'all' properties", async () => {
    const ownerId = await userId(owner);
    const cpa = freshEmail('all.properties');
    await shareOk(owner, { email: cpa, personalScope: 'none', categories: [], propertyScope: 'all', propertyIds: [] });
    await acceptInvitation(cpa);
    expect(await listed(cpa, ownerId)).toEqual({ property: await propertyDocumentIds(await propertyIdsOf(ownerId), true), personal: [] });
  });

  it('sends a set-password link again when a second investor shares with an address that has not chosen a password yet', async () => {
    const cpa = freshEmail('two.owners');
    await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    await shareOk(otherInvestor, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    const mails = await queuedMails(em(), { recipient: cpa });
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.text).toMatch(linkPattern);
    expect(mails[1]?.text).toContain(`Sarah Thompson, ${otherInvestor}`);
  });

  // ---- New-document e-mails ---------------------------------------------------------------

  it('tells delegates who asked for it of a new document their share covers, once, naming whose it is', async () => {
    const ownerId = await userId(owner);
    const chosen = (await propertyIdsOf(ownerId))[0]!;
    const [property] = await em().execute<{ name: string }[]>('select name from properties where id = ?', [chosen]);
    const told = freshEmail('notify.on');
    const silent = freshEmail('notify.off');
    const elsewhere = freshEmail('notify.elsewhere');
    await shareOk(owner, { email: told, personalScope: 'none', categories: [], propertyScope: 'properties', propertyIds: [chosen], notify: true });
    await shareOk(owner, { email: silent, personalScope: 'none', categories: [], propertyScope: 'properties', propertyIds: [chosen], notify: false });
    const other = (await propertyIdsOf(ownerId)).find((id) => id !== chosen)!;
    await shareOk(owner, { email: elsewhere, personalScope: 'categories', categories: ['tax'], propertyScope: 'properties', propertyIds: [other], notify: true });

    const recipients = async () =>
      documentRecipientsAnswer.parse((await client.call(`/api/admin/document-recipients?property=${encodeURIComponent(property!.name)}`, { token: token(admin) })).json)
        .recipients;
    const before = await recipients();
    const form = new FormData();
    form.set('title', 'Shared Notice');
    form.set('property', property!.name);
    form.set('year', String(currentYear()));
    form.set('quarter', 'Q1');
    form.set('emailNotification', 'true');
    form.set('document', new Blob([new Uint8Array(samplePdf('shared notice'))]), 'shared-notice.pdf');
    const res = await server.api('/api/admin/upload-document', { method: 'POST', headers: { authorization: `Bearer ${token(admin)}` }, body: form });
    expect(res.status).toBe(200);
    documentAnswer.parse(await res.json());

    const mails = await queuedMails(em(), { recipient: told });
    const digest = mails.find((m) => m.text.includes('Shared Notice'));
    expect(digest?.text).toContain(`${property!.name} · Q1 ${currentYear()} · shared by James Carter`);
    expect(mails.filter((m) => m.text.includes('Shared Notice'))).toHaveLength(1);
    expect((await queuedMails(em(), { recipient: silent })).some((m) => m.text.includes('Shared Notice'))).toBe(false);
    expect((await queuedMails(em(), { recipient: elsewhere })).some((m) => m.text.includes('Shared Notice'))).toBe(false);
    // The count asked before an upload counts them by the same rule (before it: this test's own delegate, among others).
    expect(before).toBe(await recipients());
    expect(before).toBeGreaterThan(0);
    const withoutSharing = await startTestServer({ besides: server, env: { ALLOW_SHARING: 'false' } });
    try {
      const off = await withoutSharing.api(`/api/admin/document-recipients?property=${encodeURIComponent(property!.name)}`, {
        headers: { authorization: `Bearer ${token(admin)}` },
      });
      expect(documentRecipientsAnswer.parse(await off.json()).recipients).toBeLessThan(before);
    } finally {
      await withoutSharing.close();
    }
  });

  // ---- When a share stops ----------------------------------------------------------------

  it('stops at revocation, after its last day, while the owner is deactivated, and while sharing is off', async () => {
    const ownerId = await userId(owner);
    const cpa = freshEmail('stops');
    const { share: made } = await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    await acceptInvitation(cpa);
    const everything = await personalIds(ownerId);
    const document = everything[0]!;
    const listStatus = async () => (await client.call(`/api/investor/documents?onBehalfOf=${ownerId}`, { token: token(cpa) })).status;
    expect(await listStatus()).toBe(200);

    // The last day is today in Pasadena: still open; yesterday: closed. These writes bypass the
    // routes, as another instance's would: the database's notice reaches the cache a moment later.
    await em().execute(`update shares set ends_on = (now() at time zone 'America/Los_Angeles')::date where id = ?`, [made.id]);
    expect(await listStatus()).toBe(200);
    await em().execute(`update shares set ends_on = (now() at time zone 'America/Los_Angeles')::date - 1 where id = ?`, [made.id]);
    await vi.waitFor(async () => expect(await listStatus()).toBe(404), { timeout: 5000 });
    expect((await download(cpa, document, 'user', ownerId)).status).toBe(404);
    expect(incomingSharesAnswer.parse((await client.call('/api/investor/shared-with-me', { token: token(cpa) })).json).shares).toEqual([]);
    const mine = outgoingSharesAnswer.parse((await client.call('/api/investor/shares', { token: token(owner) })).json);
    expect(mine.shares.find((s) => s.id === made.id)?.status).toBe('expired');
    await em().execute('update shares set ends_on = null where id = ?', [made.id]);
    await vi.waitFor(async () => expect(await listStatus()).toBe(200), { timeout: 5000 });

    // Kept by this server's live shares cache, then its last day passes: midnight changes no row
    // and raises no notice, and the next read is refused all the same.
    const key = cacheTable.liveShares.key(ownerId, await userId(cpa));
    const live = await findLiveShare(em(), ownerId, await userId(cpa));
    server.services.liveShares.clear();
    await server.services.liveShares.get(key, async () => live && { ...live, endsOn: '2026-01-01' });
    expect(await listStatus()).toBe(404);
    server.services.liveShares.clear();
    expect(await listStatus()).toBe(200);

    // The owner deactivated: nothing, until they are active again.
    const edit = (isActive: boolean) => client.call('/api/admin/edit-user', { token: token(admin), body: { userId: ownerId, isActive } });
    expect((await edit(false)).status).toBe(200);
    expect(await listStatus()).toBe(404);
    expect((await download(cpa, document, 'user', ownerId)).status).toBe(404);
    expect((await edit(true)).status).toBe(200);
    tokens.set(owner, await client.signIn(owner));
    expect(await listStatus()).toBe(200);

    // ALLOW_SHARING=false on another instance over the same database.
    const off = await startTestServer({ besides: server, env: { ALLOW_SHARING: 'false' } });
    try {
      const headers = { authorization: `Bearer ${token(cpa)}` };
      expect((await off.api(`/api/investor/documents?onBehalfOf=${ownerId}`, { headers })).status).toBe(404);
      expect((await off.api(`/api/investor/download/${document}?type=user&onBehalfOf=${ownerId}`, { headers })).status).toBe(404);
      const created = await off.api('/api/investor/shares/create', {
        method: 'POST',
        headers: { authorization: `Bearer ${token(owner)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: freshEmail('off'), personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [], currentPassword: demoPassword }),
      });
      expect(created.status).toBe(403);
      expect(await created.json()).toEqual({ error: shareMessages.sharingOff });
    } finally {
      await off.close();
    }

    // Revoked: the next request gets nothing; a second revocation finds nothing.
    expect((await revoke(owner, made.id)).status).toBe(200);
    expect(await listStatus()).toBe(404);
    expect((await download(cpa, document, 'user', ownerId)).status).toBe(404);
    expect((await revoke(owner, made.id)).status).toBe(404);
    // Revoked shares leave the owner's list; the address may be shared with again.
    const after = outgoingSharesAnswer.parse((await client.call('/api/investor/shares', { token: token(owner) })).json);
    expect(after.shares.map((s) => s.id)).not.toContain(made.id);
    await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
  });

  // ---- Who may share, and what ------------------------------------------------------------

  it('refuses what a share must not be: without the owner’s proof, other roles, the own address, a second share, other owners’ properties, hostile input', async () => {
    const body = { email: freshEmail('refused'), personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] };
    const noProof = await client.call('/api/investor/shares/create', { token: token(owner), body });
    expect(noProof.status).toBe(400);
    const wrong = await share(owner, { ...body, currentPassword: 'not-the-password' });
    expect(wrong.status).toBe(400);

    for (const who of [employee, admin]) {
      const res = await share(who, body);
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: shareMessages.investorsOnly });
      expect((await client.call('/api/investor/shares', { token: token(who) })).status).toBe(403);
    }
    expect((await share(owner, { ...body, email: owner.toUpperCase() })).json).toEqual({ error: shareMessages.ownAddress });

    const twice = freshEmail('twice');
    await shareOk(owner, { ...body, email: twice });
    const again = await share(owner, { ...body, email: twice });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: shareMessages.alreadyShared(twice) });

    // Another investor's property: refused, whatever else is chosen with it.
    const ownerProperties = await propertyIdsOf(await userId(owner));
    const notOwners = (await propertyIdsOf(await userId(otherInvestor))).find((id) => !ownerProperties.includes(id))!;
    const foreign = await share(owner, { ...body, propertyScope: 'properties', propertyIds: [ownerProperties[0], notOwners] });
    expect(foreign.status).toBe(400);
    expect(foreign.json).toEqual({ error: shareMessages.notYourProperty });

    const hostile = [
      { ...body, email: 'a\u0000b@example.com' },
      { ...body, note: 'hello\u0000' },
      { ...body, propertyScope: 'properties', propertyIds: Array.from({ length: 1001 }, (_, i) => i + 1) },
      { ...body, personalScope: 'categories', categories: Array.from({ length: 50 }, () => 'tax') },
      { ...body, personalScope: 'categories', categories: ['secret'] },
      { ...body, personalScope: 'none', propertyScope: 'none' },
      { ...body, personalScope: 'categories', categories: [] },
      { ...body, email: `${'a'.repeat(300)}@example.com` },
      { ...body, endsOn: '2001-01-01' },
      { ...body, endsOn: 'tomorrow' },
      { ...body, notify: 'yes' },
      { ...body, propertyScope: 'properties', propertyIds: [-1] },
      { ...body, email: ['x@example.com'] },
    ];
    for (const input of hostile) {
      const res = await share(owner, input);
      expect(res.status, JSON.stringify(input).slice(0, 120)).toBe(400);
    }
    // Nothing of the refused calls was made.
    const [count] = await em().execute<{ n: number }[]>(`select count(*)::int as n from users where email like 'refused.%'`);
    expect(count?.n).toBe(0);
  });

  it("answers another investor's share id like one that does not exist, and lets an administrator see and end any share", async () => {
    const ownerId = await userId(owner);
    const cpa = freshEmail('ended');
    const { share: made } = await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    const stranger = await revoke(otherInvestor, made.id);
    expect(stranger.status).toBe(404);
    expect(stranger.json).toEqual({ error: shareMessages.notFound });
    expect((await revoke(otherInvestor, 2_000_000)).json).toEqual(stranger.json);
    // Reading on behalf of someone who shares nothing with the caller: the unknown document's answer.
    expect((await client.call(`/api/investor/documents?onBehalfOf=${ownerId}`, { token: token(employee) })).status).toBe(404);
    expect(await download(employee, (await personalIds(ownerId))[0]!, 'user', ownerId)).toEqual({ status: 404, body: JSON.stringify(notAvailable) });

    const shares = adminUserSharesAnswer.parse((await client.call(`/api/admin/user-shares?userId=${ownerId}`, { token: token(admin) })).json);
    expect(shares.sharingAllowed).toBe(true);
    expect(shares.given.map((s) => s.delegateEmail)).toContain(cpa);
    const delegateShares = adminUserSharesAnswer.parse((await client.call(`/api/admin/user-shares?userId=${await userId(cpa)}`, { token: token(admin) })).json);
    expect(delegateShares.received).toEqual([expect.objectContaining({ id: made.id, ownerId, ownerEmail: owner, ownerName: 'James Carter' })]);
    expect((await client.call('/api/admin/user-shares?userId=2000000', { token: token(admin) })).status).toBe(404);

    expect((await client.call('/api/admin/end-share', { token: token(owner), body: { shareId: made.id } })).status).toBe(403);
    const ended = await client.call('/api/admin/end-share', { token: token(admin), body: { shareId: made.id } });
    expect(ended.status, ended.text).toBe(200);
    expect((await client.call('/api/admin/end-share', { token: token(admin), body: { shareId: made.id } })).status).toBe(404);

    // The Activity tab shows the share made, revoked and ended.
    const activity = activityAnswer.parse((await client.call('/api/admin/activity?limit=100', { token: token(admin) })).json);
    const actions = new Set(activity.entries.map((e) => e.action));
    for (const action of ['create-share', 'revoke-share', 'end-share']) expect(actions).toContain(action);
    const end = activity.entries.find((e) => e.action === 'end-share' && e.subject.id === made.id);
    expect(end).toMatchObject({ actor: { email: admin }, subject: { type: 'share', label: `${owner} → ${cpa}` } });
  });

  it('refuses hostile onBehalfOf values, and forgets shares with a deleted account', async () => {
    for (const value of ['abc', '0', '-3', '1.5', '99999999999999999999', '%00', '1%002']) {
      const res = await client.call(`/api/investor/documents?onBehalfOf=${value}`, { token: token(otherInvestor) });
      expect(res.status, value).toBe(400);
    }
    const link = await client.call('/api/investor/document-link', { token: token(otherInvestor), body: { id: 1, type: 'user', onBehalfOf: [1] } });
    expect(link.status).toBe(400);

    // The delegate's account deleted: its shares go with it; the owner's list no longer names it.
    const cpa = freshEmail('deleted');
    const { share: made } = await shareOk(owner, { email: cpa, personalScope: 'all', categories: [], propertyScope: 'none', propertyIds: [] });
    const deleted = await client.call('/api/admin/delete-user', { token: token(admin), body: { userId: await userId(cpa) } });
    expect(deleted.status, deleted.text).toBe(200);
    const [left] = await em().execute<{ n: number }[]>('select count(*)::int as n from shares where id = ?', [made.id]);
    expect(left?.n).toBe(0);
    const mine = outgoingSharesAnswer.parse((await client.call('/api/investor/shares', { token: token(owner) })).json);
    expect(mine.shares.map((s) => s.delegateEmail)).not.toContain(cpa);
  });
});
