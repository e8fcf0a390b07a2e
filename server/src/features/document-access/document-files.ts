import type { EntityManager } from '@mikro-orm/postgresql';
import type { Context } from 'koa';
import type { Config } from '../../config';
import { HttpError } from '../../http/errors';
import type { UploadedFile } from '../../http/multipart';
import type { AppState, SessionUser } from '../../http/state';
import { documentFileMessages, identifyDocument } from '../files/document-type';
import type { FileExistence } from '../files/file-existence';
import type { StoredBlob } from '../files/file-store';

/** Who publishes, from where, and what the writes need besides the database. */
export interface DocumentsCall {
  em: EntityManager;
  actor: SessionUser;
  clientAddress: string;
  fileExistence: FileExistence;
  /** The portal's address for the e-mails (from configuration, never from the request). */
  portalUrl: string;
  /** ALLOW_SHARING: delegates with `notify` are told of new documents only while on. */
  allowSharing: boolean;
}

/**
 * The call of an administrator's documents route: its answer is marked no-store (it names
 * investors and their papers), and the e-mails link to the portal of the configuration.
 */
export function documentsCallOf(config: Config, fileExistence: FileExistence): (ctx: Context & { state: AppState }, actor: SessionUser) => DocumentsCall {
  const portalUrl = `${config.publicUrl}/investor-services`;
  return (ctx, actor) => {
    ctx.set('Cache-Control', 'no-store');
    return { em: ctx.state.em, actor, clientAddress: ctx.ip, fileExistence, portalUrl, allowSharing: config.allowSharing };
  };
}

/** The documents' filename columns are varchar(255). */
const maxFilenameLength = 255;

export interface KeptDocumentFile extends StoredBlob {
  filename: string;
  /** The precise type (Word, Excel, PDF) rather than the container's. */
  documentType: string;
}

/**
 * Checks an upload by its content (415) and moves it into the store. Called before the
 * transaction that writes the row naming it, so a row never exists without its file: a crash
 * in between leaves at worst a stored file that no row names, never the reverse.
 */
export async function keepDocumentFile(upload: UploadedFile | null, fileExistence: FileExistence): Promise<KeptDocumentFile> {
  if (!upload) throw new HttpError(400, documentFileMessages.noFile);
  // The name is already cleaned (baseName): no folders, control or bidirectional characters.
  const { filename } = upload;
  if (!filename) throw new HttpError(400, documentFileMessages.noName);
  if ([...filename].length > maxFilenameLength) throw new HttpError(400, documentFileMessages.nameTooLong);
  const identified = await identifyDocument(upload);
  const blob = await upload.keep();
  // A file that was missing is back (a replace with the same bytes changes no row): say so now.
  fileExistence.remember(blob.sha256, true);
  return { ...blob, filename: identified.filename, documentType: identified.contentType };
}

/**
 * The stored_files row of this content, made if it is new. One statement, so that two uploads
 * of the same bytes at the same moment share one row instead of one of them failing.
 */
export async function storedFileId(tx: EntityManager, file: KeptDocumentFile): Promise<number> {
  const [row] = await tx.execute<{ id: number }[]>(
    `insert into stored_files (sha256, size, content_type, created_at) values (?, ?, ?, now())
       on conflict (sha256) do update set sha256 = excluded.sha256
     returning id`,
    [file.sha256, file.size, file.documentType],
  );
  if (!row) throw new Error('stored_files answered no row for an upsert');
  return row.id;
}

/** `%`, `_` and `\` typed into a search box are searched for as themselves. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The panel's one search of personal documents (User Documents and Read Receipts, which must find the same documents): a
 * document `d` whose title or tags, or whose owner `u`'s e-mail, full name or entity, contains
 * the text, in any case.
 */
export function personalDocumentMatch(search: string): { sql: string; params: string[] } {
  return {
    sql: `(d.title ilike ? or d.tags ilike ? or u.email ilike ? or (u.first_name || ' ' || u.last_name) ilike ? or u.entity ilike ?)`,
    params: Array<string>(5).fill(containsPattern(search)),
  };
}
