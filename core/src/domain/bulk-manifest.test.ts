import { describe, expect, it } from 'vitest';
import { bulkManifestMessages, manifestEmails, planBulkManifest, type ManifestFile } from './bulk-manifest';
import { portalMessages } from './messages';
import { decodeCsvBytes, publishingMessages } from './publishing';

const header = 'email,filename,document_category,title,description,document_date,tags';
/** The required columns alone, for rows that need no optional cell. */
const required = 'email,filename,document_category,title';
const users = new Map([
  ['ann@example.com', 1],
  ['bob@example.com', 2],
]);
const file = (name: string, size = 100, sha256?: string): ManifestFile => ({ name, size, sha256 });

function plan(csvText: string, files: ManifestFile[], publishedHashes?: Map<number, Set<string>>) {
  return planBulkManifest({ csvText, files, usersByEmail: users, publishedHashes });
}

describe('planBulkManifest', () => {
  it('plans a publish per valid row with its cleaned fields, row numbers from 2', () => {
    const result = plan(
      [
        header,
        'Ann@Example.com , k1-ann.pdf, TAX ,2025 K-1,Schedule K-1,2026-03-15,"k1, 2025"',
        'bob@example.com,k1-bob.pdf,tax,2025 K-1,,,',
      ].join('\n'),
      [file('k1-ann.pdf', 10), file('k1-bob.pdf', 20)],
    );
    expect(result.error).toBeNull();
    expect(result.unprocessed).toEqual([]);
    expect(result.rows).toEqual([
      {
        row: 2,
        filename: 'k1-ann.pdf',
        outcome: 'publish',
        userId: 1,
        email: 'ann@example.com',
        file: file('k1-ann.pdf', 10),
        documentCategory: 'tax',
        title: '2025 K-1',
        description: 'Schedule K-1',
        documentDate: '2026-03-15',
        tags: 'k1, 2025',
        correctionNote: '',
        year: 2026,
        quarter: 'Q1',
        corrects: null,
      },
      expect.objectContaining({ row: 3, outcome: 'publish', userId: 2, documentDate: null, description: '', tags: '' }),
    ]);
    expect(result.counts.publish).toBe(2);
  });

  it("answers 'No data found in CSV' for an empty file, a header alone, or blank lines", () => {
    for (const text of ['', header, `${header}\n`, `${header}\n\n,,,,,,\n  \n`, '\uFEFF']) {
      const result = plan(text, [file('a.pdf')]);
      expect(result.error).toBe(portalMessages.noDataInCsv);
      expect(result.error).toBe('No data found in CSV');
      expect(result.rows).toEqual([]);
      expect(result.unprocessed).toEqual(['a.pdf']);
    }
  });

  it('reports each missing required field with the spec sentence and the right row', () => {
    const result = plan(
      [
        required,
        ',a.pdf,tax,T',
        'ann@example.com,,tax,T',
        'ann@example.com,b.pdf,,T',
        'ann@example.com,c.pdf,tax,   ',
        'ann@example.com,d.pdf,tax,T',
      ].join('\n'),
      [file('a.pdf'), file('b.pdf'), file('c.pdf'), file('d.pdf')],
    );
    expect(result.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'missing-fields'],
      [3, 'missing-fields'],
      [4, 'missing-fields'],
      [5, 'missing-fields'],
      [6, 'publish'],
    ]);
    for (const r of result.rows.slice(0, 4)) {
      expect(r).toMatchObject({ error: 'Missing required fields (email, filename, document_category, title)' });
    }
    // The file a failed row names is reported with that row, not again as unprocessed.
    expect(result.unprocessed).toEqual([]);
    expect(result.counts['missing-fields']).toBe(4);
  });

  it('treats a manifest without a required column as rows missing fields', () => {
    const result = plan('email,filename,title\nann@example.com,a.pdf,T', [file('a.pdf')]);
    expect(result.rows).toEqual([
      { row: 2, filename: 'a.pdf', outcome: 'missing-fields', error: portalMessages.manifestMissingFields },
    ]);
  });

  it("answers 'User not found' for an unknown e-mail, whatever its letter case", () => {
    const result = plan(`${required}\nnobody@example.com,a.pdf,tax,T\nBOB@EXAMPLE.COM,b.pdf,tax,T`, [
      file('a.pdf'),
      file('b.pdf'),
    ]);
    expect(result.rows[0]).toEqual({ row: 2, filename: 'a.pdf', outcome: 'user-not-found', error: 'User not found' });
    expect(result.rows[1]).toMatchObject({ row: 3, outcome: 'publish', userId: 2 });
  });

  it('refuses a category outside tax, personal, legal, financial, other', () => {
    const result = plan(
      `${required}\nann@example.com,a.pdf,property,T1\nann@example.com,b.pdf,Legal,T2\nann@example.com,c.pdf,Other,T3`,
      [file('a.pdf'), file('b.pdf'), file('c.pdf')],
    );
    expect(result.rows[0]).toEqual({
      row: 2,
      filename: 'a.pdf',
      outcome: 'bad-category',
      error: 'Invalid document category (tax, personal, legal, financial, other)',
    });
    expect(result.rows[1]).toMatchObject({ outcome: 'publish', documentCategory: 'legal' });
    expect(result.rows[2]).toMatchObject({ outcome: 'publish', documentCategory: 'other' });
  });

  it('refuses a malformed document date and over-long fields', () => {
    const long = 'x'.repeat(201);
    const result = plan(
      [
        header,
        'ann@example.com,a.pdf,tax,T,,2026-02-30,',
        'ann@example.com,b.pdf,tax,T,,03/15/2026,',
        `ann@example.com,c.pdf,tax,${long},,,`,
        `ann@example.com,d.pdf,tax,T,${'d'.repeat(2001)},,`,
        `ann@example.com,e.pdf,tax,T,,,${'t'.repeat(501)}`,
      ].join('\n'),
      ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf', 'e.pdf'].map((n) => file(n)),
    );
    expect(result.rows.map((r) => (r.outcome === 'publish' ? r.outcome : r.error))).toEqual([
      bulkManifestMessages.badDocumentDate,
      bulkManifestMessages.badDocumentDate,
      bulkManifestMessages.titleTooLong,
      bulkManifestMessages.descriptionTooLong,
      bulkManifestMessages.tagsTooLong,
    ]);
    expect(result.counts['bad-field']).toBe(5);
  });

  it('reports a file named in the CSV but not selected as missing', () => {
    const result = plan(`${required}\nann@example.com,gone.pdf,tax,T`, [file('a.pdf')]);
    expect(result.rows).toEqual([
      { row: 2, filename: 'gone.pdf', outcome: 'file-missing', error: 'File not found among the selected files' },
    ]);
    expect(result.unprocessed).toEqual(['a.pdf']);
  });

  it('lists selected files no row names as unprocessed, in selection order', () => {
    const result = plan(`${required}\nann@example.com,b.pdf,tax,T`, [file('c.pdf'), file('b.pdf'), file('a.pdf')]);
    expect(result.unprocessed).toEqual(['c.pdf', 'a.pdf']);
  });

  it('matches a name in another letter case or behind a folder path, exact names first', () => {
    const result = plan(
      `${required}\nann@example.com,K1-ANN.PDF,tax,T\nbob@example.com,2025-Q1/investors/k1-bob.pdf,tax,T1\nbob@example.com,Same.pdf,tax,T2`,
      [file('k1-ann.pdf'), file('k1-bob.pdf'), file('same.pdf', 1), file('Same.pdf', 2)],
    );
    expect(result.rows.map((r) => r.filename)).toEqual(['k1-ann.pdf', 'k1-bob.pdf', 'Same.pdf']);
    expect(result.rows[2]).toMatchObject({ file: { size: 2 } });
    expect(result.unprocessed).toEqual(['same.pdf']);
  });

  it('strips a BOM and trims and lower-cases header names', () => {
    const text = '\uFEFF Email ,FileName, Document_Category ,TITLE\r\nann@example.com,a.pdf,tax,T\r\n';
    const result = plan(text, [file('a.pdf')]);
    expect(result.rows).toEqual([expect.objectContaining({ row: 2, outcome: 'publish', title: 'T' })]);
  });

  it('keeps quoted commas and quotes inside cells', () => {
    const result = plan(`${header}\nann@example.com,a.pdf,tax,"Smith, Jones ""LLC"" K-1","line 1; line 2",,"a, b"`, [
      file('a.pdf'),
    ]);
    expect(result.rows[0]).toMatchObject({
      outcome: 'publish',
      title: 'Smith, Jones "LLC" K-1',
      description: 'line 1; line 2',
      tags: 'a, b',
    });
  });

  it("does not mistake ';' inside cells for the delimiter of a comma file", () => {
    const result = plan(
      `email,filename,document_category,title\nann@example.com,a.pdf,tax,K-1; final\nbob@example.com,b.pdf,tax,a;b;c;d;e\n`,
      [file('a.pdf'), file('b.pdf')],
    );
    expect(result.rows.map((r) => r.outcome === 'publish' && r.title)).toEqual(['K-1; final', 'a;b;c;d;e']);
  });

  it("reads a ';' file as European spreadsheets save it", () => {
    const result = plan('email;filename;document_category;title\nann@example.com;a.pdf;tax;K-1, 2025\n', [
      file('a.pdf'),
    ]);
    expect(result.rows[0]).toMatchObject({ outcome: 'publish', title: 'K-1, 2025' });
  });

  it('publishes the same file once per investor; a second row for it is a duplicate', () => {
    const result = plan(
      [
        required,
        'ann@example.com,a.pdf,tax,First',
        'ANN@example.com,a.pdf,legal,Second',
        'bob@example.com,a.pdf,tax,Shared',
      ].join('\n'),
      [file('a.pdf')],
    );
    expect(result.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'publish'],
      [3, 'duplicate-row'],
      [4, 'publish'],
    ]);
    expect(result.rows[1]).toMatchObject({ error: 'Listed more than once for this investor' });
  });

  it('with hashes known, the same content under two names publishes once per investor', () => {
    const result = plan(`${required}\nann@example.com,a.pdf,tax,A\nann@example.com,copy.pdf,tax,B`, [
      file('a.pdf', 5, 'h1'),
      file('copy.pdf', 5, 'h1'),
    ]);
    expect(result.rows.map((r) => r.outcome)).toEqual(['publish', 'duplicate-row']);
  });

  it('says already published when the investor has that content, only for that investor', () => {
    const published = new Map([[1, new Set(['h1'])]]);
    const result = plan(
      `${required}\nann@example.com,a.pdf,tax,A\nbob@example.com,a.pdf,tax,A\nann@example.com,b.pdf,tax,B`,
      [file('a.pdf', 5, 'h1'), file('b.pdf', 5, 'h2')],
      published,
    );
    expect(result.rows.map((r) => r.outcome)).toEqual(['already-published', 'publish', 'publish']);
    expect(result.rows[0]).toMatchObject({
      userId: 1,
      error: 'Already published for this investor with the same content',
    });
    expect(result.counts).toMatchObject({ publish: 2, 'already-published': 1 });
  });

  it('plans a document the investor already has (same title, category and period), for another file, as its correction; twice in the batch is refused', () => {
    const k1 = { documentId: 40, title: '2025 K-1', category: 'tax' as const, year: 2026, quarter: 'Q1' as const, firstPublishedAt: '2026-03-02T18:00:00.000Z' };
    const result = planBulkManifest({
      csvText: [
        `${header},correction_note`,
        'ann@example.com,a.pdf,tax,2025 K-1,,,,Box 5 was wrong',
        'bob@example.com,b.pdf,tax,2025 K-1,,,,',
        'bob@example.com,c.pdf,tax,2025 k-1 ,,,,',
        'ann@example.com,d.pdf,tax,Other,,,,',
        'ann@example.com,e.pdf,tax,2025 k-1,,,,',
      ].join('\n'),
      files: [file('a.pdf'), file('b.pdf'), file('c.pdf'), file('d.pdf'), file('e.pdf')],
      usersByEmail: users,
      publishedDocuments: new Map([[1, [k1]]]),
      period: { year: 2026, quarter: 'Q1' },
    });
    expect(result.rows.map((r) => [r.row, r.outcome, r.outcome === 'publish' ? r.corrects : null])).toEqual([
      [2, 'publish', k1],
      [3, 'publish', null],
      [4, 'title-used', null],
      [5, 'publish', null],
      [6, 'title-used', null],
    ]);
    expect(result.rows[0]).toMatchObject({ correctionNote: 'Box 5 was wrong' });
    expect(result.corrections).toBe(1);
    expect(result.rows[2]).toMatchObject({ error: 'Title already used by another document for this investor in this period' });
  });

  it('never corrects a document of another quarter: a title reused every quarter is a new document each time', () => {
    const statement = (quarter: 'Q1' | 'Q2', documentId: number) => ({
      documentId,
      title: 'Quarterly Distribution Statement',
      category: 'financial' as const,
      year: 2026,
      quarter,
      firstPublishedAt: quarter === 'Q1' ? '2026-04-10T16:00:00.000Z' : '2026-07-09T16:00:00.000Z',
    });
    const csvText = `${required}\nann@example.com,q.pdf,financial,Quarterly Distribution Statement`;
    const inQuarter = (quarter: 'Q1' | 'Q2' | 'Q3', documents: ReturnType<typeof statement>[]) =>
      planBulkManifest({ csvText, files: [file('q.pdf')], usersByEmail: users, publishedDocuments: new Map([[1, documents]]), period: { year: 2026, quarter } });

    // Q2's manifest, with only Q1's statement published: a new document, filed under Q2.
    const second = inQuarter('Q2', [statement('Q1', 1)]);
    expect(second.rows[0]).toMatchObject({ outcome: 'publish', corrects: null, year: 2026, quarter: 'Q2' });
    expect(second.corrections).toBe(0);
    // Q3's, with both: a new document again, filed under Q3.
    expect(inQuarter('Q3', [statement('Q1', 1), statement('Q2', 2)]).rows[0]).toMatchObject({ outcome: 'publish', corrects: null, quarter: 'Q3' });
    // Q2's again, with Q2's published: that one (and only that one) is corrected.
    const again = inQuarter('Q2', [statement('Q1', 1), statement('Q2', 2)]);
    expect(again.rows[0]).toMatchObject({ outcome: 'publish', corrects: { documentId: 2, quarter: 'Q2' }, quarter: 'Q2' });
  });

  it('a document of the same title and period but another category is another document', () => {
    const result = planBulkManifest({
      csvText: `${required}\nann@example.com,a.pdf,legal,2025 K-1`,
      files: [file('a.pdf')],
      usersByEmail: users,
      publishedDocuments: new Map([[1, [{ title: '2025 K-1', category: 'tax' as const, year: 2026, quarter: 'Q1' as const, firstPublishedAt: '2026-03-02T18:00:00.000Z' }]]]),
      period: { year: 2026, quarter: 'Q1' },
    });
    expect(result.rows[0]).toMatchObject({ outcome: 'publish', corrects: null });
  });

  it('names what a row corrects: its title, period and first publication date, in Pasadena', () => {
    const corrects = bulkManifestMessages.corrects({ title: '2025 K-1', category: 'tax', year: 2026, quarter: 'Q1', firstPublishedAt: '2026-03-03T03:00:00.000Z' });
    expect(corrects).toBe('corrects 2025 K-1 (Q1 2026, first published Mar 2, 2026)');
  });

  it('refuses a row for a deactivated account, naming it, as it refuses an unknown e-mail', () => {
    const result = planBulkManifest({
      csvText: `${required}\nBob@Example.com,b.pdf,tax,2025 K-1\nann@example.com,a.pdf,tax,2025 K-1`,
      files: [file('a.pdf'), file('b.pdf')],
      usersByEmail: users,
      deactivatedUsers: new Set([2]),
    });
    expect(result.rows.map((r) => r.outcome)).toEqual(['user-deactivated', 'publish']);
    expect(result.rows[0]).toMatchObject({
      filename: 'b.pdf',
      error: 'The account bob@example.com is deactivated: nobody could read this document. Reactivate it first, or remove the row.',
    });
    expect(result.counts['user-deactivated']).toBe(1);
    // Its file is claimed by its row, not listed again as unprocessed.
    expect(result.unprocessed).toEqual([]);
  });

  it('refuses a correction note over its length', () => {
    const long = 'n'.repeat(501);
    const result = planBulkManifest({
      csvText: `${header},correction_note\nann@example.com,a.pdf,tax,T,,,,${long}`,
      files: [file('a.pdf')],
      usersByEmail: users,
    });
    expect(result.rows[0]).toMatchObject({ outcome: 'bad-field', error: bulkManifestMessages.correctionNoteTooLong });
  });

  it('says already published, not title used, for the same content under its old title', () => {
    const result = planBulkManifest({
      csvText: `${required}\nann@example.com,a.pdf,tax,2025 K-1`,
      files: [file('a.pdf', 5, 'h1')],
      usersByEmail: users,
      publishedHashes: new Map([[1, new Set(['h1'])]]),
      publishedDocuments: new Map([[1, [{ title: '2025 K-1', category: 'tax' as const, year: 2026, quarter: 'Q1' as const, firstPublishedAt: '2026-03-02T18:00:00.000Z' }]]]),
      period: { year: 2026, quarter: 'Q1' },
    });
    expect(result.rows[0]?.outcome).toBe('already-published');
  });

  it('without a hash for the file, cannot know it was published and plans a publish', () => {
    const published = new Map([[1, new Set(['h1'])]]);
    const result = plan(`${required}\nann@example.com,a.pdf,tax,A`, [file('a.pdf', 5)], published);
    expect(result.rows[0]?.outcome).toBe('publish');
  });

  it('checks the first failing rule in the spec order: fields, user, category, file', () => {
    const result = plan(`${required}\nnobody@example.com,gone.pdf,nope,T\nann@example.com,gone.pdf,nope,T`, []);
    expect(result.rows.map((r) => r.outcome)).toEqual(['user-not-found', 'bad-category']);
  });

  it('plans a 2,000-row manifest row by row', () => {
    const manyUsers = new Map<string, number>();
    const files: ManifestFile[] = [];
    const lines = [header];
    for (let i = 0; i < 2000; i += 1) {
      manyUsers.set(`investor${i}@example.com`, i + 1);
      files.push(file(`doc-${i}.pdf`, 1000 + i, `hash-${i}`));
      // Every 100th row names an unknown investor; every 250th a file not selected.
      const email = i % 100 === 99 ? `ghost${i}@example.com` : `investor${i}@example.com`;
      const name = i % 250 === 0 ? `missing-${i}.pdf` : `doc-${i}.pdf`;
      lines.push(`${email},${name},tax,"K-1, ${i}",,2026-01-15,k1`);
    }
    const published = new Map([[2, new Set(['hash-1'])]]);
    const result = planBulkManifest({
      csvText: lines.join('\r\n'),
      files,
      usersByEmail: manyUsers,
      publishedHashes: published,
    });
    expect(result.rows).toHaveLength(2000);
    expect(result.rows[1999]?.row).toBe(2001);
    expect(result.counts).toMatchObject({
      'user-not-found': 20,
      'file-missing': 8,
      'already-published': 1,
      publish: 2000 - 20 - 8 - 1,
    });
    expect(result.unprocessed).toHaveLength(8);
    expect(result.unprocessed[0]).toBe('doc-0.pdf');
  });
});

