/**
 * `pnpm --filter @everest/web bench` (or `bench:dry-run` alone): the bulk upload's dry run of a
 * 2,000-row manifest, as the browser runs it before anything is sent (goal < 200 ms).
 * Two figures: core's planBulkManifest alone, and the whole preview computation of the User
 * Documents tab (the manifest's e-mails, the plan fed with the server's answer, and the cells the
 * preview table shows). Median and p95 over BULK_DRY_RUNS runs (default 20) after warm-up runs.
 * Nothing here is a test: a missed goal is printed, not failed.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { BulkUploadPreviewAnswer } from '@everest/core/contract';
import { manifestEmails, planBulkManifest, toCsv, type ManifestFile } from '@everest/core/domain';
import { manifestCells, planBatch } from '../src/features/bulk-upload/lib/bulk-plan';

const rows = 2000;
const investors = 500;
const goalMs = 200;
const runs = z.coerce.number().int().min(5).max(500).parse(process.env.BULK_DRY_RUNS ?? 20);
const warmUps = 3;

const hashOf = (n: number) => n.toString(16).padStart(64, '0');
const emailOf = (n: number) => `investor.${n}@example.com`;
const categories = ['tax', 'personal', 'legal', 'financial', 'other'] as const;

// A quarter's batch: 2,000 documents for 500 investors, a few of them already published or
// refused, so that every branch of the plan is taken, and a few stray files.
const manifestRows = Array.from({ length: rows }, (_, i) => [
  i % 97 === 0 ? `unknown.${i}@example.com` : emailOf(i % investors),
  `document-${i}.pdf`,
  categories[i % categories.length] ?? 'tax',
  `2025 Document ${i}`,
  i % 3 === 0 ? `Description of document ${i}, with a comma` : '',
  i % 5 === 0 ? '2026-03-15' : '',
  i % 4 === 0 ? 'k1, 2025' : '',
]);
const csvText = toCsv([['email', 'filename', 'document_category', 'title', 'description', 'document_date', 'tags'], ...manifestRows]);
const files: ManifestFile[] = [
  ...Array.from({ length: rows }, (_, i) => ({ name: `document-${i}.pdf`, size: 250_000, sha256: hashOf(i) })).filter((_, i) => i % 211 !== 0),
  ...Array.from({ length: 20 }, (_, i) => ({ name: `stray-${i}.pdf`, size: 1000, sha256: hashOf(rows + i) })),
];
const known: BulkUploadPreviewAnswer = {
  users: Array.from({ length: investors }, (_, n) => ({
    email: emailOf(n),
    userId: n + 1,
    publishedSha256: n % 50 === 0 ? [hashOf(n)] : [],
    documents: [
      { documentId: 2 * n + 1, title: '2024 Schedule K-1', category: 'tax' as const, year: 2025, quarter: 'Q1' as const, firstPublishedAt: '2025-03-01T17:00:00.000Z' },
      { documentId: 2 * n + 2, title: `2025 document ${n + investors}`, category: 'tax' as const, year: 2025, quarter: 'Q3' as const, firstPublishedAt: '2025-08-01T17:00:00.000Z' },
    ],
    active: true,
  })),
};

function time(run: () => unknown): number[] {
  for (let i = 0; i < warmUps; i += 1) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

function quantile(sorted: readonly number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function report(label: string, sorted: readonly number[]): void {
  const median = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  const met = p95 < goalMs ? 'met' : 'MISSED';
  console.log(`${label.padEnd(44)} median ${median.toFixed(1).padStart(7)} ms   p95 ${p95.toFixed(1).padStart(7)} ms   goal < ${goalMs} ms: ${met}`);
}

const usersByEmail = new Map(known.users.map((u) => [u.email, u.userId]));
const publishedHashes = new Map(known.users.map((u) => [u.userId, new Set(u.publishedSha256)]));
const publishedDocuments = new Map(known.users.map((u) => [u.userId, u.documents]));
const sample = planBulkManifest({ csvText, files, usersByEmail, publishedHashes, publishedDocuments });
const outcomes = Object.entries(sample.counts)
  .filter(([, count]) => count > 0)
  .map(([outcome, count]) => `${outcome} ${count}`)
  .join(', ');

console.log(`Bulk upload dry run: ${rows} manifest rows, ${files.length} files, ${investors} investors; ${runs} runs after ${warmUps} warm-ups`);
console.log(`  outcomes: ${outcomes}; unprocessed ${sample.unprocessed.length}`);
report('planBulkManifest', time(() => planBulkManifest({ csvText, files, usersByEmail, publishedHashes, publishedDocuments })));
report('preview (e-mails + plan + table cells)', time(() => [manifestEmails(csvText), planBatch(csvText, files, known), manifestCells(csvText)]));
