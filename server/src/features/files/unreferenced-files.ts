import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileStore } from './file-store';

/**
 * Whether a stored_files row `f` is still named by something: a document of either kind, an
 * earlier version of one (kept for administrators), or a property's photo (named by its `/media/<sha256>.<ext>` address, not by a key).
 */
const stillReferenced = `(
  exists (select 1 from property_documents d where d.file_id = f.id)
  or exists (select 1 from user_documents d where d.file_id = f.id)
  or exists (select 1 from document_versions v where v.file_id = f.id)
  or exists (select 1 from properties p
              where p.image like '%' || f.sha256 || '%' or p.image_variants::text like '%' || f.sha256 || '%'))`;

export interface SweptFiles {
  /** stored_files rows no longer named by anything, deleted. */
  rows: number;
  /** Files removed from disk: those of the deleted rows, and old ones no row ever named. */
  files: number;
}

/**
 * Removes what the content store keeps for nobody: files of deleted or replaced documents, and
 * files kept by an upload that died before its row was written. Only what is older than
 * `minAgeMs`, and safely against an upload of the same bytes running at the same moment:
 * - a row is deleted by one statement that checks it is unreferenced; a document committed
 *   meanwhile makes the foreign key refuse the delete, and the row stays;
 * - a file is removed only if it was not written in the last `minAgeMs` (FileStore.removeIfUntouched):
 *   an upload keeps a freshly written file before it writes its row, so that copy stays, and its
 *   row (made anew by the upload's upsert) finds it in place.
 */
export async function sweepUnreferencedFiles(em: EntityManager, store: FileStore, minAgeMs: number, now = Date.now()): Promise<SweptFiles> {
  const swept: SweptFiles = { rows: 0, files: 0 };
  const olderThan = new Date(now - minAgeMs);
  const candidates = await em.execute<{ id: number }[]>(
    `select f.id from stored_files f where f.created_at < ? and not ${stillReferenced} order by f.id`,
    [olderThan],
  );
  for (const { id } of candidates) {
    let gone: { sha256: string } | undefined;
    try {
      [gone] = await em.execute<{ sha256: string }[]>(
        `delete from stored_files f where f.id = ? and not ${stillReferenced} returning f.sha256`,
        [id],
      );
    } catch (error) {
      // A document naming it was committed between the look and the delete: it is in use again.
      if (isReferenceViolation(error)) continue;
      throw error;
    }
    if (!gone) continue;
    swept.rows += 1;
    if (await store.removeIfUntouched(gone.sha256, minAgeMs, now)) swept.files += 1;
  }

  // Read after the deletes: a row written from now on belongs to an upload that has just
  // written its file, which is too fresh to be removed below.
  const known = new Set((await em.execute<{ sha256: string }[]>('select sha256 from stored_files')).map((r) => r.sha256));
  for (const file of await store.list()) {
    if (known.has(file.sha256) || now - file.mtimeMs < minAgeMs) continue;
    if (await store.removeIfUntouched(file.sha256, minAgeMs, now)) swept.files += 1;
  }
  return swept;
}

/** restrict_violation (the documents' `on delete restrict`) or foreign_key_violation. */
function isReferenceViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23001' || code === '23503';
}