describe('manifestEmails', () => {
  it('lists each e-mail once, lower-cased, skipping blanks', () => {
    expect(manifestEmails(`\uFEFF${required}\nAnn@Example.com,a.pdf,tax,A\n,b.pdf,tax,B\nann@example.com,c.pdf,tax,C\nbob@example.com,d,tax,D`)).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);
  });
});

/** windows-1252 bytes of a Latin-1 text (the two agree on the letters used here). */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => ch.charCodeAt(0)));
}

describe('planBulkManifest: a manifest that cannot be read safely publishes nothing (issue 32 case 1)', () => {
  const investor2 = new Map([
    ['investor2@example.com', 2],
    ['investor3@example.com', 3],
  ]);
  const files = [file('d.pdf'), file('e.pdf')];

  it("refuses an unclosed quote with its line, instead of publishing the next rows inside a title", () => {
    const csvText = [
      required,
      'investor2@example.com,d.pdf,tax,"2025 K-1 for the ""Trust',
      'investor3@example.com,e.pdf,tax,2025 K-1 for Investor Three',
    ].join('\n');
    const result = planBulkManifest({ csvText, files, usersByEmail: investor2 });
    expect(result.error).toBe('Line 2: a quoted field is not closed.');
    expect(result.rows).toEqual([]);
    expect(result.counts.publish).toBe(0);
    expect(result.unprocessed).toEqual(['d.pdf', 'e.pdf']);
    // Nothing of it is read: the e-mails are not even looked up.
    expect(manifestEmails(csvText)).toEqual([]);
  });

  it('refuses a quote closed on a later line, which papaparse takes without complaint', () => {
    const csvText = [
      required,
      'investor2@example.com,d.pdf,tax,"2025 K-1 for the ""Trust',
      'investor3@example.com,e.pdf,tax,Other"',
    ].join('\r\n');
    const result = planBulkManifest({ csvText, files, usersByEmail: investor2 });
    expect(result.error).toBe(`Line 2: ${publishingMessages.csv.lineBreakInField}`);
    expect(result.rows).toEqual([]);
  });

  it('refuses a row with too many or too few fields, counting blank lines and giving the file line', () => {
    const tooMany = planBulkManifest({
      csvText: `${required}\n\ninvestor2@example.com,d.pdf,tax,K-1\ninvestor3@example.com,e.pdf,tax,K-1, Trust\n`,
      files,
      usersByEmail: investor2,
    });
    expect(tooMany.error).toBe('Line 4: this row has 5 fields but the header has 4; a cell that holds "," must be in quotes.');
    expect(tooMany.rows).toEqual([]);
    const tooFew = planBulkManifest({ csvText: `${header}\ninvestor2@example.com,d.pdf,tax,K-1`, files, usersByEmail: investor2 });
    expect(tooFew.error).toBe('Line 2: this row has 4 fields but the header has 7.');
  });

  it('refuses text with bytes that were not text in its encoding, as a cp1252 file read as UTF-8 is', () => {
    const misread = new TextDecoder('utf-8').decode(cp1252(`${required}\ninvestor2@example.com,d.pdf,tax,Relevé de compte\n`));
    const result = planBulkManifest({ csvText: misread, files, usersByEmail: investor2 });
    expect(result.error).toBe(`Line 2: ${publishingMessages.csv.notText}`);
    expect(result.rows).toEqual([]);
  });

  it("reads a file mixing '\\r\\n' and '\\n' line by line", () => {
    const csvText = `${required}\r\ninvestor2@example.com,d.pdf,tax,A\ninvestor3@example.com,e.pdf,tax,B\r\n`;
    const result = planBulkManifest({ csvText, files, usersByEmail: investor2 });
    expect(result.rows.map((r) => [r.row, r.outcome])).toEqual([
      [2, 'publish'],
      [3, 'publish'],
    ]);
  });
});

