import type { EntityManager } from '@mikro-orm/postgresql';
import type { PropertyDocument, PersonalDocument } from '@everest/core/contract';
import { defaultPropertyGroup } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { AuditEvent } from '../audit/audit-event.entity';
import type { NotifiedCache } from '../../db/notified-cache';
import type { FileExistence } from '../files/file-existence';
import { documentPolicy, type LiveShare, type SqlCondition } from './document-policy';

interface PropertyDocumentRow {
  id: number;
  title: string;
  property: string | null;
  year: number;
  quarter: PropertyDocument['quarter'];
  filename: string;
  size: string;
  sha256: string;
  uploaded_at: string;
  version: number;
  corrected_at: string | null;
}

interface PersonalDocumentRow extends Omit<PropertyDocumentRow, 'property'> {
  document_category: PersonalDocument['documentCategory'];
  description: string;
  document_date: string | null;
  tags: string;
  user_email: string;
  user_id: number;
}

// Timestamps leave PostgreSQL as ISO 8601 in UTC, ready for the answer.
const uploadedAt = `to_char(d.uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as uploaded_at,
  d.version, to_char(d.corrected_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as corrected_at`;
const propertyColumns = `d.id, d.title, p.name as property, d.year, d.quarter, d.filename, f.size, f.sha256, ${uploadedAt}`;
const personalColumns = `d.id, d.title, d.document_category, d.description, to_char(d.document_date, 'YYYY-MM-DD') as document_date,
  d.tags, u.email as user_email, d.user_id, d.year, d.quarter, d.filename, f.size, f.sha256, ${uploadedAt}`;

function toPropertyDocument(row: PropertyDocumentRow, fileExists: boolean): PropertyDocument {
  return {
    id: row.id,
    title: row.title,
    property: row.property ?? defaultPropertyGroup,
    year: row.year,
    quarter: row.quarter,
    filename: row.filename,
    fileSize: Number(row.size),
    uploadedAt: row.uploaded_at,
    fileExists,
    documentType: 'property',
    version: row.version,
    correctedAt: row.corrected_at,
  };
}

function toPersonalDocument(row: PersonalDocumentRow, fileExists: boolean): PersonalDocument {
  return {
    id: row.id,
    title: row.title,
    documentCategory: row.document_category,
    description: row.description,
    documentDate: row.document_date,
    tags: row.tags,
    userEmail: row.user_email,
    assignedUserId: row.user_id,
    uploadedAt: row.uploaded_at,
    filename: row.filename,
    fileSize: Number(row.size),
    documentType: 'personal',
    year: row.year,
    quarter: row.quarter,
    fileExists,
    version: row.version,
    correctedAt: row.corrected_at,
  };
}

// The list's documents as JSON.stringify writes them (their keys in the contract's order), written
// by PostgreSQL's row_to_json: compact, escaped as JSON.stringify escapes, numbers and booleans
// bare. A file known to be missing is named in the `{…}` array parameter; `opened` is the
// reader's (or, through a share, its owner's) first read, from `document_reads`.
const listedPersonalDocument = `row_to_json(r)::text from user_documents d
  join stored_files f on f.id = d.file_id
  join users u on u.id = d.user_id
  cross join lateral (select d.id, d.title, d.document_category as "documentCategory", d.description,
    to_char(d.document_date, 'YYYY-MM-DD') as "documentDate", d.tags, u.email as "userEmail", d.user_id as "assignedUserId",
    ${isoTime('d.uploaded_at')} as "uploadedAt", d.filename, f.size as "fileSize", text 'personal' as "documentType", d.year, d.quarter,
    f.sha256 <> all(?::text[]) as "fileExists", d.version, ${isoTime('d.corrected_at')} as "correctedAt",
    exists (select 1 from document_reads o where o.user_id = ? and o.document_type = 'personal' and o.document_id = d.id) as opened) r`;

