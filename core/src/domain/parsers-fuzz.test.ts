import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulkImportCsvRow } from '../contract/schemas/bulk-import';
import { parseBulkImportCsv } from './bulk-import-csv';
import { manifestEmails, planBulkManifest, type ManifestFile } from './bulk-manifest';
import { planFolder, type FolderEntry } from './folder-plan';
import { importColumns, maxImportCsvBytes } from './csv-columns';

// Property-based tests of the pure parsers that read what people hand over: CSV files from
// spreadsheets and folder trees from file systems. Whatever the input, they answer (never throw)
// and their answer is well-formed. Seeded so that a failure replays; FUZZ_SEED tries another,
// FUZZ_RUNS runs more.
const seed = Number(process.env.FUZZ_SEED ?? 22);
const numRuns = Number(process.env.FUZZ_RUNS ?? 200);
const options = { seed, numRuns };

/** Text a spreadsheet, an editor or an intruder may produce: delimiters, quotes, line ends, BOMs, odd Unicode. */
const cellText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '"', '""', ',', ';', '\r\n', '\n', '\r', '\uFEFF', '=SUM(A1)', '\u0000', '\u202E', 'e\u0301', 'investor@example.com', 'tax', '2025-02-30', 'user'),
);
const csvLine = fc.array(cellText, { maxLength: 8 }).chain((cells) => fc.constantFrom(',', ';', '\t').map((d) => cells.join(d)));
const csvText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.array(csvLine, { maxLength: 12 }).chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((end) => lines.join(end))),
  // A real header line first, so the rows get past "no email column" into the row rules.
  fc
    .tuple(fc.shuffledSubarray([...importColumns], { minLength: 1 }), fc.array(csvLine, { maxLength: 12 }))
    .map(([columns, lines]) => [columns.join(','), ...lines].join('\n')),
);

describe('parseBulkImportCsv under any text or bytes', () => {
  it('answers a parse (never throws): rows numbered from 2, errors pointing at real rows, csvData only of valid rows and of the contract shape', () => {
    fc.assert(
      fc.property(fc.oneof(csvText, fc.uint8Array({ maxLength: 600 })), (input) => {
        const result = parseBulkImportCsv(input);
        if (result.error !== null) {
          expect(result.error).toMatch(/\S/);
          expect(result.csvData).toEqual([]);
          return;
        }
        const lines = new Set(result.rows.map((row) => row.line));
        for (const row of result.rows) expect(row.line).toBeGreaterThanOrEqual(2);
        for (const error of result.errors) {
          expect(lines.has(error.row)).toBe(true);
          expect(error.error).toMatch(/\S/);
        }
        for (const row of result.csvData) expect(bulkImportCsvRow.safeParse(row).success).toBe(true);
        expect(result.valid.length).toBe(result.csvData.length);
        expect(result.valid.length + result.errors.length).toBe(result.rows.length);
      }),
      options,
    );
  });

  it('refuses a file over the size limit with a sentence rather than reading it', () => {
    const result = parseBulkImportCsv(new Uint8Array(maxImportCsvBytes + 1).fill(0x61));
    expect(result.error).toMatch(/\S/);
  });
});

const fileName = fc.oneof(
  fc.constantFrom('k1.pdf', 'Relevé été.pdf', 'Relevé été.pdf'.normalize('NFD'), 'K1.PDF', '../k1.pdf', 'C:\\x\\k1.pdf', '', '.pdf', '\u202Efdp.pdf'),
  fc.string({ unit: 'grapheme', maxLength: 15 }).map((s) => `${s}.pdf`),
);
const manifestFiles = fc.uniqueArray(
  fc.record({ name: fileName, size: fc.nat(20_000_000), sha256: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: undefined }) }),
  { selector: (f) => f.name, maxLength: 6 },
);