describe('planBulkManifest: encodings (issue 32, manifest encodings)', () => {
  it('reads a Windows-1252 manifest decoded by decodeCsvBytes and reports the encoding', () => {
    const { text, encoding } = decodeCsvBytes(cp1252(`${required}\r\nann@example.com,releve.pdf,personal,Relevé de compte\r\n`));
    const result = planBulkManifest({ csvText: text, encoding, files: [file('releve.pdf')], usersByEmail: users });
    expect(result.encoding).toBe('windows-1252');
    expect(result.rows).toEqual([expect.objectContaining({ outcome: 'publish', title: 'Relevé de compte' })]);
  });

  it('reads a UTF-8 manifest with a BOM and semicolons', () => {
    const bytes = new TextEncoder().encode(`\uFEFFemail;filename;document_category;title\r\nann@example.com;releve.pdf;personal;Relevé, 2025\r\n`);
    const { text, encoding } = decodeCsvBytes(bytes);
    const result = planBulkManifest({ csvText: text, encoding, files: [file('releve.pdf')], usersByEmail: users });
    expect(result).toMatchObject({ error: null, encoding: 'utf-8', delimiter: ';' });
    expect(result.rows).toEqual([expect.objectContaining({ outcome: 'publish', title: 'Relevé, 2025' })]);
  });

  it("says 'utf-8' when the caller gives text without an encoding", () => {
    expect(plan(`${required}\nann@example.com,a.pdf,tax,T`, [file('a.pdf')]).encoding).toBe('utf-8');
  });
});

