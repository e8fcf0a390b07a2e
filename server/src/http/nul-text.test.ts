import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../test/harness';
import { altchaToken } from '../../test/altcha';
import { ContactMessage } from '../features/contact/contact-message.entity';
import { freshAddress, recordingClient } from '../../test/test-client';
import { User } from '../features/users/user.entity';
import { createLogger } from '../logger';
import { errorHandler } from './errors';
import { brokenCharacterRefused, nulRefused } from './route';

/**
 * Issue 33: PostgreSQL refuses the NUL character in text, so a NUL anywhere in a form became a
 * 500 whose log line held the whole SQL with the visitor's name, e-mail and message. Text with a
 * NUL is refused at the edge (http/route.ts) with a sentence, whatever route and field, and no
 * error line carries a query's values.
 */
describe('the NUL character in text', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let log = '';
  let admin = '';
  let investor = '';

  beforeAll(async () => {
    server = await startTestServer({
      seed: true,
      env: { TRUST_PROXY: 'true', ALTCHA_COMPLEXITY: '100' },
      logTo: { write: (line: string) => void (log += line) },
    });
    client = recordingClient(server);
    admin = await client.signIn('admin@example.com', demoPassword, freshAddress());
    investor = await client.signIn('investor@example.com', demoPassword, freshAddress());
  });
  afterAll(async () => {
    await server.close();
  });

  const expectRefused = (res: { status: number; json: unknown; text: string }) => {
    expect(res.status, res.text).toBe(400);
    expect(errorAnswer.parse(res.json).error).toBe(nulRefused);
  };

  it('refuses a profile with a NUL, and leaves the profile as it was', async () => {
    expectRefused(await client.call('/api/investor/update-profile', { body: { email: 'investor@example.com', firstName: 'Ann\u0000' }, token: investor }));
    const user = await server.services.orm.em.fork().findOneOrFail(User, { email: 'investor@example.com' });
    expect(user.firstName).not.toContain('\u0000');
  });

  it('refuses a contact message with a NUL before the captcha is spent, and logs none of it', async () => {
    const before = await server.services.orm.em.fork().count(ContactMessage);
    const res = await client.call('/api/contact', {
      body: {
        firstName: 'Visitor',
        lastName: 'Privatename',
        email: 'private.visitor@example.com',
        subject: 'Hello',
        message: 'My address is 12 Secret Lane\u0000',
        recaptchaToken: await altchaToken(server.api),
      },
      from: freshAddress(),
    });
    expectRefused(res);
    expect(await server.services.orm.em.fork().count(ContactMessage)).toBe(before);
    expect(log).not.toMatch(/Privatename|private\.visitor|Secret Lane/);
  });

  it('refuses a lone surrogate (half a UTF-16 pair) with a sentence, not 500 (route fuzz seed 500545103)', async () => {
    const name = 'Heights \udfff\ud800';
    const res = await client.call('/api/admin/create-property', { body: { name }, token: admin });
    expect(res.status, res.text).toBe(400);
    expect(errorAnswer.parse(res.json).error).toBe(brokenCharacterRefused);
    const search = await client.call(`/api/admin/users?page=1&limit=10&search=${encodeURIComponent('a')}%ED%A0%80`, { token: admin });
    expect(search.status, search.text).toBeLessThan(500);
    // A well-formed pair (an emoji) is text like any other.
    const emoji = await client.call('/api/admin/create-property', { body: { name: 'Heights \u{1F3E0}' }, token: admin });
    expect(emoji.status, emoji.text).toBe(200);
  });

  it('refuses a NUL in a query, a path, a nested body and a multipart field', async () => {
    expectRefused(await client.call('/api/admin/users?page=1&limit=10&search=smi%00th', { token: admin }));
    expectRefused(await client.call('/api/investor/validate-reset-token/abc%00def', { from: freshAddress() }));
    expectRefused(
      await client.call('/api/admin/bulk-import-users', {
        body: { csvData: [{ email: 'nul@example.com', name: 'N\u0000L' }], sendWelcomeEmails: false },
        token: admin,
      }),
    );
    const form = new FormData();
    form.set('title', 'Quarterly\u0000Report');
    form.set('property', 'General');
    form.set('year', '2025');
    form.set('quarter', 'Q1');
    form.set('document', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))]), 'report.pdf');
    const res = await server.api('/api/admin/upload-document', { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(res.status).toBe(400);
    expect(errorAnswer.parse(await res.json()).error).toBe(nulRefused);
  });

  it("refuses a NUL in a batch's text part sent as a file (a bulk upload's manifest)", async () => {
    const form = new FormData();
    const manifest = 'email,filename,document_category,title\ninvestor@example.com,a.pdf,tax,K\u00001 title\n';
    form.set('csvManifest', new Blob([manifest], { type: 'text/csv' }), 'manifest.csv');
    form.append('documents[]', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))]), 'a.pdf');
    const res = await server.api('/api/admin/bulk-upload-user-documents', { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(res.status).toBe(400);
    expect(errorAnswer.parse(await res.json()).error).toBe(nulRefused);
  });

  it('never answers 500 for a NUL anywhere in the profile form', async () => {
    for (const field of ['firstName', 'lastName', 'entity', 'streetAddress', 'city', 'state', 'zipCode']) {
      const res = await client.call('/api/investor/update-profile', { body: { email: 'investor@example.com', [field]: 'x\u0000y' }, token: investor });
      expect(res.status, `${field}: ${res.text}`).toBe(400);
    }
    expect(log).not.toMatch(/"level":"error"/);
  });

  it("logs a database error without the query's values", async () => {
    // A real error of the driver, as a route that let a bad value through would get it.
    const lines: string[] = [];
    const app = new Koa();
    app.use(errorHandler(createLogger('error', { write: (line: string) => void lines.push(line) })));
    app.use(async () => {
      await server.services.orm.em
        .fork()
        .getConnection()
        .execute('insert into contact_messages (first_name, last_name, email, subject, message, client_address) values (?, ?, ?, ?, ?, ?)', [
          'Visitor',
          'Privatename',
          'private.visitor@example.com',
          'Hello',
          'My address is 12 Secret Lane\u0000',
          '203.0.113.9',
        ]);
    });
    const listening = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/`);
      expect(res.status).toBe(500);
    } finally {
      listening.close();
    }
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? '';
    expect(line).not.toMatch(/Privatename|private\.visitor|Secret Lane|203\.0\.113\.9/);
    // What is left still tells the operator what failed and where.
    expect(line).toContain('request failed');
    expect(line).toMatch(/insert into contact_messages/);
    expect(line).toMatch(/08P01|22021/);
  });
});
