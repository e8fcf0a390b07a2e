import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ReceiptDocument,
  type ReceiptDocumentAnswer,
  type ReceiptDocumentsAnswer,
  type ReceiptDocumentSummary,
  type ReceiptDocumentType,
  type ReceiptInvestorAnswer,
} from '@everest/core/contract';
import { defaultPropertyGroup, displayName, formatDateTime, toCsv, type CsvValue } from '@everest/core/domain';
import { executeBound } from '../../db/bound-query';
import { personalDocumentMatch } from '../document-access/document-files';
import { HttpError } from '../../http/errors';

// Every query here is one statement over sets: the documents of a page with their counts, the
// investors of a document, the documents of an investor, the reminders of a whole choice. None
// asks once per document or per investor. Who is entitled:
// - a property document: every active investor and employee with access to its property, and
//   for 'General' (no property) every one of them (DECISIONS.md);
// - a personal document: its owner, while active.
// Administrators read everything and are nobody's audience: they are never counted.

/** Users a property document is published to (DECISIONS.md: employees see what investors see). */
export const audience = `u.is_active and u.role in ('user', 'everest_employee')`;
/** `u` may read property document `d`. */
export const mayReadProperty = `(d.property_id is null or exists (
  select 1 from property_access pa where pa.user_id = u.id and pa.property_id = d.property_id))`;

/** A timestamp as ISO 8601 in UTC, as the answers carry them. */
export const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Every document with what the views show of it: a union of both kinds with the same columns,
 * `entitled_count` and `opened_count` computed from grouped access counts and the reads table.
 */
const documentsWithCounts = `
  with audience as (select u.id from users u where ${audience}),
  audience_count as (select count(*)::int as n from audience),
  access_counts as (
    select pa.property_id, count(*)::int as n from property_access pa join audience a on a.id = pa.user_id group by pa.property_id),
  property_reads as (
    select r.document_id, count(*)::int as n
      from document_reads r join users u on u.id = r.user_id join property_documents d on d.id = r.document_id
     where r.document_type = 'property' and ${audience} and ${mayReadProperty}
     group by r.document_id),
  docs as (
    select 'property'::text as document_type, d.id, d.title, coalesce(p.name, '${defaultPropertyGroup}') as context,
           d.year, d.quarter, d.uploaded_at,
           case when d.property_id is null then (select n from audience_count) else coalesce(ac.n, 0) end as entitled_count,
           coalesce(pr.n, 0) as opened_count
      from property_documents d
      left join properties p on p.id = d.property_id
      left join access_counts ac on ac.property_id = d.property_id
      left join property_reads pr on pr.document_id = d.id
    union all
    select 'personal', d.id, d.title, u.email, d.year, d.quarter, d.uploaded_at,
           case when u.is_active then 1 else 0 end,
           case when u.is_active and exists (select 1 from document_reads r
             where r.user_id = d.user_id and r.document_type = 'personal' and r.document_id = d.id) then 1 else 0 end
      from user_documents d join users u on u.id = d.user_id)`;

interface SummaryRow {
  document_type: ReceiptDocumentType;
  id: number;
  title: string;
  context: string;
  year: number;
  quarter: ReceiptDocument['quarter'];
  uploaded_at: string;
  entitled_count: number;
  opened_count: number;
  last_reminded_at: string | null;
  total_count: string;
}

/** The answer's columns of a page of `docs` (aliased `page`): the last reminder is looked up for its rows only. */
const summaryColumns = `page.document_type, page.id, page.title, page.context, page.year, page.quarter,
  ${iso('page.uploaded_at')} as uploaded_at, page.entitled_count, page.opened_count, page.total_count,
  (select ${iso('max(m.reminded_at)')} from document_reminders m
    where m.document_type = page.document_type and m.document_id = page.id) as last_reminded_at`;

