import { expect, it } from 'vitest';
import { parseBulkImportCsv } from '@everest/core/domain';
import { importCsvExample } from './bulk-import-csv-help';

it("the help's example is a file the import reads without a row error, identifiers included", () => {
  const parsed = parseBulkImportCsv(importCsvExample);
  expect(parsed.error).toBeNull();
  expect(parsed.errors).toEqual([]);
  expect(parsed.valid.map((row) => row.identifiers)).toEqual([
    ['XXX-XX-1234'],
    undefined,
    ['Lee Family Trust dtd 3/1/2001', 'XXX-XX-5678'],
  ]);
});