describe('planBulkManifest: the checks the server applies (issue 32 case 5)', () => {
  it("gives a refused file's row the reason, not 'file not found'", () => {
    const result = plan(`${required}\nann@example.com,fake.pdf,tax,A\nbob@example.com,big.pdf,tax,B\nann@example.com,notes.txt,tax,C`, [
      { name: 'fake.pdf', size: 40, refusal: publishingMessages.contentNotAsNamed('.pdf') },
      file('big.pdf', 11 * 1024 * 1024),
      file('notes.txt', 10),
    ]);
    expect(result.rows.map((r) => [r.outcome, 'error' in r ? r.error : null])).toEqual([
      ['file-refused', "The file's content is not a PDF document, though its name ends in .pdf."],
      ['file-refused', 'The file is larger than 10 MB, the most the portal accepts.'],
      ['file-refused', publishingMessages.wrongType],
    ]);
    expect(result.counts['file-refused']).toBe(3);
    expect(result.counts.publish).toBe(0);
    expect(result.unprocessed).toEqual([]);
  });

  it('refuses a 201-character title', () => {
    const result = plan(`${required}\nann@example.com,a.pdf,tax,${'t'.repeat(201)}`, [file('a.pdf')]);
    expect(result.rows).toEqual([{ row: 2, filename: 'a.pdf', outcome: 'bad-field', error: 'Title is too long (at most 200 characters)' }]);
  });
});

