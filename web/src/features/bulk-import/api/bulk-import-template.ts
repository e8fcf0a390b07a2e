import { api } from '../../../lib/api';

/**
 * GET /api/bulk-import-template: the CSV template, fetched by browser navigation (spec section
 * 7), so the link works without a session and the browser saves the server's file name.
 */
export const bulkImportTemplateUrl = api.urlFor('bulkImportTemplate');
