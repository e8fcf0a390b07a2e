import { api } from '../../../lib/api';

/**
 * GET /api/admin/content-matching/investors: every investor with what identifies them, asked
 * afresh for each Match by content (identifiers change in the users tab), never cached.
 */
export function contentMatchingInvestors() {
  return api.call('contentMatchingInvestors', {}, { cache: 'no-store' });
}
