import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { demoPassword } from '@everest/fixtures';
import { documentTypes } from '../src/features/files/sniff';
import type { BenchServer } from './bench-server';
import { load } from './load';

const investors = 1000;
const properties = 250;
const propertyDocuments = 8000;
const personalDocumentsPerInvestor = 2; // 2,000: 10,000 documents in all
const accessPerInvestor = 20;
/** Issue 36: every tenth investor shares everything with two delegates. */
const sharingEvery = 10;
const delegatesPerSharer = 2;

/**
 * Fills the database as a firm of this size would: 250 properties with 32 quarterly documents
 * each, 1,000 investors with access to 20 properties and 2 personal documents each, and (issue
 * 36) 10% of them sharing everything with two delegate accounts each. Plain SQL
 * (generate_series) so that it takes a second, not minutes.
 */
export async function populate(server: BenchServer): Promise<void> {
  const connection = server.services.orm.em.fork().getConnection();
  await connection.execute(`
    insert into properties (name, type, status, investor_relations, created_at, updated_at)
    select 'Bench Property ' || i, 'residential', 'active', true, now(), now() from generate_series(1, ${properties}) i`);
  await connection.execute(`
    insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
    select 'bench' || i || '@example.com', (select password_hash from users where email = 'investor@example.com'),
           'Bench', 'Investor ' || i, 'user', now(), now()
      from generate_series(1, ${investors}) i`);
  await connection.execute(`
    insert into property_access (user_id, property_id, created_at)
    select u.id, p.id, now()
      from users u
      join lateral (
        select id from properties where name like 'Bench Property %'
         order by (id * 7919 + u.id * 104729) % ${properties} limit ${accessPerInvestor}) p on true
     where u.email like 'bench%'`);
  await connection.execute(`
    insert into property_documents (title, property_id, year, quarter, filename, file_id, uploaded_at)
    select 'Quarterly Report ' || i, p.id, 2018 + (i % 8), 'Q' || (1 + i % 4), 'report-' || i || '.pdf',
           (select id from stored_files where content_type = 'application/pdf' order by id limit 1), now()
      from generate_series(1, ${propertyDocuments}) i
      join lateral (select id from properties where name = 'Bench Property ' || (1 + i % ${properties})) p on true`);
  await connection.execute(`
    insert into user_documents (user_id, title, document_category, year, quarter, filename, file_id, uploaded_at)
    select u.id, 'K-1 ' || (2023 + k), 'tax', 2023 + k, 'Q1', 'k1-' || k || '.pdf',
           (select id from stored_files where content_type = 'application/pdf' order by id limit 1), now()
      from users u cross join generate_series(1, ${personalDocumentsPerInvestor}) k
     where u.email like 'bench%'`);
  await connection.execute(`
    insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
    select 'bench-delegate' || i || '-' || k || '@example.com', (select password_hash from users where email = 'investor@example.com'),
           'Bench', 'Delegate ' || i || '-' || k, 'delegate', now(), now()
      from generate_series(1, ${investors / sharingEvery}) i cross join generate_series(1, ${delegatesPerSharer}) k`);
  await connection.execute(`
    insert into shares (owner_id, delegate_id, personal_scope, categories, property_scope, notify, created_at)
    select o.id, d.id, 'all', '{}', 'all', false, now()
      from generate_series(1, ${investors / sharingEvery}) i cross join generate_series(1, ${delegatesPerSharer}) k
      join users o on o.email = 'bench' || (i * ${sharingEvery}) || '@example.com'
      join users d on d.email = 'bench-delegate' || i || '-' || k || '@example.com'`);
  await connection.execute('analyze');
}

