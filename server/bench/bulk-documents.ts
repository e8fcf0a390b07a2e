import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bulkUploadPersonalDocumentsAnswer } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import type { BenchServer } from './bench-server';

const investors = 200;
const fileBytes = 1024 * 1024;
const goalMb = 64;

/** 200 investors of their own, in one INSERT … SELECT (STACK.md): the batch names each once. */
async function populateInvestors(server: BenchServer): Promise<string[]> {
  const connection = server.services.orm.em.fork().getConnection();
  await connection.execute(`
    insert into users (email, password_hash, first_name, last_name, role, created_at, updated_at)
    select 'bulk' || i || '@example.com', (select password_hash from users where email = 'investor@example.com'),
           'Bulk', 'Investor ' || i, 'user', now(), now()
      from generate_series(1, ${investors}) i
    on conflict do nothing`);
  return Array.from({ length: investors }, (_, i) => `bulk${i + 1}@example.com`);
}

/**
 * The quarter's batch on disk as an administrator's folder holds it: 200 PDFs of 1 MB, each of
 * its own content, and the manifest naming one per investor. One buffer is reused for every file,
 * so the bench process (which is also the server's) does not hold 200 MB itself.
 */
function writeBatch(dir: string, emails: string[]): { manifest: string; files: string[] } {
  const bytes = Buffer.alloc(fileBytes, 0x20);
  const files: string[] = [];
  const rows = ['email,filename,document_category,title,description,document_date,tags'];
  emails.forEach((email, i) => {
    const name = `k1-${i + 1}.pdf`;
    bytes.write(`%PDF-1.7\n% Schedule K-1 for ${email}\n`, 0);
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    files.push(file);
    rows.push(`${email},${name},tax,2025 Schedule K-1,Bench batch,2026-03-15,k1`);
  });
  const manifest = path.join(dir, 'manifest.csv');
  writeFileSync(manifest, `${rows.join('\n')}\n`);
  return { manifest, files };
}

/**
 * Bulk publish of 200 files of 1 MB for 200 investors in one multipart request, e-mail on.
 * curl, in a process of its own, streams the form from disk as a browser would, so that what
 * this process's memory does during the upload is the server's. Goals: report the wall time;
 * the server's memory grows by less than 64 MB (nothing of the batch is held whole).
 */
export async function benchBulkDocuments(server: BenchServer): Promise<void> {
  const emails = await populateInvestors(server);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-bulk-bench-'));
  try {
    const { manifest, files } = writeBatch(dir, emails);
    const login = await fetch(`${server.url}/api/investor/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
    });
    if (!login.ok) throw new Error(`sign-in of the administrator failed: ${login.status}`);
    const { token } = (await login.json()) as { token: string };

    // A curl config file rather than 400 arguments; `@file` parts are read from disk as they are sent.
    const config = path.join(dir, 'curl.config');
    const answer = path.join(dir, 'answer.json');
    writeFileSync(
      config,
      [
        `url = "${server.url}/api/admin/bulk-upload-user-documents"`,
        `header = "Authorization: Bearer ${token}"`,
        `output = "${answer}"`,
        'form = "emailNotification=true"',
        `form = "csvManifest=@${manifest};type=text/csv"`,
        ...files.map((file) => `form = "documents[]=@${file};type=application/pdf"`),
      ].join('\n'),
    );

    global.gc?.();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    const started = performance.now();
    const { stdout } = await promisify(execFile)('curl', ['-s', '-K', config, '-w', '%{http_code} %{size_upload} %{time_total}']);
    const wallSeconds = (performance.now() - started) / 1000;
    clearInterval(sampler);

    const [status = '', uploaded = '0'] = stdout.trim().split(' ');
    const body = readFileSync(answer, 'utf8');
    if (status !== '200') throw new Error(`the batch was refused (${status}): ${body}`);
    const result = bulkUploadPersonalDocumentsAnswer.parse(JSON.parse(body));
    if (result.successful.length !== investors) throw new Error(`published ${result.successful.length} of ${investors}: ${JSON.stringify(result.failed.slice(0, 3))}`);

    const mb = (bytes: number) => bytes / 1024 / 1024;
    const rssGrowth = mb(peakRss - baseline.rss);
    const heapGrowth = mb(peakHeap - baseline.heapUsed);
    console.log(`Bulk publish: ${investors} files of 1 MB for ${investors} investors, one request (${mb(Number(uploaded)).toFixed(0)} MB), e-mail on`);
    console.log(`  wall time ${wallSeconds.toFixed(2)} s (${(mb(Number(uploaded)) / wallSeconds).toFixed(1)} MB/s), ${result.successful.length} published`);
    console.log(`  server memory growth: RSS ${rssGrowth.toFixed(1)} MB (peak ${mb(peakRss).toFixed(0)} MB), heap ${heapGrowth.toFixed(1)} MB`);
    console.log(`  goal < ${goalMb} MB: ${rssGrowth < goalMb ? 'met' : 'NOT met'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