function toSummary(row: SummaryRow): ReceiptDocumentSummary {
  return {
    documentType: row.document_type,
    id: row.id,
    title: row.title,
    context: row.context,
    year: row.year,
    quarter: row.quarter,
    uploadedAt: row.uploaded_at,
    entitledCount: row.entitled_count,
    openedCount: row.opened_count,
    lastRemindedAt: row.last_reminded_at,
  };
}

export interface ReceiptPage {
  page: number;
  limit: number;
  notOpened: boolean;
}

/** A page of every document, newest first, with who may read it and how many did. */
export async function listReceiptDocuments(em: EntityManager, query: ReceiptPage & { search?: string }): Promise<ReceiptDocumentsAnswer> {
  const search = query.search?.trim() ?? '';
  // A property document by its title or property; a personal one as User Documents searches it
  // (its owner's name, entity and e-mail too: 'carter' once found Carter there and nothing here).
  const personal = personalDocumentMatch(search);
  const where = `(? = '' or strpos(lower(docs.title || ' ' || docs.context), lower(?)) > 0
      or (docs.document_type = 'personal' and exists (
        select 1 from user_documents d join users u on u.id = d.user_id where d.id = docs.id and ${personal.sql})))
    and (not ? or docs.opened_count < docs.entitled_count)`;
  const params = [search, search, ...personal.params, query.notOpened];
  const rows = await executeBound<SummaryRow>(
    em,
    `${documentsWithCounts}
     select ${summaryColumns} from (
       select docs.*, count(*) over () as total_count from docs
        where ${where}
        order by docs.uploaded_at desc, docs.document_type, docs.id desc
        limit ? offset ?) page
      order by page.uploaded_at desc, page.document_type, page.id desc`,
    [...params, query.limit, (query.page - 1) * query.limit],
  );
  let totalCount = Number(rows[0]?.total_count ?? 0);
  if (rows.length === 0 && query.page > 1) {
    // Past the last match no row carries the count.
    const [count] = await executeBound<{ n: number }>(em, `${documentsWithCounts} select count(*)::int as n from docs where ${where}`, params);
    totalCount = count?.n ?? 0;
  }
  return { documents: rows.map(toSummary), totalCount };
}

async function documentSummary(em: EntityManager, documentType: ReceiptDocumentType, id: number): Promise<ReceiptDocumentSummary> {
  const [row] = await executeBound<SummaryRow>(
    em,
    `${documentsWithCounts} select ${summaryColumns} from (select docs.*, 1 as total_count from docs where docs.document_type = ? and docs.id = ?) page`,
    [documentType, id],
  );
  if (!row) throw new HttpError(404, 'This document does not exist.');
  return toSummary(row);
}

interface PersonRow {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  entity: string;
}

interface OpeningRow {
  first_opened_at: string | null;
  last_opened_at: string | null;
  opens: number;
  last_reminded_at: string | null;
  opened_by: PersonRow[];
  total_count: string;
}

// Reads through a share are filed under the owner (migration 20261127200000), with the
// delegates who made them; a delegate deleted since drops out here.
const openingColumns = `${iso('r.first_opened_at')} as first_opened_at, ${iso('r.last_opened_at')} as last_opened_at,
  coalesce(r.opens, 0) as opens, ${iso('m.reminded_at')} as last_reminded_at,
  (select coalesce(json_agg(json_build_object('user_id', du.id, 'email', du.email, 'first_name', du.first_name, 'last_name', du.last_name, 'entity', du.entity)
            order by du.email), '[]') from users du where du.id = any(r.delegate_ids)) as opened_by`;

interface DocumentInvestorRow extends OpeningRow {
  user_id: number;
  email: string;
  first_name: string;
  last_name: string;
  entity: string;
}

