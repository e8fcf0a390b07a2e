import { manifestOptionalColumns, manifestRequiredColumns, toCsv } from '@everest/core/domain';

/** The file name the spec gives the template (instruction pages). */
export const bulkUploadTemplateName = 'bulk-upload-template.csv';

/** The template's columns: the required four (spec section 5), then the optional ones. */
export const bulkUploadTemplateColumns = [...manifestRequiredColumns, ...manifestOptionalColumns];

/**
 * Example rows, one per usual category; example.com addresses reach nobody. Each row has a cell
 * for every column, the empty correction_note too: a row with fewer fields than the header is
 * refused whole (a shifted cell would land in the wrong column).
 */
export const bulkUploadTemplateRows: readonly (readonly string[])[] = [
  ['jane.investor@example.com', '2025-K1-Jane-Investor.pdf', 'tax', '2025 Schedule K-1', 'Schedule K-1 for tax year 2025', '2026-03-15', 'k1, 2025', ''],
  ['jane.investor@example.com', 'Jane-Investor-Accreditation.pdf', 'personal', 'Accreditation Letter', '', '', '', ''],
  [
    'acme.holdings@example.com',
    'Acme-Subscription-Agreement.docx',
    'legal',
    'Subscription Agreement',
    'Signed subscription agreement',
    '2026-01-20',
    'legal, signed',
    '',
  ],
];

/** The template as text, with a BOM so that Excel reads it as UTF-8; every cell escaped by core's csvCell. */
export function bulkUploadTemplateCsv(): string {
  return `\uFEFF${toCsv([bulkUploadTemplateColumns, ...bulkUploadTemplateRows])}`;
}

/**
 * The template as a link's address: the page's HTML carries the file itself, so that the link
 * downloads it before the app's code has arrived, without JavaScript and offline.
 */
export const bulkUploadTemplateHref = `data:text/csv;charset=utf-8,${encodeURIComponent(bulkUploadTemplateCsv())}`;
