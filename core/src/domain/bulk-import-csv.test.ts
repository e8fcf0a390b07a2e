import { describe, expect, it } from 'vitest';
import { bulkImportCsvMessages, parseBulkImportCsv, shownImportValue, validateBulkImportRows } from './bulk-import-csv';
import { decodeCsvBytes } from './publishing';
import { maxImportCsvBytes, maxImportRows } from './csv-columns';
import { portalMessages } from './messages';

const header = 'email,firstName,lastName,entity,role,propertyAccess,streetAddress,city,state,zipCode';
const utf8 = (text: string) => new TextEncoder().encode(text);

/** windows-1252 bytes of a Latin-1 text (the two agree on the letters used here). */
function cp1252(text: string): Uint8Array {
  return Uint8Array.from([...text].map((ch) => {
    const code = ch.charCodeAt(0);
    if (code > 0xff) throw new Error(`not in the test's range: ${ch}`);
    return code;
  }));
}

describe('parseBulkImportCsv', () => {
  it('reads valid rows into csvData with their file lines, and the rows as the import reads them', () => {
    const result = parseBulkImportCsv(
      [
        header,
        'Ann@Example.com , Ann ,Lee,,,"Aspen Ridge, Heartland Plaza",1 Main St.,Pasadena,CA,91101',
        'treasury@harbor.example.com,,,Harbor Point LLC,administrator,,,,,',
      ].join('\n'),
    );
    expect(result.error).toBeNull();
    expect(result.encoding).toBe('utf-8');
    expect(result.delimiter).toBe(',');
    expect(result.errors).toEqual([]);
    expect(result.csvData).toEqual([
      {
        line: 2,
        email: 'Ann@Example.com',
        firstName: 'Ann',
        lastName: 'Lee',
        propertyAccess: 'Aspen Ridge, Heartland Plaza',
        streetAddress: '1 Main St.',
        city: 'Pasadena',
        state: 'CA',
        zipCode: '91101',
      },
      { line: 3, email: 'treasury@harbor.example.com', entity: 'Harbor Point LLC', role: 'administrator' },
    ]);
    expect(result.valid[0]).toEqual({
      line: 2,
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      entity: '',
      role: 'user',
      roleGiven: false,
      propertyAccess: ['Aspen Ridge', 'Heartland Plaza'],
      streetAddress: '1 Main St.',
      city: 'Pasadena',
      state: 'CA',
      zipCode: '91101',
    });
    expect(result.valid[1]).toMatchObject({ line: 3, role: 'administrator', roleGiven: true, entity: 'Harbor Point LLC', propertyAccess: [] });
  });

  it('counts blank lines and multi-line cells in line numbers, and ignores blank and delimiter-only lines', () => {
    const result = parseBulkImportCsv(
      [
        header,
        '',
        'a@example.com,A,A,,,,"12 Oak St.',
        'Apt 4",Pasadena,CA,91101',
        ',,,,,,,,,',
        'not-an-email,B,B,,,,,,,',
        '',
      ].join('\r\n'),
    );
    expect(result.valid.map((row) => [row.line, row.streetAddress])).toEqual([[3, '12 Oak St.\r\nApt 4']]);
    expect(result.errors).toEqual([{ row: 6, error: 'Email is not a valid email address.', value: 'not-an-email' }]);
  });

  it('says each row rule in its own sentence, with the row line', () => {
    const result = parseBulkImportCsv(
      [
        header,
        ',Ann,Lee,,,,,,,',
        'bad@,Ann,Lee,,,,,,,',
        'ann@example.com,Ann,,,,,,,,',
        'bob@example.com,Bob,Lee,,owner,,,,,',
        'ann2@example.com,,,Lee Trust,everest_employee,,,,,',
        'ANN2@example.com,Ann,Lee,,,,,,,',
        `long@example.com,${'x'.repeat(101)},Lee,,,,,,,`,
      ].join('\n'),
    );
    expect(result.errors).toEqual([
      { row: 2, error: 'Email is required.' },
      { row: 3, error: 'Email is not a valid email address.', value: 'bad@' },
      { row: 4, error: 'Either firstName and lastName, or entity, is required.' },
      { row: 5, error: 'Role must be user, everest_employee or administrator.', value: 'owner' },
      { row: 7, error: bulkImportCsvMessages.duplicateEmail(6), value: 'ANN2@example.com' },
      { row: 8, error: 'First name must be 100 characters or fewer.', value: `${'x'.repeat(59)}…` },
    ]);
    expect(result.valid.map((row) => [row.line, row.email, row.role])).toEqual([[6, 'ann2@example.com', 'everest_employee']]);
    expect(result.csvData.map((row) => row.line)).toEqual([6]);
  });

  it('shows the bad value of a row error as plain text: control characters and bidirectional marks replaced, cut at 60 characters', () => {
    expect(shownImportValue('  ')).toBeUndefined();
    expect(shownImportValue(undefined)).toBeUndefined();
    expect(shownImportValue('ann\u0000@x\u202Emoc')).toBe('ann\uFFFD@x\uFFFDmoc');
    // Cut by characters, never inside an emoji's surrogate pair.
    expect(shownImportValue('😀'.repeat(70))).toBe(`${'😀'.repeat(59)}…`);
    expect(shownImportValue(['Aspen Ridge', 'Nowhere'])).toBe('Aspen Ridge, Nowhere');
    const row = parseBulkImportCsv(`${header}
<img src=x onerror=alert(1)>,A,B,,,,,,,`).errors[0];
    expect(row).toEqual({ row: 2, error: 'Email is not a valid email address.', value: '<img src=x onerror=alert(1)>' });
  });

  it('gives an empty role the chosen default role', () => {
    const result = parseBulkImportCsv(`${header}\na@example.com,A,B,,,,,,,\nb@example.com,A,B,,User,,,,,`, {
      defaultRole: 'everest_employee',
    });
    expect(result.valid.map((row) => row.role)).toEqual(['everest_employee', 'user']);
  });

  it('matches property names exactly against the known names when it has them', () => {
    const csv = `${header}\na@example.com,A,B,,,"Aspen Ridge,Heartland Plaza",,,,\nb@example.com,A,B,,,"aspen ridge, Nowhere",,,,`;
    const result = parseBulkImportCsv(csv, { knownPropertyNames: ['Aspen Ridge', 'Heartland Plaza'] });
    expect(result.valid.map((row) => row.email)).toEqual(['a@example.com']);
    expect(result.errors).toEqual([{ row: 3, error: bulkImportCsvMessages.unknownProperties(['aspen ridge', 'Nowhere']) }]);
    expect(parseBulkImportCsv(csv).errors).toEqual([]);
  });

  it('matches header names without case, spaces or underscores', () => {
    const result = parseBulkImportCsv('E-Mail,First Name,last_name,ENTITY,Property Access,Zip Code\na@example.com,Ann,Lee,,Aspen Ridge,91101');
    // 'E-Mail' reads as email too: the header key drops the hyphen.
    expect(result.error).toBeNull();
    expect(result.valid[0]).toMatchObject({ email: 'a@example.com', firstName: 'Ann', lastName: 'Lee', propertyAccess: ['Aspen Ridge'], zipCode: '91101' });
  });

  it('reads a UTF-8 file with a BOM', () => {
    const bytes = utf8(`\uFEFF${header}\nzoe@example.com,Zoë,Müller,,,,,,,`);
    const result = parseBulkImportCsv(bytes);
    expect(result.encoding).toBe('utf-8');
    expect(result.valid[0]).toMatchObject({ email: 'zoe@example.com', firstName: 'Zoë', lastName: 'Müller' });
  });

  it("detects Excel's windows-1252 export and the semicolon delimiter, and says so", () => {
    const text = `${header.replaceAll(',', ';')}\r\njose@example.com;José;Muñoz;;;"Aspen Ridge,Heartland Plaza";1 Côte St.;Montréal;QC;H2X\r\n`;
    const result = parseBulkImportCsv(cp1252(text));
    expect(result.encoding).toBe('windows-1252');
    expect(result.delimiter).toBe(';');
    expect(result.errors).toEqual([]);
    expect(result.valid[0]).toMatchObject({
      line: 2,
      firstName: 'José',
      lastName: 'Muñoz',
      city: 'Montréal',
      streetAddress: '1 Côte St.',
      propertyAccess: ['Aspen Ridge', 'Heartland Plaza'],
    });
  });

  it('keeps a comma file a comma file when an address holds a semicolon', () => {
    const result = parseBulkImportCsv(`${header}\na@example.com,A,B,,,,"1 Main St.; Suite 2",X,CA,1`);
    expect(result.delimiter).toBe(',');
    expect(result.valid[0]?.streetAddress).toBe('1 Main St.; Suite 2');
  });

  it('accepts exactly 5 MB and refuses 5 MB + 1 byte with a sentence', () => {
    const row = 'a@example.com,A,B,,,,,,,\n';
    const base = `${header}\n${row}`;
    const exact = utf8(base + ' '.repeat(maxImportCsvBytes - utf8(base).byteLength));
    expect(exact.byteLength).toBe(maxImportCsvBytes);
    expect(parseBulkImportCsv(exact).error).toBeNull();

    const over = new Uint8Array(maxImportCsvBytes + 1);
    over.set(exact);
    over[maxImportCsvBytes] = 0x20;
    const refused = parseBulkImportCsv(over);
    expect(refused.error).toBe('The CSV file is larger than 5 MB. Please split it into smaller files.');
    expect(refused.valid).toEqual([]);
    // Text is measured in UTF-8 bytes, as the file would be.
    expect(parseBulkImportCsv(new TextDecoder().decode(over)).error).toBe(bulkImportCsvMessages.tooLarge);
  });

  it("refuses a cell longer than the contract allows, and returns every row as read in 'rows'", () => {
    const result = parseBulkImportCsv(`${header}\na@example.com,A,B,${'x'.repeat(1001)},,,,,,\nnope,A,B,,,,,,,\nc@example.com,C,D,,,,,,,`);
    expect(result.errors).toEqual([
      { row: 2, error: 'A CSV cell must be 1000 characters or fewer.', value: `${'x'.repeat(59)}…` },
      { row: 3, error: 'Email is not a valid email address.', value: 'nope' },
    ]);
    expect(result.rows.map((row) => [row.line, row.email])).toEqual([
      [2, 'a@example.com'],
      [3, 'nope'],
      [4, 'c@example.com'],
    ]);
    expect(result.csvData.map((row) => row.line)).toEqual([4]);
  });

  it('says when the file has more rows than one import takes', () => {
    const row = 'a@example.com,A,B,,,,,,,';
    expect(parseBulkImportCsv([header, ...Array<string>(maxImportRows).fill(row)].join('\n')).error).toBeNull();
    expect(parseBulkImportCsv([header, ...Array<string>(maxImportRows + 1).fill(row)].join('\n')).error).toBe(
      'The CSV file has more than 10,000 users. Please split it into smaller files.',
    );
  });

  it('says when there is no data or no email column', () => {
    expect(parseBulkImportCsv('').error).toBe(portalMessages.noDataInCsv);
    expect(parseBulkImportCsv(`${header}\n\n,,,\n`).error).toBe(portalMessages.noDataInCsv);
    expect(parseBulkImportCsv('name,city\nAnn,Pasadena').error).toBe(bulkImportCsvMessages.noEmailColumn);
  });
});

