import { useQuery } from '@tanstack/react-query';
import type { DocumentVersionsParams } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';
import { adminKeys } from './query-keys';

/** GET /api/admin/document-versions/:documentType/:documentId: every version, newest first. */
export function useDocumentVersions(document: DocumentVersionsParams | null) {
  return useQuery({
    queryKey: [...adminKeys.documentVersions, document?.documentType, document?.documentId],
    queryFn: ({ signal }) => {
      if (!document) throw new Error('No document chosen');
      return api.call('documentVersions', { params: document }, { signal, cache: 'no-store' });
    },
    enabled: document !== null,
  });
}

/**
 * GET /api/investor/download-version/:versionId, opened in a new window as the other downloads
 * are: a window cannot send a header, so the session travels as `?token=`.
 */
export function versionUrl(versionId: number): string {
  return api.urlFor('downloadVersion', { params: { versionId }, query: { token: getStoredToken() ?? undefined } });
}
