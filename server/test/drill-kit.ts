import { chmodSync, mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { demoPassword } from '@everest/fixtures';
import { openOrm } from '../src/db/orm';
import { seedDemoData } from '../src/db/seed';
import { LocalFileStore } from '../src/features/files/local-file-store';
import { samplePdf } from './sample-documents';
import { createTestDatabase, type TestDatabase } from './harness';

/**
 * Prints a drill's figures as one table under its title, the same shape for every drill (a
 * Markdown table, pasted as is into the README's Reliability section).
 */
export function printFigures(title: string, figures: Record<string, string | number | boolean>): void {
  const rows = Object.entries(figures).map(([figure, value]) => [figure, String(value)] as const);
  const width = Math.max('figure'.length, ...rows.map(([figure]) => figure.length));
  const line = (figure: string, value: string) => `| ${figure.padEnd(width)} | ${value} |`;
  console.log([`\n${title}`, line('figure', 'value'), `|${'-'.repeat(width + 2)}|-------|`, ...rows.map(([f, v]) => line(f, v))].join('\n'));
}

/** Seconds with one decimal, for the tables. */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The machine's load when a figure was taken: figures mean little without it. */
export const loadAverage = (): string => os.loadavg().map((n) => n.toFixed(1)).join(' / ');

/** A database of its own with the demo data, and a data folder whose `files` is the file store. */
export async function seededDrillData(prefix: string, prepareFiles?: (filesDir: string) => void): Promise<{ database: TestDatabase; dataDir: string; filesDir: string }> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `everest-${prefix}-`));
  chmodSync(dataDir, 0o755);
  const filesDir = path.join(dataDir, 'files');
  prepareFiles?.(filesDir);
  const orm = await openOrm(database.url);
  try {
    await seedDemoData(orm.em.fork(), new LocalFileStore(filesDir));
  } finally {
    await orm.close(true);
  }
  return { database, dataDir, filesDir };
}

/** The demo administrator's session token (the drills' servers run with REQUIRE_SECOND_STEP=none). */
export async function adminToken(url: string): Promise<string> {
  const res = await fetch(`${url}/api/investor/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
  });
  if (res.status !== 200) throw new Error(`the demo administrator could not sign in: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A valid PDF of about `bytes` bytes, its own content (so its own hash) by `marker`. */
export function pdfOfSize(marker: string, bytes: number): Buffer {
  const base = samplePdf(marker);
  return samplePdf(`${marker} ${'x'.repeat(Math.max(0, bytes - base.length - 1))}`);
}

/** Uploads a property document as the admin panel's form does; answers the status and body. */
export async function uploadPropertyDocument(url: string, token: string, title: string, bytes: Buffer): Promise<{ status: number; body: { error?: string; document?: { id: number } } }> {
  const form = new FormData();
  form.set('title', title);
  form.set('property', 'General');
  form.set('year', '2025');
  form.set('quarter', 'Q1');
  form.set('document', new Blob([new Uint8Array(bytes)]), `${title.replace(/\W+/g, '-')}.pdf`);
  const res = await fetch(`${url}/api/admin/upload-document`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as { error?: string; document?: { id: number } } };
}

export interface StoreIntegrity {
  /** Documents (and photos) whose stored file is not in the store. */
  rowsWithoutFile: number;
  /** Files in the store that no document or photo names. */
  filesWithoutRow: number;
  /** Files left in the store's temp folder. */
  tempFiles: number;
}

/** The three figures a crash or a full disk must leave at 0, read from the database and the folder. */
export async function storeIntegrity(databaseUrl: string, filesDir: string): Promise<StoreIntegrity> {
  const store = new LocalFileStore(filesDir);
  const orm = await openOrm(databaseUrl);
  try {
    const named = await orm.em.fork().execute<{ sha256: string }[]>(
      `select f.sha256 from stored_files f
        where exists (select 1 from property_documents d where d.file_id = f.id)
           or exists (select 1 from user_documents d where d.file_id = f.id)
           or exists (select 1 from properties p where p.image like '%' || f.sha256 || '%' or p.image_variants::text like '%' || f.sha256 || '%')`,
    );
    const namedHashes = new Set(named.map((row) => row.sha256));
    const inStore = new Set((await store.list()).map((file) => file.sha256));
    return {
      rowsWithoutFile: [...namedHashes].filter((sha256) => !inStore.has(sha256)).length,
      filesWithoutRow: [...inStore].filter((sha256) => !namedHashes.has(sha256)).length,
      tempFiles: (await readdir(store.tempDir).catch(() => [] as string[])).length,
    };
  } finally {
    await orm.close(true);
  }
}