describe('a damaged file', () => {
  it('refuses a file that claims UTF-8 with a BOM but is not', () => {
    const damaged = Uint8Array.from([0xef, 0xbb, 0xbf, 0x41, 0xe9]);
    expect(decodeCsvBytes(damaged)).toEqual({ text: 'A\uFFFD', encoding: 'utf-8' });
    expect(parseBulkImportCsv(damaged).error).toBe(portalMessages.bulkPreviewFailed);
  });
});

describe('validateBulkImportRows', () => {
  it('numbers rows without a line by their place, the first data row being 2', () => {
    const result = validateBulkImportRows([{ email: 'a@example.com', entity: 'A' }, { email: 'nope' }]);
    expect(result.valid.map((row) => row.line)).toEqual([2]);
    expect(result.errors).toEqual([{ row: 3, error: 'Email is not a valid email address.', value: 'nope' }]);
  });

  it('takes property access as a list too, and an empty role cell as the default role', () => {
    const result = validateBulkImportRows(
      [
        { line: 4, email: 'a@example.com', entity: 'A', propertyAccess: ['Aspen Ridge', ' Aspen Ridge '], role: ' ' },
        { line: 9, email: 'b@example.com', entity: 'B', role: 'Administrator' },
      ],
      { defaultRole: 'everest_employee' },
    );
    expect(result.valid.map((row) => [row.line, row.propertyAccess, row.role, row.roleGiven])).toEqual([
      [4, ['Aspen Ridge'], 'everest_employee', false],
      [9, [], 'administrator', true],
    ]);
  });
});

