import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff';
import { publicationKey } from '@everest/core/domain';
import { Ledger, type LedgerEntry } from './ledger';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function ledgerPath(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-ledger-test-'));
  dirs.push(dir);
  return path.join(dir, 'nested', 'sync.json');
}

const entry = (relative: string): Omit<LedgerEntry, 'updatedAt'> => ({
  path: relative,
  size: 10,
  mtimeMs: 1,
  sha256: 'a'.repeat(64),
  kind: 'property',
  state: 'published',
  documentId: 7,
  publishedSha256: 'a'.repeat(64),
  attempts: 0,
  nextRetryAt: null,
  lastError: null,
  missing: false,
});

describe('Ledger', () => {
  it('starts empty without a file, and reads back what it wrote', async () => {
    const file = ledgerPath();
    const ledger = await Ledger.open(file);
    expect(ledger.all()).toEqual([]);
    ledger.put(entry('2025-Q1/properties/General/a.pdf'));
    await ledger.save();
    const again = await Ledger.open(file);
    expect(again.get('2025-Q1/properties/General/a.pdf')).toMatchObject({ documentId: 7, state: 'published' });
  });

  it('writes through a temp file renamed over the ledger, leaving no temp file behind', async () => {
    const file = ledgerPath();
    const ledger = await Ledger.open(file);
    ledger.put(entry('a.pdf'));
    await ledger.save();
    ledger.update('a.pdf', { state: 'failed', lastError: 'down' });
    await Promise.all([ledger.save(), ledger.save()]);
    expect(readdirSync(path.dirname(file))).toEqual(['sync.json']);
    expect(JSON.parse(readFileSync(file, 'utf8')).entries[0]).toMatchObject({ state: 'failed', lastError: 'down' });
  });

  it('is not disturbed by a temp file a crash left beside it', async () => {
    const file = ledgerPath();
    const ledger = await Ledger.open(file);
    ledger.put(entry('a.pdf'));
    await ledger.save();
    writeFileSync(`${file}.dead.tmp`, '{"version":1,"entr');
    expect((await Ledger.open(file)).all()).toHaveLength(1);
  });

  it('refuses a file that is not a ledger of this version', async () => {
    const file = ledgerPath();
    const ledger = await Ledger.open(file);
    ledger.put(entry('a.pdf'));
    await ledger.save();
    writeFileSync(file, JSON.stringify({ version: 2, entries: [] }));
    await expect(Ledger.open(file)).rejects.toThrow('is not a sync ledger this version can read');
  });

  it('finds a publication (content and destination) from any path, for a renamed file, and never another destination\'s', async () => {
    const ledger = await Ledger.open(ledgerPath());
    const heartland = { kind: 'property', property: 'Heartland Plaza' } as const;
    ledger.put({ ...entry('old name.pdf'), missing: true, destination: heartland });
    expect(ledger.publishedAs(publicationKey({ kind: 'property', property: 'heartland plaza' }, 'a'.repeat(64)))?.path).toBe('old name.pdf');
    expect(ledger.publishedAs(publicationKey(heartland, 'b'.repeat(64)))).toBeUndefined();
    // The same content for another property is another publication (issue 32).
    expect(ledger.publishedAs(publicationKey({ kind: 'property', property: 'Sunset Terrace Apartments' }, 'a'.repeat(64)))).toBeUndefined();
    // An entry from before destinations were recorded is nobody's twin.
    ledger.put({ ...entry('older.pdf'), sha256: 'c'.repeat(64), publishedSha256: 'c'.repeat(64) });
    expect(ledger.publishedAs(publicationKey(heartland, 'c'.repeat(64)))).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  const options = { baseMs: 1000, maxMs: 8000 };

  it('doubles from the base up to the ceiling', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelayMs(n, options, () => 1))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('takes a random part of up to half off, so that failures spread out', () => {
    expect(retryDelayMs(3, options, () => 0)).toBe(2000);
    expect(retryDelayMs(3, options, () => 0.5)).toBe(3000);
  });
});