describe('planBulkManifest under any manifest and selection', () => {
  it('plans every data row once (never throws): rows from 2, each selected file either named by a row or unprocessed', () => {
    fc.assert(
      fc.property(csvText, manifestFiles, (text, files: ManifestFile[]) => {
        const users = new Map(manifestEmails(text).map((email, i) => [email, i + 1]));
        const plan = planBulkManifest({ csvText: text, files, usersByEmail: users });
        const counted = Object.values(plan.counts).reduce((a, b) => a + b, 0);
        expect(counted).toBe(plan.rows.length);
        plan.rows.forEach((row, i) => {
          expect(row.row).toBeGreaterThanOrEqual(2);
          if (i > 0) expect(row.row).toBeGreaterThan(plan.rows[i - 1]!.row);
          if (row.outcome === 'publish') expect(files).toContain(row.file);
          else if (row.outcome !== 'already-published') expect(row.error).toMatch(/\S/);
        });
        for (const name of plan.unprocessed) expect(files.map((f) => f.name)).toContain(name);
        if (plan.error) expect(plan.rows).toEqual([]);
      }),
      options,
    );
  });

  const plainLetter = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
  it('matches a row to its file whichever Unicode form either is written in (NFC on Windows, NFD from a Mac)', () => {
    const accented = fc.constantFrom('é', 'ü', 'ñ', 'Å', 'ç', 'ô', 'ē').chain((letter) =>
      fc.tuple(fc.string({ unit: plainLetter, minLength: 1, maxLength: 6 }), fc.constant(letter), fc.string({ unit: plainLetter, maxLength: 6 })).map((parts) => `${parts.join('')}.pdf`),
    );
    fc.assert(
      fc.property(accented, fc.constantFrom('NFC', 'NFD'), fc.constantFrom('NFC', 'NFD'), (name, rowForm, fileForm) => {
        const csvText = `email,filename,document_category,title\nann@example.com,${name.normalize(rowForm)},tax,K-1\n`;
        const file = { name: name.normalize(fileForm), size: 10 };
        const plan = planBulkManifest({ csvText, files: [file], usersByEmail: new Map([['ann@example.com', 1]]) });
        expect(plan.rows.map((row) => row.outcome)).toEqual(['publish']);
        expect(plan.unprocessed).toEqual([]);
      }),
      options,
    );
  });
});

const pathPart = fc.oneof(
  fc.constantFrom('2025-Q1', '2025-q3', '2013-Q1', '2099-Q2', '2025-Q5', 'properties', 'investors', 'General', 'Aspen Ridge', 'aspen ridge ', 'manifest.csv', '.DS_Store', '~$lock.docx', '..', '.', '', 'k1.pdf', 'Relevé.pdf'.normalize('NFD'), 'x.exe'),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const entry: fc.Arbitrary<FolderEntry> = fc.record({
  path: fc.array(pathPart, { minLength: 1, maxLength: 6 }).chain((parts) => fc.constantFrom('/', '\\', '//').map((sep) => parts.join(sep))),
  size: fc.oneof(fc.constant(0), fc.nat(20_000_000), fc.constant(Number.MAX_SAFE_INTEGER)),
});

describe('planFolder under any folder tree', () => {
  it('puts every entry with a path in exactly one list (never throws), with NFC names and quarters Q1 to Q4', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 25 }),
        fc.option(pathPart, { nil: undefined }),
        fc.array(fc.oneof(fc.constantFrom('Aspen Ridge', 'Broadway Station Lofts'), fc.string({ maxLength: 10 })), { maxLength: 4 }),
        (entries, rootName, propertyNames) => {
          const plan = planFolder({ entries, rootName, propertyNames, now: new Date('2026-11-26T12:00:00Z') });
          const placed = [
            ...plan.propertyDocuments.map((d) => d.entry),
            ...plan.duplicates.map((d) => d.entry),
            ...plan.manifests.flatMap((m) => [m.entry, ...m.files.map((f) => f.entry)]),
            ...plan.unmatched.map((u) => u.entry),
          ];
          const withPath = entries.filter((e) => e.path.split(/[\\/]+/).some((part) => part !== '' && part !== '.'));
          expect(placed.length + plan.ignored.length).toBe(withPath.length);
          for (const document of plan.propertyDocuments) {
            expect(document.filename).toBe(document.filename.normalize('NFC'));
            expect(document.filename).not.toMatch(/[\\/]/);
            expect(['Q1', 'Q2', 'Q3', 'Q4']).toContain(document.quarter);
            expect(document.year).toBeLessThanOrEqual(2026);
            expect(['General', ...propertyNames.map((n) => n.normalize('NFC').trim())]).toContain(document.property);
          }
          for (const manifest of plan.manifests) for (const file of manifest.files) expect(file.name).toBe(file.name.normalize('NFC'));
          for (const u of plan.unmatched) expect(u.reason).toMatch(/\S/);
        },
      ),
      options,
    );
  });
});
