import { queryOptions, useMutation, type QueryClient } from '@tanstack/react-query';
import type { InvestorDocument } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { api } from '../../../lib/api';
import { documentAddress, openDocumentWindow } from '../../../lib/document-links';
import { showToast } from '../../../lib/toast';
import { portalQueryKey } from '../api/query-keys';
import { isUnauthorized } from '../lib/portal-session';

/**
 * The signed-in person's own documents, or those a share from the investor
 * `onBehalfOf` covers. The own list keeps the key the admin panel refreshes after an upload.
 */
export function documentsQueryOptions(onBehalfOf?: number) {
  return queryOptions({
    queryKey: onBehalfOf === undefined ? [...portalQueryKey, 'documents'] : [...portalQueryKey, 'documents', 'on-behalf-of', onBehalfOf],
    queryFn: ({ signal }) => api.call('investorDocuments', { query: { onBehalfOf } }, { signal }),
  });
}

/**
 * The preview frame's address, with a document link asked for each time the preview opens (it
 * lasts minutes: a cached one could have expired). Under the portal's key, so that a 401 ends
 * the session as any portal call's does.
 */
export function previewAddressQueryOptions(document: InvestorDocument, onBehalfOf?: number) {
  return queryOptions({
    queryKey: [...portalQueryKey, 'document-address', document.documentType, document.id, onBehalfOf ?? 'own'],
    queryFn: () => documentAddress({ ...document, onBehalfOf }, 'preview'),
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * Download in a new window (lib/document-links). A mutation, so that a 401 ends the session as
 * any portal call's does; any other failure says so.
 */
export function useOpenDocument(onBehalfOf?: number) {
  return useMutation({
    mutationFn: (document: InvestorDocument) => openDocumentWindow({ id: document.id, documentType: document.documentType, onBehalfOf }),
    onError: (error) => {
      if (isUnauthorized(error)) return;
      showToast({ title: portalMessages.documentOpenFailed, description: error instanceof Error ? error.message : undefined, variant: 'destructive' });
    },
  });
}

/**
 * Clears a document's 'New' badge at once when the investor opens it. The server records the read
 * and drops its cached list, so the next fetch of the list says the same.
 */
export function markOpened(queryClient: QueryClient, document: InvestorDocument, onBehalfOf?: number): void {
  queryClient.setQueryData(documentsQueryOptions(onBehalfOf).queryKey, (answer) =>
    answer && {
      documents: answer.documents.map((d) =>
        d.id === document.id && d.documentType === document.documentType ? { ...d, opened: true } : d,
      ),
    },
  );
}
