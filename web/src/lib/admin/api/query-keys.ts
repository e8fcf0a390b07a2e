import type { QueryClient } from '@tanstack/react-query';
import { sessionQueryKey } from '../../session-query-key';

// Under the session's key: signing out drops the panel's data with the portal's, and a 401 from
// any of these reads ends the session.
export const adminQueryKey = [...sessionQueryKey, 'admin'] as const;

export const adminKeys = {
  users: [...adminQueryKey, 'users'] as const,
  userProperties: [...adminQueryKey, 'user-properties'] as const,
  /** Both property lists (all, investor relations) change together. */
  properties: [...adminQueryKey, 'properties'] as const,
  /** Every property document (one list; the panel searches and pages it). */
  documents: [...adminQueryKey, 'documents'] as const,
  /** The personal documents, a page of a search each. */
  personalDocuments: [...adminQueryKey, 'user-documents'] as const,
  /** Read receipts: the documents list, one document's investors, one investor's documents. */
  readReceipts: [...adminQueryKey, 'read-receipts'] as const,
  /** A document's versions, per document. */
  documentVersions: [...adminQueryKey, 'document-versions'] as const,
  /** Who a new document of a property would e-mail, per property. */
  documentRecipients: [...adminQueryKey, 'document-recipients'] as const,
  /**
   * The portal's own list of the signed-in administrator's documents (investor-portal's
   * documents query, whose key this is): its 'Property Documents (n)' counts what an upload
   * to 'General' or to a property of theirs adds.
   */
  portalDocuments: [...sessionQueryKey, 'documents'] as const,
};

/**
 * After a publication, every list that shows documents is fetched again: the
 * panel's lists, the read receipts (a new document is one more row), and the administrator's
 * own documents in the portal (whose count was stale after an upload).
 */
export function invalidatePublished(queryClient: QueryClient, kinds: { property?: boolean; personal?: boolean }): Promise<unknown> {
  return Promise.all([
    kinds.property ? queryClient.invalidateQueries({ queryKey: adminKeys.documents }) : null,
    kinds.personal ? queryClient.invalidateQueries({ queryKey: adminKeys.personalDocuments }) : null,
    queryClient.invalidateQueries({ queryKey: adminKeys.readReceipts }),
    queryClient.invalidateQueries({ queryKey: adminKeys.portalDocuments, exact: true }),
  ]);
}
