import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { InvestorDocument } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { getStoredToken } from '../../../lib/session-storage';
import { portalQueryKey } from '../api/query-keys';

export const documentsQueryOptions = queryOptions({
  queryKey: [...portalQueryKey, 'documents'],
  queryFn: ({ signal }) => api.call('investorDocuments', undefined, { signal }),
});

/**
 * The file's address for a new window or the preview frame, which cannot send a header: the
 * session travels as `?token=` (spec section 7; the server never logs it).
 */
export function documentUrl(document: InvestorDocument, purpose: 'preview' | 'download'): string {
  return api.urlFor('download', {
    params: { id: document.id },
    query: {
      token: getStoredToken() ?? undefined,
      type: document.documentType === 'personal' ? 'user' : undefined,
      preview: purpose === 'preview' ? '1' : undefined,
    },
  });
}

/**
 * Clears a document's 'New' badge at once when the investor opens it. The server records the read
 * and drops its cached list, so the next fetch of the list says the same.
 */
export function markOpened(queryClient: QueryClient, document: InvestorDocument): void {
  queryClient.setQueryData(documentsQueryOptions.queryKey, (answer) =>
    answer && {
      documents: answer.documents.map((d) =>
        d.id === document.id && d.documentType === document.documentType ? { ...d, opened: true } : d,
      ),
    },
  );
}
