// Quarters published by the sync as an accountant's folders are laid out, against the real
// server and PostgreSQL: a title reused every quarter is a new document each quarter (never a
// correction of the last one), a deactivated investor's row is refused with a sentence, and a
// whole year in a row, with its corrections and a property nobody can read, reaches each
// investor as it should, once; a second run, and a run from a fresh ledger, change nothing.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '@everest/core/client';
import { bulkManifestMessages, publishingMessages, quarters, type Quarter } from '@everest/core/domain';
import { startTestServer, type TestServer } from '@everest/server/testing';
import { createPortal } from './portal';
import { SyncEngine, type SyncOptions } from './sync-engine';
import { pdf, removeWorkspaces, sha256, workspace, write } from '../../test/folder';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(async () => {
  await server?.close();
  removeWorkspaces();
});

const adminApi = async () => {
  const signedIn = await createApiClient({ baseUrl: server.url }).call('login', { body: admin });
  if (!('token' in signedIn)) throw new Error('The test administrator has no second step.');
  return createApiClient({ baseUrl: server.url, getToken: () => signedIn.token });
};

function options(space: { folder: string; ledgerFile: string }, emailNotification = false): SyncOptions {
  return {
    ...space,
    portal: createPortal({ serverUrl: server.url, ...admin }),
    stabilityMs: 250,
    tickMs: 50,
    backoff: { baseMs: 100, maxMs: 400 },
    digestQuietMs: 0,
    watch: false,
    emailNotification,
  };
}

interface Investor {
  email: string;
  password: string;
}

let made = 0;
async function investor(name: string, properties: string[]): Promise<Investor> {
  made += 1;
  const email = `${name}-${made}-${Date.now().toString(36)}@example.com`;
  const password = `Quarter-${made}-Pass!`;
  await (await adminApi()).call('createUser', { body: { name: `${name} Tester`, email, password, properties, role: 'user', sendWelcomeEmail: false } });
  return { email, password };
}

async function property(name: string, investorRelations = true): Promise<void> {
  const api = await adminApi();
  const { property: created } = await api.call('createProperty', { body: { name } });
  await api.call('updateProperty', {
    body: { id: created.id, name, type: 'residential', address: '1 Test Way', city: 'Pasadena', state: 'CA', status: 'active', latitude: '34.1', longitude: '-118.1', investorRelations },
  });
}

/** Each document the investor sees, with `tag` in its title: 'where: title quarter vN sha256'. */
async function seenBy(who: Investor, tag: string): Promise<string[]> {
  const signedIn = await createApiClient({ baseUrl: server.url }).call('login', { body: { email: who.email, password: who.password } });
  if (!('token' in signedIn)) throw new Error(`${who.email} could not sign in`);
  const headers = { Authorization: `Bearer ${signedIn.token}` };
  const { documents } = await createApiClient({ baseUrl: server.url, getToken: () => signedIn.token }).call('investorDocuments', { query: {} });
  const seen: string[] = [];
  for (const d of documents.filter((doc) => doc.title.includes(tag))) {
    const response = await server.api(`/api/investor/download/${d.id}?type=${d.documentType === 'personal' ? 'user' : 'property'}`, { headers });
    expect(response.status, d.title).toBe(200);
    const where = d.documentType === 'property' ? d.property : 'personal';
    seen.push(`${where}: ${d.title} ${d.quarter} v${d.version} ${sha256(Buffer.from(await response.arrayBuffer()))}`);
  }
  return seen.sort();
}

const mailSubjects = async (email: string): Promise<string[]> =>
  (await server.services.orm.em.fork().execute<{ subject: string }[]>('select subject from outbox_messages where recipient = ? order by id', [email])).map(
    (row) => row.subject,
  );

