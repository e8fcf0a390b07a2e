import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Watched folders and their files for the sync's tests, against the real server.

const made: string[] = [];

/** A watched folder and, beside it, the ledger's place; removed by `removeWorkspaces`. */
export function workspace(name = 'watched'): { folder: string; ledgerFile: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'everest-sync-test-'));
  made.push(base);
  const folder = path.join(base, name);
  mkdirSync(folder);
  return { folder, ledgerFile: path.join(base, 'ledger', 'sync.json') };
}

/** Every workspace this test file made (its afterAll). */
export function removeWorkspaces(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A small real PDF, unique, whole (the server checks its first bytes, the sync its trailer). */
export function pdf(label: string): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${label} ${randomBytes(8).toString('hex')}\n${'x'.repeat(200)}\n%%EOF\n`);
}

export function write(folder: string, relative: string, content: Buffer): void {
  const file = path.join(folder, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

export const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
