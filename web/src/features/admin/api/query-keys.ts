import { sessionQueryKey } from '../../../lib/session-query-key';

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
  userDocuments: [...adminQueryKey, 'user-documents'] as const,
  /** Read receipts: the documents list, one document's investors, one investor's documents. */
  readReceipts: [...adminQueryKey, 'read-receipts'] as const,
  /** A document's versions (issue 21), per document. */
  documentVersions: [...adminQueryKey, 'document-versions'] as const,
};
