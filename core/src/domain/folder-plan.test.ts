import { describe, expect, it } from 'vitest';
import { folderPlanMessages, isIgnoredName, isIgnoredPath, planFolder, type FolderEntry } from './folder-plan';
import { publishingMessages } from './publishing';

const now = new Date('2026-05-01T12:00:00Z');
const propertyNames = ['Sunset Terrace Apartments', 'Mesa Verde Villas', 'Café Élysée Lofts'];
const entry = (path: string, size = 100): FolderEntry => ({ path, size });

function plan(paths: (string | FolderEntry)[], rootName?: string) {
  return planFolder({
    rootName,
    entries: paths.map((p) => (typeof p === 'string' ? entry(p) : p)),
    propertyNames,
    now,
  });
}

function reasonOf(result: ReturnType<typeof plan>, path: string): string | undefined {
  return result.unmatched.find((u) => u.entry.path === path)?.reason;
}

describe('planFolder: property documents', () => {
  it('plans <year>-Q<n>/properties/<Property>/<file> as a property document titled by the file name', () => {
    const result = plan(['2025-Q3/properties/Sunset Terrace Apartments/Q3 Investor Report.pdf']);
    expect(result.unmatched).toEqual([]);
    expect(result.propertyDocuments).toEqual([
      {
        entry: entry('2025-Q3/properties/Sunset Terrace Apartments/Q3 Investor Report.pdf'),
        filename: 'Q3 Investor Report.pdf',
        title: 'Q3 Investor Report',
        property: 'Sunset Terrace Apartments',
        year: 2025,
        quarter: 'Q3',
      },
    ]);
  });

  it('matches the property in any letter case and answers the name as the server spells it', () => {
    const result = plan(['2025-q1/Properties/mesa VERDE villas/rent roll.xlsx']);
    expect(result.propertyDocuments).toMatchObject([{ property: 'Mesa Verde Villas', quarter: 'Q1', title: 'rent roll' }]);
  });

  it("files a document of the 'General' folder under General, in any case", () => {
    const result = plan(['2026-Q2/properties/general/Annual Letter.docx']);
    expect(result.propertyDocuments).toMatchObject([{ property: 'General', year: 2026, quarter: 'Q2', title: 'Annual Letter' }]);
  });

  it('matches accented property and file names spelled decomposed (NFD, as macOS gives them) and sends them composed', () => {
    const decomposed = '2025-Q4/properties/Café Élysée Lofts/Résumé trimestriel.pdf'.normalize('NFD');
    const result = plan([decomposed]);
    expect(result.unmatched).toEqual([]);
    expect(result.propertyDocuments).toHaveLength(1);
    const [document] = result.propertyDocuments;
    expect(document!.property).toBe('Café Élysée Lofts'.normalize('NFC'));
    expect(document!.title).toBe('Résumé trimestriel'.normalize('NFC'));
    expect(document!.filename).toBe('Résumé trimestriel.pdf'.normalize('NFC'));
    // The path stays as the file system spells it, so that the file can be opened.
    expect(document!.entry.path).toBe(decomposed);
  });

  it('keeps only the last extension out of the title', () => {
    const result = plan(['2025-Q1/properties/General/Budget v2.final.xls']);
    expect(result.propertyDocuments).toMatchObject([{ title: 'Budget v2.final' }]);
  });

  it('accepts every portal document type, in any case', () => {
    const names = ['a.pdf', 'b.DOC', 'c.docx', 'd.xls', 'e.XLSX'];
    const result = plan(names.map((n) => `2025-Q1/properties/General/${n}`));
    expect(result.propertyDocuments.map((d) => d.filename)).toEqual(names);
  });

  it('leaves other file types unmatched with the list of accepted ones', () => {
    const result = plan(['2025-Q1/properties/General/photo.jpg', '2025-Q1/properties/General/notes.txt', '2025-Q1/properties/General/README']);
    expect(result.propertyDocuments).toEqual([]);
    expect(result.unmatched.map((u) => u.reason)).toEqual([folderPlanMessages.wrongType, folderPlanMessages.wrongType, folderPlanMessages.wrongType]);
    expect(folderPlanMessages.wrongType).toContain('pdf, doc, docx, xls, xlsx');
  });

  it('leaves an unknown property unmatched, naming it', () => {
    const result = plan(['2025-Q1/properties/Sunset Terrace/report.pdf']);
    expect(reasonOf(result, '2025-Q1/properties/Sunset Terrace/report.pdf')).toBe(folderPlanMessages.unknownProperty('Sunset Terrace'));
  });

  it('leaves files directly in properties/ and files in folders below a property unmatched', () => {
    const result = plan(['2025-Q1/properties/report.pdf', '2025-Q1/properties/General/old/report.pdf']);
    expect(reasonOf(result, '2025-Q1/properties/report.pdf')).toBe(folderPlanMessages.fileInPropertiesFolder);
    expect(reasonOf(result, '2025-Q1/properties/General/old/report.pdf')).toBe(folderPlanMessages.tooDeep);
  });

  it('leaves empty files and files over 10 MB unmatched', () => {
    const result = plan([entry('2025-Q1/properties/General/empty.pdf', 0), entry('2025-Q1/properties/General/big.pdf', 10 * 1024 * 1024 + 1)]);
    expect(reasonOf(result, '2025-Q1/properties/General/empty.pdf')).toBe(folderPlanMessages.empty);
    expect(reasonOf(result, '2025-Q1/properties/General/big.pdf')).toBe(folderPlanMessages.tooLarge);
  });
});

