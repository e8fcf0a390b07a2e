import type { EntityManager } from '@mikro-orm/postgresql';
import type { BulkUploadPreviewAnswer, BulkUploadPreviewBody } from '@everest/core/contract';
import type { DocumentCategory, Quarter } from '@everest/core/domain';

// What the database knows of a bulk manifest's investors and files: read by the browser's dry
// run (bulk-upload-preview) and by the batch itself, so both plan the rows alike.

/** What the dry run needs to know of the database: the named investors, their contents among these hashes, their documents. */
export interface ManifestKnowledge {
  usersByEmail: Map<string, number>;
  publishedHashes: Map<number, Set<string>>;
  /** Each investor's documents, by which a row is a correction (core's documentIdentityKey). */
  publishedDocuments: Map<number, BulkUploadPreviewAnswer['users'][number]['documents']>;
  /** `${userId}:${sha256}` → the document that investor has with that content. */
  documentsByContent: Map<string, number>;
  /** The named investors who can sign in, and so are e-mailed. */
  activeUsers: Set<number>;
  /** The named investors who cannot: their rows are refused. */
  deactivatedUsers: Set<number>;
}

function addTo(map: Map<number, Set<string>>, key: number, value: string): void {
  map.set(key, (map.get(key) ?? new Set()).add(value));
}

/**
 * Looks up what planBulkManifest needs, for these e-mails and hashes only; the server's run and
 * the browser's preview (bulkUploadPreview) read the same answer. Lists travel as one JSON
 * parameter: the driver would spread an array into a list of values.
 */
export async function manifestKnowledge(em: EntityManager, emails: readonly string[], hashes: readonly string[]): Promise<ManifestKnowledge> {
  const knowledge: ManifestKnowledge = {
    usersByEmail: new Map(),
    publishedHashes: new Map(),
    publishedDocuments: new Map(),
    documentsByContent: new Map(),
    activeUsers: new Set(),
    deactivatedUsers: new Set(),
  };
  if (emails.length === 0) return knowledge;
  const users = await em.execute<{ id: number; email: string; is_active: boolean }[]>(
    'select id, lower(email) as email, is_active from users where lower(email) in (select lower(jsonb_array_elements_text(?::jsonb)))',
    [JSON.stringify(emails)],
  );
  if (users.length === 0) return knowledge;
  for (const u of users) {
    knowledge.usersByEmail.set(u.email, u.id);
    (u.is_active ? knowledge.activeUsers : knowledge.deactivatedUsers).add(u.id);
  }
  const ids = JSON.stringify(users.map((u) => u.id));
  const uniqueHashes = [...new Set(hashes)];
  const [published, documents] = await Promise.all([
    uniqueHashes.length
      ? em.execute<{ id: number; user_id: number; sha256: string }[]>(
          `select d.id, d.user_id, f.sha256 from user_documents d join stored_files f on f.id = d.file_id
            where d.user_id in (select jsonb_array_elements_text(?::jsonb)::int)
              and f.sha256 in (select jsonb_array_elements_text(?::jsonb))`,
          [ids, JSON.stringify(uniqueHashes)],
        )
      : [],
    em.execute<{ id: number; user_id: number; title: string; document_category: DocumentCategory; year: number; quarter: Quarter; uploaded_at: string }[]>(
      `select id, user_id, title, document_category, year, quarter,
              to_char(uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at
         from user_documents where user_id in (select jsonb_array_elements_text(?::jsonb)::int)`,
      [ids],
    ),
  ]);
  for (const r of published) {
    addTo(knowledge.publishedHashes, r.user_id, r.sha256);
    const key = `${r.user_id}:${r.sha256}`;
    knowledge.documentsByContent.set(key, Math.min(r.id, knowledge.documentsByContent.get(key) ?? r.id));
  }
  for (const r of documents) {
    const identity = { documentId: r.id, title: r.title, category: r.document_category, year: r.year, quarter: r.quarter, firstPublishedAt: r.uploaded_at };
    const list = knowledge.publishedDocuments.get(r.user_id);
    if (list) list.push(identity);
    else knowledge.publishedDocuments.set(r.user_id, [identity]);
  }
  return knowledge;
}

/** The browser's dry run asks this before sending anything (see bulkUploadPreviewBody). */
export async function bulkUploadPreview(em: EntityManager, body: BulkUploadPreviewBody): Promise<BulkUploadPreviewAnswer> {
  const known = await manifestKnowledge(em, body.emails, body.sha256);
  return {
    users: [...known.usersByEmail].map(([email, userId]) => ({
      email,
      userId,
      publishedSha256: [...(known.publishedHashes.get(userId) ?? [])],
      documents: known.publishedDocuments.get(userId) ?? [],
      active: known.activeUsers.has(userId),
    })),
  };
}
