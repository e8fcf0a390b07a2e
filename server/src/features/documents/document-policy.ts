import type { SessionUser } from '../../http/state';

/**
 * Who may read which document. Every read path (the list, the preview, the download) takes its
 * SQL condition from here, so the rules live in one place:
 * - administrators read everything;
 * - a property document is readable by users with access to its property, and a document of
 *   the 'General' group (no property) by every signed-in user;
 * - a personal document only by the user it is assigned to.
 * Everest employees follow the investors' rules (DECISIONS.md).
 * The portal's list of personal documents is everyone's own, administrators' too: every
 * investor's tax papers, unlabelled, under 'Your Documents' would mislead; the administration
 * panel lists them with their investors.
 */
export const documentPolicy = {
  /** Condition on `property_documents` aliased `d`, with its parameters. */
  propertyDocuments(user: SessionUser): { sql: string; params: unknown[] } {
    if (user.role === 'administrator') return { sql: 'true', params: [] };
    // `= any(array(…))`: the caller's properties are read once, and both halves of the OR become
    // index scans (a bitmap OR). An EXISTS per row read every property document of the firm:
    // 40 ms for an investor's list at 100,000 documents instead of under 1 ms.
    return {
      sql: `(d.property_id is null or d.property_id = any (array(
              select pa.property_id from property_access pa where pa.user_id = ?)))`,
      params: [user.id],
    };
  },

  /** Condition on `user_documents` aliased `d`, with its parameters. */
  personalDocuments(user: SessionUser): { sql: string; params: unknown[] } {
    if (user.role === 'administrator') return { sql: 'true', params: [] };
    return documentPolicy.ownPersonalDocuments(user);
  },

  /** The same, for the portal's list: the caller's own documents, whatever the role. */
  ownPersonalDocuments(user: SessionUser): { sql: string; params: unknown[] } {
    return { sql: 'd.user_id = ?', params: [user.id] };
  },
};