describe('planFolder: quarter folders', () => {
  it('reads a root that holds several quarter folders', () => {
    const result = plan(['2025-Q4/properties/General/a.pdf', '2026-Q1/properties/General/b.pdf']);
    expect(result.propertyDocuments.map((d) => `${d.year} ${d.quarter}`)).toEqual(['2025 Q4', '2026 Q1']);
  });

  it('reads a root that is itself a quarter folder, from its name', () => {
    const result = plan(['properties/General/a.pdf', 'investors/manifest.csv', 'investors/k1.pdf'], '2025-Q2');
    expect(result.unmatched).toEqual([]);
    expect(result.propertyDocuments).toMatchObject([{ year: 2025, quarter: 'Q2', title: 'a' }]);
    expect(result.manifests).toMatchObject([{ folder: 'investors', year: 2025, quarter: 'Q2' }]);
  });

  it('leaves files outside any quarter folder unmatched', () => {
    const result = plan(['report.pdf', 'Q3 2025/properties/General/a.pdf', 'properties/General/a.pdf'], 'Shared Documents');
    expect(result.unmatched.map((u) => u.reason)).toEqual([
      folderPlanMessages.notInQuarter,
      folderPlanMessages.notInQuarter,
      folderPlanMessages.notInQuarter,
    ]);
  });

  it('refuses years before 2014 and after the current year, and quarters other than 1 to 4', () => {
    const result = plan([
      '2013-Q4/properties/General/a.pdf',
      '2027-Q1/properties/General/a.pdf',
      '2025-Q5/properties/General/a.pdf',
      '2025-Q0/properties/General/a.pdf',
      '2014-Q1/properties/General/ok.pdf',
    ]);
    expect(reasonOf(result, '2013-Q4/properties/General/a.pdf')).toBe(folderPlanMessages.yearOutOfRange(2013, 2026));
    expect(reasonOf(result, '2027-Q1/properties/General/a.pdf')).toBe(folderPlanMessages.yearOutOfRange(2027, 2026));
    expect(reasonOf(result, '2025-Q5/properties/General/a.pdf')).toBe(folderPlanMessages.noSuchQuarter(5));
    expect(reasonOf(result, '2025-Q0/properties/General/a.pdf')).toBe(folderPlanMessages.noSuchQuarter(0));
    expect(result.propertyDocuments).toMatchObject([{ year: 2014, quarter: 'Q1' }]);
  });

  it('refuses a root quarter folder out of range for every file in it', () => {
    const result = plan(['properties/General/a.pdf'], '2030-Q1');
    expect(result.unmatched).toMatchObject([{ reason: folderPlanMessages.yearOutOfRange(2030, 2026) }]);
  });

  it('leaves files directly in a quarter folder and unknown folders in it unmatched', () => {
    const result = plan(['2025-Q1/summary.pdf', '2025-Q1/drafts/summary.pdf']);
    expect(reasonOf(result, '2025-Q1/summary.pdf')).toBe(folderPlanMessages.fileInQuarterFolder);
    expect(reasonOf(result, '2025-Q1/drafts/summary.pdf')).toBe(folderPlanMessages.unknownQuarterFolder('drafts'));
  });

  it('accepts Windows separators', () => {
    const result = plan(['2025-Q1\\properties\\General\\a.pdf']);
    expect(result.propertyDocuments).toMatchObject([{ property: 'General', title: 'a' }]);
  });
});