export async function signIn(server: Pick<BenchServer, 'url'>, email: string): Promise<string> {
  const res = await fetch(`${server.url}/api/investor/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: demoPassword }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email} failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * GET /api/investor/documents under load. Goal: p99 under 20 ms at 20 concurrent requests.
 * With `onBehalfOf` (issue 36), a delegate's list of that investor's documents.
 */
async function benchDocumentList(server: BenchServer, token: string, onBehalfOf?: number): Promise<number> {
  const url = `${server.url}/api/investor/documents${onBehalfOf === undefined ? '' : `?onBehalfOf=${onBehalfOf}`}`;
  // As the portal asks for it: browsers always offer gzip.
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' };
  const count = ((await (await fetch(url, { headers })).json()) as { documents: unknown[] }).documents.length;
  await load(url, { connections: 20, seconds: 3, headers }); // warm-up
  const result = await load(url, { connections: 20, seconds: 10, headers });
  const who = onBehalfOf === undefined ? 'this investor sees' : 'a delegate sees of its investor';
  console.log(
    `GET /api/investor/documents${onBehalfOf === undefined ? '' : '?onBehalfOf='} (${investors} investors, ${propertyDocuments + investors * personalDocumentsPerInvestor} documents; ${who} ${count}), 20 connections, 10 s`,
  );
  console.log(`  ${result.requestsPerSecond.toFixed(0)} requests/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`);
  console.log(`  goal p99 < 20 ms: ${result.latency.p99 < 20 ? 'met' : 'NOT met'}`);
  return result.latency.p99;
}

/** A 100 MB download, streamed: the server's memory must grow by less than 20 MB. */
async function benchLargeDownload(server: BenchServer, token: string, email: string): Promise<void> {
  const size = 100 * 1024 * 1024;
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  chunk.write('%PDF-1.7\n', 0);
  async function* bytes() {
    for (let sent = 0; sent < size; sent += chunk.length) yield sent === 0 ? chunk : chunk.fill(0x20);
  }
  const blob = await server.services.files.put(Readable.from(bytes()), {
    maxBytes: size,
    accept: documentTypes,
    tooLargeMessage: 'too large',
    wrongTypeMessage: 'wrong type',
  });
  const connection = server.services.orm.em.fork().getConnection();
  const rows = await connection.execute<{ id: number }[]>(
    `with f as (insert into stored_files (sha256, size, content_type, created_at) values (?, ?, ?, now()) returning id)
     insert into user_documents (user_id, title, document_category, year, quarter, filename, file_id, uploaded_at)
     select (select id from users where email = ?), 'Large statement', 'financial', 2025, 'Q4', 'large.pdf', f.id, now() from f
     returning id`,
    [blob.sha256, blob.size, blob.contentType, email],
  );
  // curl in another process reads it as a browser would, and throws the bytes away.
  const download = () =>
    promisify(execFile)('curl', [
      '-s', '-o', '/dev/null', '-w', '%{size_download} %{time_total}',
      '-H', `Authorization: Bearer ${token}`,
      `${server.url}/api/investor/download/${rows[0]?.id}?type=user`,
    ]);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const { stdout } = await download();
  clearInterval(sampler);
  const [downloaded = '0', seconds = '0'] = stdout.trim().split(' ');
  const growthMb = (peak - before) / 1024 / 1024;
  console.log(`100 MB download: ${(Number(downloaded) / 1024 / 1024).toFixed(0)} MB in ${Number(seconds).toFixed(2)} s, server memory growth ${growthMb.toFixed(1)} MB`);
  console.log(`  goal < 20 MB: ${growthMb < 20 ? 'met' : 'NOT met'}`);
}

export async function benchDocuments(server: BenchServer): Promise<void> {
  await populate(server);
  // An investor who shares (issue 36), then one of their delegates reading their list.
  const email = `bench${sharingEvery}@example.com`;
  const token = await signIn(server, email);
  const investorP99 = await benchDocumentList(server, token);
  const [owner] = await server.services.orm.em.fork().execute<{ id: number }[]>('select id from users where email = ?', [email]);
  const delegateP99 = await benchDocumentList(server, await signIn(server, 'bench-delegate1-1@example.com'), owner?.id);
  const ratio = delegateP99 / Math.max(investorP99, 0.001);
  console.log(`  delegate's p99 / investor's p99: ${ratio.toFixed(2)}; goal within 20%: ${ratio <= 1.2 ? 'met' : 'NOT met'}`);
  await benchLargeDownload(server, token, email);
}