/** The entitled investors of one document (`limit` null: all of them), those who have not opened it first. */
async function documentInvestorRows(
  em: EntityManager,
  documentType: ReceiptDocumentType,
  id: number,
  page: ReceiptPage | null,
): Promise<DocumentInvestorRow[]> {
  const entitled =
    documentType === 'property'
      ? `select u.* from property_documents d join users u on ${audience} and ${mayReadProperty} where d.id = ?`
      : `select u.* from user_documents d join users u on u.id = d.user_id and u.is_active where d.id = ?`;
  return executeBound<DocumentInvestorRow>(
    em,
    `with entitled as (${entitled})
     select e.id as user_id, e.email, e.first_name, e.last_name, e.entity, ${openingColumns}, count(*) over () as total_count
       from entitled e
       left join document_reads r on r.user_id = e.id and r.document_type = ? and r.document_id = ?
       left join document_reminders m on m.user_id = e.id and m.document_type = ? and m.document_id = ?
      where not ? or r.id is null
      order by r.id is not null, e.email
      ${page ? 'limit ? offset ?' : ''}`,
    [id, documentType, id, documentType, id, page?.notOpened ?? false, ...(page ? [page.limit, (page.page - 1) * page.limit] : [])],
  );
}

const investorOf = (row: PersonRow) => ({
  userId: row.user_id,
  email: row.email,
  name: displayName({ firstName: row.first_name, lastName: row.last_name, entity: row.entity }),
});

const openingOf = (row: OpeningRow) => ({
  firstOpenedAt: row.first_opened_at,
  lastOpenedAt: row.last_opened_at,
  opens: row.opens,
  lastRemindedAt: row.last_reminded_at,
  openedBy: row.opened_by.map(investorOf),
});

/** One document: its counts, and a page of its entitled investors with when they opened it. */
export async function documentReceipt(
  em: EntityManager,
  documentType: ReceiptDocumentType,
  id: number,
  page: ReceiptPage,
): Promise<ReceiptDocumentAnswer> {
  const document = await documentSummary(em, documentType, id);
  const rows = await documentInvestorRows(em, documentType, id, page);
  return {
    document,
    investors: rows.map((row) => ({ ...investorOf(row), ...openingOf(row) })),
    // A page past the end carries no row; the count is then that of the filter's first page.
    totalCount: rows.length > 0 ? Number(rows[0]!.total_count) : page.notOpened ? document.entitledCount - document.openedCount : document.entitledCount,
  };
}

interface InvestorDocumentRow extends OpeningRow {
  document_type: ReceiptDocumentType;
  id: number;
  title: string;
  context: string;
  year: number;
  quarter: ReceiptDocument['quarter'];
  uploaded_at: string;
  entitled_count: string;
  opened_count: string;
  investor_last_reminded_at: string | null;
}

async function investorDocumentRows(em: EntityManager, userId: number, page: ReceiptPage | null): Promise<InvestorDocumentRow[]> {
  return executeBound<InvestorDocumentRow>(
    em,
    `with docs as (
       select 'property'::text as document_type, d.id, d.title, coalesce(p.name, '${defaultPropertyGroup}') as context, d.year, d.quarter, d.uploaded_at
         from users u join property_documents d on ${mayReadProperty}
         left join properties p on p.id = d.property_id
        where u.id = ? and ${audience}
       union all
       select 'personal', d.id, d.title, u.email, d.year, d.quarter, d.uploaded_at
         from users u join user_documents d on d.user_id = u.id
        where u.id = ? and u.is_active),
     opened as (
       select docs.*, ${openingColumns}, r.id as read_id,
              count(*) over () as entitled_count, count(r.id) over () as opened_count,
              ${iso('max(m.reminded_at) over ()')} as investor_last_reminded_at
         from docs
         left join document_reads r on r.user_id = ? and r.document_type = docs.document_type and r.document_id = docs.id
         left join document_reminders m on m.user_id = ? and m.document_type = docs.document_type and m.document_id = docs.id)
     select opened.document_type, opened.id, opened.title, opened.context, opened.year, opened.quarter,
            ${iso('opened.uploaded_at')} as uploaded_at, opened.first_opened_at, opened.last_opened_at, opened.opens,
            opened.last_reminded_at, opened.opened_by, opened.entitled_count, opened.opened_count, opened.investor_last_reminded_at,
            count(*) over () as total_count
       from opened
      where not ? or opened.read_id is null
      order by opened.read_id is not null, opened.uploaded_at desc, opened.document_type, opened.id desc
      ${page ? 'limit ? offset ?' : ''}`,
    [userId, userId, userId, userId, page?.notOpened ?? false, ...(page ? [page.limit, (page.page - 1) * page.limit] : [])],
  );
}