describe('planFolder: investors folders', () => {
  it('pairs investors/manifest.csv with the document files beside it, named in NFC', () => {
    const k1 = 'K-1 Ünal.pdf'.normalize('NFD');
    const result = plan(['2025-Q4/investors/manifest.csv', `2025-Q4/investors/${k1}`, '2025-Q4/investors/agreement.docx']);
    expect(result.unmatched).toEqual([]);
    expect(result.manifests).toEqual([
      {
        entry: entry('2025-Q4/investors/manifest.csv'),
        folder: '2025-Q4/investors',
        year: 2025,
        quarter: 'Q4',
        files: [
          { entry: entry(`2025-Q4/investors/${k1}`), name: 'K-1 Ünal.pdf'.normalize('NFC') },
          { entry: entry('2025-Q4/investors/agreement.docx'), name: 'agreement.docx' },
        ],
      },
    ]);
  });

  it('finds the manifest in any letter case', () => {
    const result = plan(['2025-Q4/investors/Manifest.CSV', '2025-Q4/investors/a.pdf']);
    expect(result.manifests).toHaveLength(1);
  });

  it('plans one manifest per quarter', () => {
    const result = plan(['2025-Q3/investors/manifest.csv', '2025-Q4/investors/manifest.csv', '2025-Q4/investors/a.pdf']);
    expect(result.manifests.map((m) => [m.folder, m.files.length])).toEqual([
      ['2025-Q3/investors', 0],
      ['2025-Q4/investors', 1],
    ]);
  });

  it('leaves investors files with no manifest beside them unmatched', () => {
    const result = plan(['2025-Q4/investors/a.pdf']);
    expect(result.manifests).toEqual([]);
    expect(reasonOf(result, '2025-Q4/investors/a.pdf')).toBe(folderPlanMessages.noManifest);
  });

  it('leaves wrong types, subfolders and a manifest over 5 MB unmatched', () => {
    const result = plan([
      entry('2025-Q4/investors/manifest.csv', 6 * 1024 * 1024),
      '2025-Q4/investors/scan.png',
      '2025-Q4/investors/ann/k1.pdf',
    ]);
    expect(reasonOf(result, '2025-Q4/investors/manifest.csv')).toBe(folderPlanMessages.manifestTooLarge);
    expect(reasonOf(result, '2025-Q4/investors/scan.png')).toBe(folderPlanMessages.wrongType);
    expect(reasonOf(result, '2025-Q4/investors/ann/k1.pdf')).toBe(folderPlanMessages.tooDeep);
  });
});

describe('planFolder: ignored names', () => {
  const ignored = [
    '.DS_Store',
    'Thumbs.db',
    'desktop.ini',
    '._Q3 report.pdf',
    '~$Q3 report.docx',
    '.~lock.Q3 report.xlsx#',
    'upload.TMP',
    '.everest-sync.lock',
  ];

  it.each(ignored)('ignores %s', (name) => {
    expect(isIgnoredName(name)).toBe(true);
    const result = plan([`2025-Q1/properties/General/${name}`]);
    expect(result.ignored).toEqual([`2025-Q1/properties/General/${name}`]);
    expect(result.unmatched).toEqual([]);
    expect(result.propertyDocuments).toEqual([]);
  });

  it.each(['__MACOSX', '.stfolder', '@eaDir'])('ignores everything inside %s folders', (folder) => {
    const path = `${folder}/2025-Q1/properties/General/a.pdf`;
    expect(isIgnoredPath(path)).toBe(true);
    expect(plan([path]).ignored).toEqual([path]);
    expect(plan([`2025-Q1/properties/General/${folder}/a.pdf`]).ignored).toHaveLength(1);
  });

  it('does not ignore ordinary names that merely look alike', () => {
    expect(isIgnoredName('tmp report.pdf')).toBe(false);
    expect(isIgnoredName('Thumbs.db.pdf')).toBe(false);
    expect(isIgnoredName('_report.pdf')).toBe(false);
  });
});

describe('planFolder: every entry in exactly one list', () => {
  it('accounts for each entry once, sorted by path', () => {
    const paths = [
      '2025-Q1/properties/General/b.pdf',
      '2025-Q1/properties/General/a.pdf',
      '2025-Q1/properties/Nowhere/a.pdf',
      '2025-Q1/investors/manifest.csv',
      '2025-Q1/investors/k1.pdf',
      '2025-Q1/.DS_Store',
      'loose.pdf',
    ];
    const result = plan(paths);
    const seen = [
      ...result.propertyDocuments.map((d) => d.entry.path),
      ...result.duplicates.map((d) => d.entry.path),
      ...result.manifests.flatMap((m) => [m.entry.path, ...m.files.map((f) => f.entry.path)]),
      ...result.unmatched.map((u) => u.entry.path),
      ...result.ignored,
    ];
    expect(seen.sort()).toEqual([...paths].sort());
    expect(result.propertyDocuments.map((d) => d.title)).toEqual(['a', 'b']);
  });
});

