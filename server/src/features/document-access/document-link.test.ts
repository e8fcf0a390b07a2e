import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '@everest/fixtures';
import { documentLinkAnswer, investorDocumentsAnswer, type InvestorDocument } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { documentLinkTokens, sessionTokens } from '../auth/session';
import { documentLinkLifetimeSeconds } from '../auth/session-token';
import { recordingClient } from '../../../test/test-client';

const investor = 'investor@example.com';
const other = 'investor2@example.com';

/**
 * The portal's preview and download addresses carry a document link (issue 22): a token of a few
 * minutes that opens one document, for the session that asked for it, and nothing else.
 */
describe('document links', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let session: string;
  let documents: InvestorDocument[];

  const typeOf = (document: InvestorDocument) => (document.documentType === 'personal' ? 'user' : 'property');
  const linkFor = async (document: InvestorDocument, token = session) => {
    const res = await client.call('/api/investor/document-link', { token, body: { id: document.id, type: typeOf(document) } });
    expect(res.status, res.text).toBe(200);
    return documentLinkAnswer.parse(res.json);
  };
  const download = (id: number, type: 'property' | 'user', token: string, preview = false) =>
    server.api(`/api/investor/download/${id}?type=${type}&token=${encodeURIComponent(token)}${preview ? '&preview=1' : ''}`);
  const listOf = async (token: string) => {
    const res = await client.call('/api/investor/documents', { token });
    expect(res.status, res.text).toBe(200);
    return investorDocumentsAnswer.parse(res.json).documents;
  };
  const first = (kind: InvestorDocument['documentType'], list = documents) => {
    const found = list.find((d) => d.documentType === kind && d.fileExists);
    if (!found) throw new Error(`the demo data give ${investor} a ${kind} document`);
    return found;
  };

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    session = await client.signIn(investor);
    documents = await listOf(session);
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  it('opens its document for preview and download, lasts minutes, and the read is recorded as the user', async () => {
    const personal = first('personal');
    const before = Date.now();
    const link = await linkFor(personal);
    const lifetime = new Date(link.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan((documentLinkLifetimeSeconds - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual((documentLinkLifetimeSeconds + 1) * 1000);

    const preview = await download(personal.id, 'user', link.token, true);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(preview.headers.get('cache-control')).toContain('no-store');
    expect((await preview.arrayBuffer()).byteLength).toBe(personal.fileSize);

    const property = first('property');
    const propertyLink = await linkFor(property);
    const saved = await download(property.id, 'property', propertyLink.token);
    expect(saved.status).toBe(200);
    expect(saved.headers.get('content-disposition')).toMatch(/^attachment;/);
    await saved.arrayBuffer();

    const em = server.services.orm.em.fork();
    const reads = await em.find(AuditEvent, { documentId: personal.id, documentType: 'personal' }, { populate: ['user'] });
    expect(reads.map((read) => [read.action, read.user?.email])).toEqual([['preview', investor]]);
  });

  it('opens no other document: another id, the same id of the other kind, or a document of the same kind', async () => {
    const personal = first('personal');
    const link = await linkFor(personal);
    const others = documents.filter((d) => d.documentType === 'personal' && d.id !== personal.id && d.fileExists);
    expect(others.length).toBeGreaterThan(0);
    for (const document of others) {
      const res = await download(document.id, 'user', link.token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Please sign in to continue.' });
    }
    expect((await download(personal.id, 'property', link.token)).status).toBe(401);
    expect((await download(personal.id + 100_000, 'user', link.token)).status).toBe(401);
  });

  it('is refused by every other call, as a bearer token too', async () => {
    const link = await linkFor(first('property'));
    for (const path of ['/api/investor/profile', '/api/investor/documents', '/api/admin/users']) {
      expect((await client.call(path, { token: link.token })).status, path).toBe(401);
    }
    // Not even for another link: a link cannot be stretched into more links.
    const again = await client.call('/api/investor/document-link', { token: link.token, body: { id: first('property').id, type: 'property' } });
    expect(again.status).toBe(401);
  });

  it('is refused once expired', async () => {
    const personal = first('personal');
    const claims = await sessionTokens(server.services.config).verify(session);
    if (!claims) throw new Error('the session is genuine');
    const issuedLongAgo = Date.now() - (documentLinkLifetimeSeconds + 1) * 1000;
    const stale = await documentLinkTokens(server.services.config).issue(claims, { type: 'user', id: personal.id }, issuedLongAgo);
    expect((await download(personal.id, 'user', stale.token)).status).toBe(401);
    const fresh = await documentLinkTokens(server.services.config).issue(claims, { type: 'user', id: personal.id });
    expect((await download(personal.id, 'user', fresh.token)).status).toBe(200);
  });

  it("answers a document the caller may not read as it answers one that does not exist", async () => {
    const theirs = first('personal', await listOf(await client.signIn(other)));
    const notYours = await client.call('/api/investor/document-link', { token: session, body: { id: theirs.id, type: 'user' } });
    const missing = await client.call('/api/investor/document-link', { token: session, body: { id: 9_999_999, type: 'user' } });
    expect(notYours.status).toBe(404);
    expect([missing.status, missing.text]).toEqual([notYours.status, notYours.text]);
  });

  it('dies with the session that asked for it: on sign-out, and on a password change', async () => {
    const personal = first('personal');
    const leaving = await client.signIn(investor);
    const link = await linkFor(personal, leaving);
    expect((await download(personal.id, 'user', link.token)).status).toBe(200);
    expect((await client.call('/api/investor/logout', { token: leaving, body: {} })).status).toBe(200);
    expect((await download(personal.id, 'user', link.token)).status).toBe(401);

    const changing = await client.signIn(investor);
    const kept = await linkFor(personal, changing);
    const newPassword = `${demoPassword}x`;
    const changed = await client.call('/api/investor/change-password', {
      token: changing,
      body: { currentPassword: demoPassword, newPassword },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await download(personal.id, 'user', kept.token)).status).toBe(401);
  });

  it("still takes the spec's call: the session token itself as ?token=", async () => {
    const fresh = await client.signIn(other);
    const theirs = first('personal', await listOf(fresh));
    const res = await download(theirs.id, 'user', fresh);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