describe('planBulkManifest: twins (issue 32 case 5)', () => {
  const twins = [file('Report - Copy.pdf', 5, 'same'), file('Report.pdf', 5, 'same')];

  it.each([
    ['the copy first', ['Report - Copy.pdf', 'Report.pdf']],
    ['the original first', ['Report.pdf', 'Report - Copy.pdf']],
  ])("publishes 'Report.pdf' and lists the copy as a duplicate naming it, %s", (_order, names) => {
    const result = plan(`${required}\n${names.map((name, i) => `ann@example.com,${name},tax,Report ${i}`).join('\n')}`, twins);
    const byName = new Map(result.rows.map((r) => [r.filename, r]));
    expect(byName.get('Report.pdf')).toMatchObject({ outcome: 'publish' });
    expect(byName.get('Report - Copy.pdf')).toMatchObject({
      outcome: 'duplicate-row',
      error: 'Same content as Report.pdf for this investor (the copy is not published)',
    });
    expect(result.counts).toMatchObject({ publish: 1, 'duplicate-row': 1 });
  });

  it('publishes the same content to two investors, each once', () => {
    const result = plan(`${required}\nann@example.com,Report - Copy.pdf,tax,A\nbob@example.com,Report.pdf,tax,B`, twins);
    expect(result.rows.map((r) => r.outcome)).toEqual(['publish', 'publish']);
  });

  it("lets the copy publish when the original's row fails on its own", () => {
    const result = plan(`${required}\nann@example.com,Report.pdf,nope,A\nann@example.com,Report - Copy.pdf,tax,B`, twins);
    expect(result.rows.map((r) => r.outcome)).toEqual(['bad-category', 'publish']);
  });
});

