import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPropertyAnswer, loginAnswer, publicPropertyList, personalDocumentAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { ChildServer } from '../test/child-server';
import { createTestDatabase, type TestDatabase } from '../test/harness';
import { startLocalS3, type LocalS3 } from '../test/s3';
import { openOrm } from './db/orm';
import { seedDemoData } from './db/seed';
import { createFileStore } from './features/files/create-file-store';
import { samplePdf } from '../test/sample-documents';
import { SmtpListener } from '../test/smtp-listener';
import { loadConfig } from './config';

/**
 * Two server processes as behind a load balancer: one PostgreSQL, one S3-compatible bucket, one
 * SMTP server, and nothing else in common (each its own DATA_DIR, as on two machines).
 */
describe('two instances on one database and one bucket', () => {
  let database: TestDatabase;
  let s3: LocalS3;
  let smtp: SmtpListener;
  const dataDirs: string[] = [];
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    s3 = await startLocalS3();
    smtp = await SmtpListener.start();
    const shared = {
      DATABASE_URL: database.url,
      ...s3.env('several-instances'),
      SMTP_URL: smtp.url,
      // What a deployment gives every instance alike, or their sessions and captchas would differ.
      JWT_SECRET: 'several-instances-test-secret-of-at-least-32-characters',
      ALTCHA_HMAC_KEY: 'several-instances-altcha-key',
      PUBLIC_URL: 'http://everest.example.com',
    };
    const dataDir = () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-instance-'));
      chmodSync(dir, 0o755);
      dataDirs.push(dir);
      return dir;
    };
    // Seeded once, files into the bucket, as `seed --demo` would.
    const seedConfig = loadConfig({ ...shared, DATA_DIR: dataDir() });
    const orm = await openOrm(database.url);
    const files = await createFileStore(seedConfig);
    await seedDemoData(orm.em.fork(), files);
    files.close();
    await orm.close(true);

    [a, b] = await Promise.all([ChildServer.start({ ...shared, DATA_DIR: dataDir() }), ChildServer.start({ ...shared, DATA_DIR: dataDir() })]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await smtp.stop();
    await s3.close();
    await database.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const signIn = async (server: ChildServer, email: string, password = demoPassword) =>
    fetch(`${server.url}/api/investor/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const tokenOn = async (server: ChildServer, email: string) => {
    const res = await signIn(server, email);
    expect(res.status).toBe(200);
    return loginAnswer.parse(await res.json()).token;
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('downloads through one instance a document uploaded through the other, ranges included', async () => {
    const bytes = samplePdf('uploaded on A, read on B');
    const form = new FormData();
    form.set('userEmail', 'investor@example.com');
    form.set('documentCategory', 'tax');
    form.set('title', 'Two Instances');
    form.set('document', new Blob([new Uint8Array(bytes)]), 'two-instances.pdf');
    const uploaded = await fetch(`${a.url}/api/admin/upload-user-document`, { method: 'POST', headers: bearer(await tokenOn(a, 'admin@example.com')), body: form });
    expect(uploaded.status).toBe(200);
    const { document } = personalDocumentAnswer.parse(await uploaded.json());

    const investorOnB = await tokenOn(b, 'investor@example.com');
    const whole = await fetch(`${b.url}/api/investor/download/${document.id}?type=user`, { headers: bearer(investorOnB) });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const range = await fetch(`${b.url}/api/investor/download/${document.id}?type=user`, { headers: { ...bearer(investorOnB), range: 'bytes=4-11' } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(4, 12))).toBe(true);
  });

  it('serves on one instance a property edited on the other', async () => {
    const names = async (server: ChildServer) => publicPropertyList.parse(await (await fetch(`${server.url}/api/properties`)).json()).map((p) => p.name);
    const [first] = await names(b);
    expect(first).toBeDefined();
    const adminOnA = await tokenOn(a, 'admin@example.com');
    const list = (await (await fetch(`${a.url}/api/admin/all-properties`, { headers: bearer(adminOnA) })).json()) as { properties: { id: number; name: string }[] };
    const target = list.properties.find((p) => p.name === first);
    const property = adminPropertyAnswer.parse(await (await fetch(`${a.url}/api/admin/property/${target?.id}`, { headers: bearer(adminOnA) })).json()).property;

    const renamed = `${property.name} Renamed on A`;
    // The fields update-property takes, as the panel sends them.
    const editable = ['id', 'type', 'address', 'city', 'state', 'zipCode', 'phone', 'website', 'status', 'latitude', 'longitude', 'investorRelations'] as const;
    const fields = { ...Object.fromEntries(editable.map((key) => [key, property[key]])), name: renamed };
    const saved = await fetch(`${a.url}/api/admin/update-property`, { method: 'POST', headers: { ...bearer(adminOnA), 'content-type': 'application/json' }, body: JSON.stringify(fields) });
    expect(saved.status, await saved.clone().text()).toBe(200);
    // B had the old list cached; the database's notice drops it there as soon as A commits.
    await expect.poll(() => names(b), { timeout: 10_000 }).toContain(renamed);
  });

  it('sends each e-mail once, whichever instance queued it and whichever worker picks it up', async () => {
    const orm = await openOrm(database.url);
    const unsent = async () => (await orm.em.fork().execute<{ n: string }[]>(`select count(*) as n from outbox_messages where status <> 'sent'`))[0]?.n;
    // Whatever earlier tests queued has gone out first.
    await expect.poll(unsent, { timeout: 20_000 }).toBe('0');
    const before = smtp.received.length;
    const requests = ['investor@example.com', 'investor2@example.com', 'employee@example.com'].flatMap((email) =>
      [a, b].map((server) =>
        fetch(`${server.url}/api/investor/request-password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) }),
      ),
    );
    for (const res of await Promise.all(requests)) expect(res.status).toBe(200);
    // Both workers are awake now; once six have arrived, any seventh would be a second copy
    // sent before its row was marked sent, and the rows say that all of them are.
    await expect.poll(() => smtp.received.length - before, { timeout: 20_000 }).toBe(6);
    await expect.poll(unsent).toBe('0');
    await orm.close(true);
    expect(smtp.received.length - before).toBe(6);
    const recipients = smtp.received.slice(before).map((mail) => mail.to).flat().sort();
    expect(recipients).toEqual(['employee@example.com', 'employee@example.com', 'investor2@example.com', 'investor2@example.com', 'investor@example.com', 'investor@example.com']);
  });

  it('counts failed sign-ins across both instances', async () => {
    // Ten failures are allowed per account in 15 minutes: five on each instance.
    for (let i = 0; i < 5; i++) {
      expect((await signIn(a, 'employee@example.com', 'wrong password')).status).toBe(401);
      expect((await signIn(b, 'employee@example.com', 'wrong password')).status).toBe(401);
    }
    expect((await signIn(a, 'employee@example.com', 'wrong password')).status).toBe(429);
    expect((await signIn(b, 'employee@example.com', 'wrong password')).status).toBe(429);
    expect((await signIn(b, 'employee@example.com')).status).toBe(429);
  });
});