describe('planFolder: the checks the server applies, twins and destinations (issue 32)', () => {
  const pdf = new TextEncoder().encode('%PDF-1.7\n');
  const text = new TextEncoder().encode('just some notes\n');
  const heartland = ['Heartland Plaza', 'Sunset Terrace Apartments'];
  const planOf = (entries: FolderEntry[], names = heartland) => planFolder({ entries, propertyNames: names, now });

  it('refuses a text file named .pdf by its first bytes, a file over 10 MB and a 201-character title', () => {
    const long = `${'t'.repeat(201)}.pdf`;
    const result = planOf([
      { path: '2026-Q3/properties/Heartland Plaza/notes.pdf', size: text.length, head: text },
      { path: '2026-Q3/properties/Heartland Plaza/big.pdf', size: 11 * 1024 * 1024, head: pdf },
      { path: `2026-Q3/properties/Heartland Plaza/${long}`, size: 100, head: pdf },
      { path: `2026-Q3/properties/Heartland Plaza/${'t'.repeat(200)}.pdf`, size: 100, head: pdf },
      { path: '2026-Q3/investors/fake.pdf', size: text.length, head: text },
    ]);
    expect(result.unmatched.map((u) => [u.entry.path.slice(0, 45), u.reason])).toEqual([
      ['2026-Q3/investors/fake.pdf', publishingMessages.contentNotAsNamed('.pdf')],
      ['2026-Q3/properties/Heartland Plaza/big.pdf', publishingMessages.tooLarge],
      ['2026-Q3/properties/Heartland Plaza/notes.pdf', publishingMessages.contentNotAsNamed('.pdf')],
      [`2026-Q3/properties/Heartland Plaza/${long}`.slice(0, 45), publishingMessages.fileNameTitleTooLong],
    ]);
    expect(result.propertyDocuments).toHaveLength(1);
  });

  it.each([
    ['the copy first', ['Report - Copy.pdf', 'Report.pdf']],
    ['the original first', ['Report.pdf', 'Report - Copy.pdf']],
  ])("plans 'Report.pdf' and lists its same-content copy as a duplicate, %s", (_order, names) => {
    const entries = names.map((name) => ({ path: `2026-Q3/properties/Heartland Plaza/${name}`, size: 9, sha256: 'same' }));
    const result = planOf(entries);
    expect(result.propertyDocuments.map((d) => d.filename)).toEqual(['Report.pdf']);
    expect(result.duplicates).toEqual([
      { entry: entries.find((e) => e.path.endsWith('Copy.pdf')), of: '2026-Q3/properties/Heartland Plaza/Report.pdf' },
    ]);
  });

  it('plans the same bytes under Heartland Plaza and Sunset Terrace Apartments as two documents (issue 32 case 2)', () => {
    const result = planOf([
      { path: '2026-Q3/properties/Heartland Plaza/Capital Call Notice.pdf', size: 9, sha256: 'same' },
      { path: '2026-Q3/properties/Sunset Terrace Apartments/Capital Call Notice.pdf', size: 9, sha256: 'same' },
    ]);
    expect(result.propertyDocuments.map((d) => d.property)).toEqual(['Heartland Plaza', 'Sunset Terrace Apartments']);
    expect(result.duplicates).toEqual([]);
  });

  it('treats the same content for one property in two quarter folders as one publication, the first path kept', () => {
    const result = planOf([
      { path: '2026-Q3/properties/heartland plaza/Notice.pdf', size: 9, sha256: 'same' },
      { path: '2026-Q2/properties/Heartland Plaza/Notice.pdf', size: 9, sha256: 'same' },
    ]);
    expect(result.propertyDocuments.map((d) => d.entry.path)).toEqual(['2026-Q2/properties/Heartland Plaza/Notice.pdf']);
    expect(result.duplicates.map((d) => d.of)).toEqual(['2026-Q2/properties/Heartland Plaza/Notice.pdf']);
  });

  it('cannot compare files it has no hash for, and plans both', () => {
    const result = planOf([
      { path: '2026-Q3/properties/Heartland Plaza/Report.pdf', size: 9 },
      { path: '2026-Q3/properties/Heartland Plaza/Report - Copy.pdf', size: 9 },
    ]);
    expect(result.propertyDocuments).toHaveLength(2);
  });
});