describe('planBulkManifest: the period of each row (issue 32 case 4)', () => {
  const csvText = `${header}\nann@example.com,a.pdf,tax,No date,,,\nann@example.com,b.pdf,tax,Dated,,2025-05-02,`;
  const files = [file('a.pdf'), file('b.pdf')];
  const now = new Date('2026-11-02T18:00:00Z');

  it("files a row without document_date under the batch's quarter, a dated row under its date's", () => {
    const result = planBulkManifest({ csvText, files, usersByEmail: users, period: { year: 2026, quarter: 'Q3' }, now });
    expect(result.rows.map((r) => (r.outcome === 'publish' ? `${r.quarter} ${r.year}` : r.outcome))).toEqual(['Q3 2026', 'Q2 2025']);
  });

  it("without a batch period, files an undated row under the upload's quarter", () => {
    const result = planBulkManifest({ csvText, files, usersByEmail: users, now });
    expect(result.rows.map((r) => (r.outcome === 'publish' ? `${r.quarter} ${r.year}` : r.outcome))).toEqual(['Q4 2026', 'Q2 2025']);
  });
});

describe('planBulkManifest: the line of the first problem', () => {
  it('names the earliest faulty line when several are wrong', () => {
    const csvText = [required, 'ann@example.com,a.pdf,tax,A', 'ann@example.com,b.pdf,tax', 'ann@example.com,c.pdf,tax,"open'].join('\n');
    expect(plan(csvText, []).error).toBe('Line 3: this row has 3 fields but the header has 4.');
  });

  it('counts a quoted cell spanning lines in the header as line 1', () => {
    expect(plan(`"email\nx",filename,document_category,title\nann@example.com,a.pdf,tax,A`, []).error).toBe(
      `Line 1: ${publishingMessages.csv.lineBreakInField}`,
    );
  });
});