function isoTime(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * A property document as every investor's list writes it, in two pieces around what is each
 * reader's: `head` + fileExists + `tail` + opened + `}`.
 */
export interface ListedPropertyDocument {
  id: number;
  sha256: string;
  head: string;
  tail: string;
}

/** Each property's (and 'General''s) documents as the lists write them, by cacheTable.propertyDocuments's key. */
export type PropertyDocumentCache = NotifiedCache<ListedPropertyDocument[]>;

/** The listed documents of these property groups (cacheTable.propertyDocuments's keys), by group. */
async function loadPropertyDocuments(em: EntityManager, groups: string[]): Promise<Map<string, ListedPropertyDocument[]>> {
  const ids = groups.filter((group) => group !== 'general');
  const rows = await em.getConnection().execute<(ListedPropertyDocument & { group: string })[]>(
    `select coalesce(d.property_id::text, 'general') as "group", d.id, f.sha256,
            left(row_to_json(h)::text, -1) || ',"fileExists":' as head,
            ',"documentType":"property","version":' || d.version || ',"correctedAt":'
              || coalesce('"' || ${isoTime('d.corrected_at')} || '"', 'null') || ',"opened":' as tail
       from property_documents d
       join stored_files f on f.id = d.file_id
       left join properties p on p.id = d.property_id
       cross join lateral (select d.id, d.title, coalesce(p.name, ?) as "property", d.year, d.quarter, d.filename,
         f.size as "fileSize", ${isoTime('d.uploaded_at')} as "uploadedAt") h
      where d.property_id = any(?::int[]) or (d.property_id is null and ?)
      order by d.id`,
    [defaultPropertyGroup, `{${ids.join(',')}}`, groups.includes('general')],
  );
  const byGroup = new Map<string, ListedPropertyDocument[]>(groups.map((group) => [group, []]));
  for (const { group, ...document } of rows) byGroup.get(group)?.push(document);
  return byGroup;
}

/**
 * These groups' listed documents, from memory, the missing ones read in one statement (a group
 * another request is reading is waited for, not read twice).
 */
function propertyDocumentsOf(em: EntityManager, cache: PropertyDocumentCache, groups: string[]): Promise<ListedPropertyDocument[][]> {
  const missing = groups.filter((group) => cache.ready(group) === undefined);
  let loading: Promise<Map<string, ListedPropertyDocument[]>> | undefined;
  const load = () => (loading ??= loadPropertyDocuments(em, missing));
  return Promise.all(groups.map((group) => cache.get(group, async () => (await load()).get(group) ?? [])));
}

/**
 * The caller's documents of both kinds, as the policy allows: the property documents they may
 * read and their own personal documents; or, through `share`, what it covers of its owner's
 * (with the owner's 'New' badges: a delegate's open counts as the owner's). The answer's JSON
 * (`{"documents":[…]}`, as JSON.stringify would write it): this is the portal's busiest call.
 *
 * Most of a list is its property documents, the same for every investor of a property: they are
 * kept written, per property (`propertyDocuments`), and one statement reads what is the caller's
 * alone: which property groups the policy opens to them, which property documents they have
 * opened, and their personal documents, written by PostgreSQL.
 */
export async function listInvestorDocumentsJson(
  em: EntityManager,
  user: SessionUser,
  files: FileExistence,
  propertyDocuments: PropertyDocumentCache,
  share: LiveShare | null = null,
): Promise<string> {
  const propertyScope = documentPolicy.propertyDocuments(user, share);
  const personalScope = documentPolicy.ownPersonalDocuments(user, share);
  const reader = share ? share.ownerId : user.id;
  const select = async (missing: string[]) => {
    // The policy's condition on property documents reads `d.property_id` alone, so it is asked
    // here of each property group: every property, and 'General' (null).
    const [row] = await em.getConnection().execute<{ groups: string | null; opened: string | null; personal: string; files: string | null }[]>(
      `with personal (id, sha256, document) as (select d.id, f.sha256, ${listedPersonalDocument} where ${personalScope.sql})
       select (select string_agg(coalesce(d.property_id::text, 'general'), ',')
                 from (select id from properties union all select null) d (property_id) where ${propertyScope.sql}) as groups,
              (select string_agg(o.document_id::text, ',') from document_reads o
                where o.user_id = ? and o.document_type = 'property') as opened,
              (select coalesce(string_agg(document, ',' order by id), '') from personal) as personal,
              (select string_agg(distinct sha256, ',') from personal) as files`,
      [`{${missing.join(',')}}`, reader, ...personalScope.params, ...propertyScope.params, reader],
    );
    return row ?? { groups: null, opened: null, personal: '', files: null };
  };
  let own = await select([]);
  const groups = own.groups ? own.groups.split(',') : [];
  const [listed, personalFiles] = await Promise.all([
    propertyDocumentsOf(em, propertyDocuments, groups).then((lists) => lists.flat().sort((a, b) => a.id - b.id)),
    own.files ? own.files.split(',') : [],
  ]);
  const existing = await files.existing([...listed.map((document) => document.sha256), ...personalFiles]);
  const missingPersonal = personalFiles.filter((sha256) => !existing.has(sha256));
  // Rare (a file gone from disk): the personal documents again, those files' marked missing.
  if (missingPersonal.length > 0) own = await select(missingPersonal);
  const opened = new Set(own.opened ? own.opened.split(',').map(Number) : []);
  // Pieces joined once, so that no document's JSON is made as a string of its own.
  const pieces = ['{"documents":['];
  for (const document of listed) {
    pieces.push(document.head, existing.has(document.sha256) ? 'true' : 'false', document.tail, opened.has(document.id) ? 'true}' : 'false}', ',');
  }
  if (own.personal) pieces.push(own.personal);
  else if (listed.length > 0) pieces.pop();
  pieces.push(']}');
  return pieces.join('');
}

export interface ReadableFile {
  documentId: number;
  documentType: 'property' | 'personal';
  filename: string;
  sha256: string;
  size: number;
  contentType: string;
}

/**
 * One document the caller may read, or a 404 that says nothing about whether it exists:
 * another investor's document and a document that never existed look the same.
 */
export async function findReadableFile(
  em: EntityManager,
  user: SessionUser,
  id: number,
  type: 'property' | 'user',
  share: LiveShare | null = null,
): Promise<ReadableFile> {
  const personal = type === 'user';
  const scope = personal ? documentPolicy.personalDocuments(user, share) : documentPolicy.propertyDocuments(user, share);
  const rows = await em.getConnection().execute<{ filename: string; sha256: string; size: string; content_type: string }[]>(
    `select d.filename, f.sha256, f.size, f.content_type
       from ${personal ? 'user_documents' : 'property_documents'} d
       join stored_files f on f.id = d.file_id
      where d.id = ? and ${scope.sql}`,
    [id, ...scope.params],
  );
  const row = rows[0];
  if (!row) throw new HttpError(404, 'This document does not exist or is not available to you.');
  return {
    documentId: id,
    documentType: personal ? 'personal' : 'property',
    filename: row.filename,
    sha256: row.sha256,
    size: Number(row.size),
    contentType: row.content_type,
  };
}

/** A ranged read this soon after the user's last read of the document is that read going on. */
export const rangedReadWindowMs = 10 * 60_000;

/**
 * Writes who opened which document, how and from where: the basis for read receipts. Every read
 * of the content counts, a range of it too (`bytes=1-` is the whole file but a byte);
 * a range within `rangedReadWindowMs` of the user's last read of it is a viewer fetching the
 * rest or a download resuming, and is not counted again.
 *
 * A read through a share is the delegate's row, "read by X on behalf of Y": the owner
 * in `details.onBehalfOf`, from which the receipts' trigger counts it as the owner's open
 * (migration 20261127200000).
 */
export async function auditDocumentRead(
  em: EntityManager,
  user: SessionUser,
  file: ReadableFile,
  action: 'preview' | 'download',
  clientAddress: string,
  ranged = false,
  share: LiveShare | null = null,
): Promise<void> {
  if (ranged) {
    const since = new Date(Date.now() - rangedReadWindowMs);
    // Through a share, this delegate's own last read on that owner's behalf: the owner's row also
    // holds the owner's and other delegates' reads, which are not this one going on.
    const recent = share
      ? await em.getConnection().execute<unknown[]>(
          `select 1 from audit_events where document_type = ? and document_id = ? and user_id = ? and action in ('preview', 'download')
              and (details->'onBehalfOf'->>'userId')::int = ? and created_at > ? limit 1`,
          [file.documentType, file.documentId, user.id, share.ownerId, since],
        )
      : await em.getConnection().execute<unknown[]>(
          'select 1 from document_reads where user_id = ? and document_type = ? and document_id = ? and last_opened_at > ?',
          [user.id, file.documentType, file.documentId, since],
        );
    if (recent.length > 0) return;
  }
  em.create(AuditEvent, {
    user: user.id,
    action,
    documentType: file.documentType,
    documentId: file.documentId,
    clientAddress,
    details: share ? { onBehalfOf: { userId: share.ownerId, email: share.ownerEmail }, shareId: share.id } : null,
  });
  await em.flush();
}

/**
 * Property documents as the lists answer them, for the administration panel: `where` on
 * `property_documents` aliased `d`, then `tail` (order, limit).
 */
export async function selectPropertyDocuments(
  em: EntityManager,
  files: FileExistence,
  where: SqlCondition,
  tail = 'order by d.id',
): Promise<PropertyDocument[]> {
  const rows = await em.execute<PropertyDocumentRow[]>(
    `select ${propertyColumns} from property_documents d
       join stored_files f on f.id = d.file_id
       left join properties p on p.id = d.property_id
      where ${where.sql} ${tail}`,
    where.params,
  );
  const existing = await files.existing(rows.map((row) => row.sha256));
  return rows.map((row) => toPropertyDocument(row, existing.has(row.sha256)));
}

/** Personal documents with their owners' e-mails, as `selectPropertyDocuments` does for property documents. */
export async function selectPersonalDocuments(
  em: EntityManager,
  files: FileExistence,
  where: SqlCondition,
  tail = 'order by d.id',
): Promise<PersonalDocument[]> {
  const rows = await em.execute<PersonalDocumentRow[]>(
    `select ${personalColumns} from user_documents d
       join stored_files f on f.id = d.file_id
       join users u on u.id = d.user_id
      where ${where.sql} ${tail}`,
    where.params,
  );
  const existing = await files.existing(rows.map((row) => row.sha256));
  return rows.map((row) => toPersonalDocument(row, existing.has(row.sha256)));
}
