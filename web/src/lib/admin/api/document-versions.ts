import { useQuery } from '@tanstack/react-query';
import type { DocumentVersionsParams } from '@everest/core/contract';
import { api } from '../../api';
import { openDocumentWindow } from '../../document-links';
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
 * GET /api/investor/download-version/:versionId in a new window, as the other downloads open:
 * with a document link of a few minutes for that version, never the session token, in the address.
 */
export function openVersion(versionId: number): Promise<void> {
  return openDocumentWindow({ versionId });
}