describe('manifests as Excel saves them', () => {
  const utf16le = (text: string) => new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(text, 'utf16le'))]);

  it("reads Excel's Unicode Text: tab-separated UTF-16LE behind its BOM", () => {
    const decoded = decodeCsvBytes(utf16le('email\tfilename\tdocument_category\ttitle\r\nann@example.com\tk1.pdf\ttax\tRelevé 2025\r\n'));
    expect(decoded.encoding).toBe('utf-16le');
    const result = planBulkManifest({ csvText: decoded.text, encoding: decoded.encoding, files: [file('k1.pdf')], usersByEmail: users });
    expect(result.error).toBeNull();
    expect(result.delimiter).toBe('\t');
    expect(result.rows).toEqual([expect.objectContaining({ outcome: 'publish', title: 'Relevé 2025', email: 'ann@example.com' })]);
  });

  it("honours a first line 'sep=;', as Excel does, and numbers the file's lines as they are", () => {
    const result = planBulkManifest({
      csvText: 'sep=;\r\nemail;filename;document_category;title\r\nann@example.com;k1.pdf;tax;K-1, 2025\r\n',
      files: [file('k1.pdf')],
      usersByEmail: users,
    });
    expect(result.error).toBeNull();
    expect(result.delimiter).toBe(';');
    // The first data row is row 2, as the spec numbers rows after the header.
    expect(result.rows).toEqual([expect.objectContaining({ row: 2, outcome: 'publish', title: 'K-1, 2025' })]);
    const ragged = planBulkManifest({ csvText: 'sep=,\nemail,filename,document_category,title\nann@example.com,k1.pdf,tax', files: [], usersByEmail: users });
    expect(ragged.error).toBe('Line 3: this row has 3 fields but the header has 4.');
  });
});