describe('the identifiers column', () => {
  it('splits on semicolons (commas stay inside a name), trims, drops empty ones and repeats, and leaves an empty cell as no list', () => {
    const result = parseBulkImportCsv(
      [
        'email,entity,identifiers',
        'a@example.com,A,"Smith Family Trust, dtd 3/1/2001 ; XXX-XX-1234;;SMITH FAMILY TRUST DTD 3/1/2001"',
        'b@example.com,B,',
        'c@example.com,C, ; ',
      ].join('\n'),
    );
    expect(result.errors).toEqual([]);
    expect(result.valid.map((row) => row.identifiers)).toEqual([['Smith Family Trust, dtd 3/1/2001', 'XXX-XX-1234'], undefined, undefined]);
  });

  it('says a bad identifier, or too many, as a row error with the cell', () => {
    const many = Array.from({ length: 21 }, (_, i) => `Trust ${i}`).join(';');
    const result = parseBulkImportCsv(['email,entity,identifiers', 'a@example.com,A,Good Trust;x', `b@example.com,B,${many}`].join('\n'));
    expect(result.errors.map(({ row, error }) => [row, error])).toEqual([
      [2, 'An identifier must be at least 2 characters.'],
      [3, 'An investor can have at most 20 added identifiers.'],
    ]);
    expect(result.errors[0]?.value).toBe('Good Trust;x');
  });
});