describe('the sync, quarter after quarter', () => {
  it('files a title reused every quarter as a new document each quarter, each with its own statement', async () => {
    const tag = `Reused ${Date.now().toString(36)}`;
    const title = `Quarterly Distribution Statement ${tag}`;
    const ann = await investor('ann', []);
    const space = workspace('accountant');
    const statements = { Q1: pdf(`statement Q1 ${tag}`), Q2: pdf(`statement Q2 ${tag}`) };
    for (const [quarter, bytes] of Object.entries(statements)) {
      write(space.folder, `2026-${quarter}/investors/statement.pdf`, bytes);
      write(space.folder, `2026-${quarter}/investors/manifest.csv`, Buffer.from(`email,filename,document_category,title\n${ann.email},statement.pdf,financial,${title}\n`));
    }
    const engine = await SyncEngine.create(options(space));
    expect(await engine.runOnce()).toBe(true);
    expect(await seenBy(ann, tag)).toEqual([
      `personal: ${title} Q1 v1 ${sha256(statements.Q1)}`,
      `personal: ${title} Q2 v1 ${sha256(statements.Q2)}`,
    ]);
  });

  it("refuses a deactivated investor's row with a sentence naming the account, and publishes the rest", async () => {
    const tag = `Gone ${Date.now().toString(36)}`;
    const kept = await investor('kept', []);
    const gone = await investor('gone', []);
    const api = await adminApi();
    const [row] = await server.services.orm.em.fork().execute<{ id: number }[]>('select id from users where email = ?', [gone.email]);
    await api.call('editUser', { body: { userId: row!.id, isActive: false } });
    const space = workspace('2026-Q1');
    write(space.folder, 'investors/kept.pdf', pdf(`kept ${tag}`));
    write(space.folder, 'investors/gone.pdf', pdf(`gone ${tag}`));
    write(space.folder, 'investors/manifest.csv', Buffer.from(`email,filename,document_category,title\n${kept.email},kept.pdf,tax,K-1 ${tag}\n${gone.email},gone.pdf,tax,K-1 ${tag}\n`));
    const engine = await SyncEngine.create(options(space));
    await engine.runOnce();
    const report = engine.status().report;
    expect(report.find((item) => item.path === 'investors/kept.pdf')?.outcome).toBe('published');
    expect(report.find((item) => item.path === 'investors/gone.pdf')).toMatchObject({
      outcome: 'needs-attention',
      message: expect.stringContaining(bulkManifestMessages.deactivated(gone.email)),
    });
    const [documents] = await server.services.orm.em.fork().execute<{ count: string }[]>(
      'select count(*) from user_documents d join users u on u.id = d.user_id where u.email = ?',
      [gone.email],
    );
    expect(Number(documents?.count)).toBe(0);
  });

  it('publishes a year of four quarters with the same titles and one changed file each: each investor sees each quarter once, whole, with its corrections; runs again change nothing', async () => {
    const tag = Date.now().toString(36);
    const north = `North ${tag}`;
    const south = `South ${tag}`;
    const hidden = `Hidden ${tag}`;
    await property(north);
    await property(south);
    await property(hidden, false);
    const ann = await investor('ann', [north]);
    const bob = await investor('bob', [north, south]);
    const cat = await investor('cat', [south]);
    const gone = await investor('gone', [north]);
    const [goneRow] = await server.services.orm.em.fork().execute<{ id: number }[]>('select id from users where email = ?', [gone.email]);
    await (await adminApi()).call('editUser', { body: { userId: goneRow!.id, isActive: false } });

    const report = `Quarterly Report ${tag}`;
    const statement = `Quarterly Distribution Statement ${tag}`;
    const space = workspace('accountant');
    const bytes = new Map<string, Buffer>();
    const put = (relative: string, content: Buffer) => {
      write(space.folder, relative, content);
      bytes.set(relative, content);
    };
    const people = { ann, bob, cat, gone };
    for (const quarter of quarters) {
      for (const p of [north, south, hidden]) put(`2026-${quarter}/properties/${p}/${report}.pdf`, pdf(`${p} report ${quarter}`));
      for (const name of Object.keys(people)) put(`2026-${quarter}/investors/${name}.pdf`, pdf(`${name} statement ${quarter}`));
      const rows = Object.entries(people).map(([name, who]) => `${who.email},${name}.pdf,financial,${statement}`);
      write(space.folder, `2026-${quarter}/investors/manifest.csv`, Buffer.from(['email,filename,document_category,title', ...rows].join('\n')));
    }
    const mailsBefore = new Map(await Promise.all([ann, bob, cat].map(async (who) => [who.email, (await mailSubjects(who.email)).length] as const)));

    const first = await SyncEngine.create(options(space, true));
    await first.runOnce();
    expect(first.status().counts).toMatchObject({ published: 24, 'needs-attention': 4 });
    // The hidden property's reports are published, and said to be readable by nobody.
    for (const quarter of quarters) {
      const item = first.status().report.find((i) => i.path === `2026-${quarter}/properties/${hidden}/${report}.pdf`);
      expect(item?.warning).toContain(publishingMessages.noReader);
    }

    // One file changed in each quarter, after it was published.
    const changed: Record<Quarter, string> = {
      Q1: '2026-Q1/investors/ann.pdf',
      Q2: `2026-Q2/properties/${north}/${report}.pdf`,
      Q3: '2026-Q3/investors/cat.pdf',
      Q4: `2026-Q4/properties/${south}/${report}.pdf`,
    };
    for (const quarter of quarters) {
      const fixed = pdf(`${changed[quarter]} restated`);
      writeFileSync(path.join(space.folder, changed[quarter]), fixed);
      bytes.set(changed[quarter], fixed);
    }
    const second = await SyncEngine.create(options(space, true));
    await second.runOnce();
    expect(second.status().summary).toMatch(/^4 published, 20 already on the portal, 4 need attention/);
    expect(second.status().emailed).toMatchObject({ corrected: 4 });

    const expected = (name: string, properties: string[]) =>
      quarters
        .flatMap((quarter) => {
          const version = (relative: string) => (changed[quarter] === relative ? 2 : 1);
          const mine = `2026-${quarter}/investors/${name}.pdf`;
          return [
            `personal: ${statement} ${quarter} v${version(mine)} ${sha256(bytes.get(mine)!)}`,
            ...properties.map((p) => {
              const file = `2026-${quarter}/properties/${p}/${report}.pdf`;
              return `${p}: ${report} ${quarter} v${version(file)} ${sha256(bytes.get(file)!)}`;
            }),
          ];
        })
        .sort();
    const year = async () => ({ ann: await seenBy(ann, tag), bob: await seenBy(bob, tag), cat: await seenBy(cat, tag) });
    const seen = await year();
    expect(seen).toEqual({ ann: expected('ann', [north]), bob: expected('bob', [north, south]), cat: expected('cat', [south]) });

    // E-mails: one digest of the new year, then one of its corrections, each naming them as corrected.
    const mails = async () =>
      Object.fromEntries(await Promise.all([ann, bob, cat].map(async (who) => [who.email, (await mailSubjects(who.email)).slice(mailsBefore.get(who.email))] as const)));
    const sent = await mails();
    for (const who of [ann, bob, cat]) {
      expect(sent[who.email]).toEqual([expect.stringMatching(/new documents are available/), '2 corrected documents are available in your investor portal']);
    }

    // Again with its ledger, and again from a fresh one: nothing new, nobody e-mailed.
    for (const ledgerFile of [space.ledgerFile, path.join(path.dirname(space.ledgerFile), 'fresh', 'sync.json')]) {
      const again = await SyncEngine.create({ ...options(space, true), ledgerFile });
      await again.runOnce();
      expect(again.status().summary).toMatch(/^0 published, 24 already on the portal, 4 need attention/);
    }
    expect(await year()).toEqual(seen);
    expect(await mails()).toEqual(sent);
  });
});
