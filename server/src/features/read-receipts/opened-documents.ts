import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The documents `userId` has previewed or downloaded at least once, as 'property:12' and
 * 'personal:7': the portal's list marks the others 'New'. One index range of `document_reads`.
 */
export async function openedDocumentKeys(em: EntityManager, userId: number): Promise<Set<string>> {
  const rows = await em
    .getConnection()
    .execute<{ key: string }[]>(`select document_type || ':' || document_id as key from document_reads where user_id = ?`, [userId]);
  return new Set(rows.map((row) => row.key));
}