async function investorHead(em: EntityManager, userId: number) {
  const [row] = await executeBound<{ user_id: number; email: string; first_name: string; last_name: string; entity: string }>(
    em,
    'select id as user_id, email, first_name, last_name, entity from users where id = ?',
    [userId],
  );
  if (!row) throw new HttpError(404, 'This user does not exist.');
  return investorOf(row);
}

/** One investor: how many documents they may read and opened, and a page of those documents. */
export async function investorReceipt(em: EntityManager, userId: number, page: ReceiptPage): Promise<ReceiptInvestorAnswer> {
  const investor = await investorHead(em, userId);
  const rows = await investorDocumentRows(em, userId, page);
  // The counts come with every row; a page with no row asks the first page of everything for them.
  const counts = rows[0] ?? (await investorDocumentRows(em, userId, { page: 1, limit: 1, notOpened: false }))[0];
  const entitledCount = Number(counts?.entitled_count ?? 0);
  const openedCount = Number(counts?.opened_count ?? 0);
  return {
    investor: { ...investor, entitledCount, openedCount, lastRemindedAt: counts?.investor_last_reminded_at ?? null },
    documents: rows.map((row) => ({
      documentType: row.document_type,
      id: row.id,
      title: row.title,
      context: row.context,
      year: row.year,
      quarter: row.quarter,
      uploadedAt: row.uploaded_at,
      ...openingOf(row),
    })),
    totalCount: rows.length > 0 ? Number(rows[0]!.total_count) : page.notOpened ? entitledCount - openedCount : entitledCount,
  };
}

/** Times in the CSV files as the panel shows them (DESIGN.md: America/Los_Angeles). */
const csvTime = (value: string | null) => formatDateTime(value, '');
const openingCells = (row: OpeningRow): CsvValue[] => [
  row.first_opened_at ? 'Yes' : 'No',
  csvTime(row.first_opened_at),
  csvTime(row.last_opened_at),
  row.opens,
  csvTime(row.last_reminded_at),
  row.opened_by.map((person) => person.email).join(', '),
];
const openingHeader = ['Opened', 'First opened (Pacific time)', 'Last opened (Pacific time)', 'Opens', 'Last reminded (Pacific time)', 'Opened on their behalf by'];

/** Every entitled investor of a document as CSV, through core's `toCsv` (formula-escaped cells). */
export async function documentReceiptCsv(em: EntityManager, documentType: ReceiptDocumentType, id: number): Promise<{ csv: string; filename: string }> {
  const document = await documentSummary(em, documentType, id);
  const rows = await documentInvestorRows(em, documentType, id, null);
  const csv = toCsv([
    ['Document', documentType === 'property' ? 'Property' : 'Owner', 'Year', 'Quarter', 'Investor e-mail', 'Investor name', ...openingHeader],
    ...rows.map((row) => [document.title, document.context, document.year, document.quarter, row.email, investorOf(row).name, ...openingCells(row)]),
  ]);
  return { csv, filename: `read-receipts-${documentType}-${id}.csv` };
}

/** Every document an investor may read as CSV. */
export async function investorReceiptCsv(em: EntityManager, userId: number): Promise<{ csv: string; filename: string }> {
  const investor = await investorHead(em, userId);
  const rows = await investorDocumentRows(em, userId, null);
  const csv = toCsv([
    ['Investor e-mail', 'Investor name', 'Document', 'Kind', 'Property or owner', 'Year', 'Quarter', ...openingHeader],
    ...rows.map((row) => [investor.email, investor.name, row.title, row.document_type, row.context, row.year, row.quarter, ...openingCells(row)]),
  ]);
  return { csv, filename: `read-receipts-investor-${userId}.csv` };
}
