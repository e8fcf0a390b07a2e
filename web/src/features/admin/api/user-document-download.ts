import type { UserDocument } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';

/**
 * GET /api/investor/download/:id?type=user: the file, opened in a new window, which cannot send
 * a header, so the session travels as `?token=` (spec section 7), as the portal builds it.
 */
export function userDocumentUrl(document: Pick<UserDocument, 'id'>): string {
  return api.urlFor('download', {
    params: { id: document.id },
    query: { token: getStoredToken() ?? undefined, type: 'user' },
  });
}
