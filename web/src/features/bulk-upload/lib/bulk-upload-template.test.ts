import { expect, it } from 'vitest';
import { manifestRequiredColumns, planBulkManifest } from '@everest/core/domain';
import { bulkUploadTemplateCsv, bulkUploadTemplateRows } from './bulk-upload-template';

it('the template is a manifest the dry run accepts whole: every example row would be published', () => {
  const csv = bulkUploadTemplateCsv();
  expect(csv.startsWith(`\uFEFF${manifestRequiredColumns.join(',')},`)).toBe(true);
  const emails = [...new Set(bulkUploadTemplateRows.map((row) => row[0] ?? ''))];
  const plan = planBulkManifest({
    csvText: csv,
    files: bulkUploadTemplateRows.map((row) => ({ name: row[1] ?? '', size: 1 })),
    usersByEmail: new Map(emails.map((email, index) => [email, index + 1])),
  });
  expect(plan.error).toBeNull();
  expect(plan.rows.map((row) => row.outcome)).toEqual(['publish', 'publish', 'publish']);
  const first = plan.rows[0];
  expect(first?.outcome === 'publish' && [first.title, first.tags, first.documentDate]).toEqual(['2025 Schedule K-1', 'k1, 2025', '2026-03-15']);
});
