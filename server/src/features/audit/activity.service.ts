import type { EntityManager } from '@mikro-orm/postgresql';
import {
  activityActionLabel,
  documentReadActions,
  maxActivityCsvRows,
  type ActivityAnswer,
  type ActivityEntry,
  type ActivityEntryAnswer,
  type ActivityPeopleAnswer,
} from '@everest/core/contract';
import { displayName, formatDateTime, timeZone, toCsv, type CsvValue } from '@everest/core/domain';
import { executeBound } from '../../db/bound-query';
import { HttpError } from '../../http/errors';

// The Activity tab reads audit_events. Every query keeps to the staff's changes with
// the very predicate of the partial indexes of migration 20261127180000, so that PostgreSQL uses
// them; reads (preview, download) are left to the read receipts.

/** Audit rows that are staff changes, not document reads. Must match the indexes' predicate. */
const staffChange = `a.action not in (${documentReadActions.map((action) => `'${action}'`).join(', ')})`;

export interface ActivityFilter {
  userId?: number;
  action?: string;
  from?: string;
  to?: string;
}

interface EntryRow {
  id: number;
  at: string;
  actor_id: number | null;
  actor_email: string | null;
  first_name: string | null;
  last_name: string | null;
  entity: string | null;
  action: string;
  subject_type: string | null;
  subject_id: number | string | null;
  subject_label: string | null;
  client_address: string;
  fields: string[] | null;
}

const entryColumns = `
  a.id, to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
  a.user_id as actor_id, coalesce(u.email, a.details->>'actorEmail') as actor_email,
  u.first_name, u.last_name, u.entity, a.action, a.client_address,
  a.details->'subject'->>'type' as subject_type, a.details->'subject'->>'id' as subject_id,
  a.details->'subject'->>'label' as subject_label`;

/** The names of the recorded fields, before and after, in alphabetical order. */
const fieldNames = `(select array_agg(distinct k) from (
    select jsonb_object_keys(case when jsonb_typeof(a.details->'before') = 'object' then a.details->'before' else '{}' end)
    union select jsonb_object_keys(case when jsonb_typeof(a.details->'after') = 'object' then a.details->'after' else '{}' end)) f(k)) as fields`;

function filterSql(filter: ActivityFilter, before: number | undefined): { sql: string; params: unknown[] } {
  const parts = [staffChange];
  const params: unknown[] = [];
  if (filter.userId !== undefined) {
    parts.push('a.user_id = ?');
    params.push(filter.userId);
  }
  if (filter.action !== undefined) {
    parts.push('a.action = ?');
    params.push(filter.action);
  }
  // Calendar days of the firm's time zone (DECISIONS.md: shown in America/Los_Angeles), both included.
  if (filter.from !== undefined) {
    parts.push('a.created_at >= (?::date)::timestamp at time zone ?');
    params.push(filter.from, timeZone);
  }
  if (filter.to !== undefined) {
    parts.push('a.created_at < (?::date + 1)::timestamp at time zone ?');
    params.push(filter.to, timeZone);
  }
  if (before !== undefined) {
    // Keyset: strictly older than the last entry shown, in the list's own order.
    parts.push('(a.created_at, a.id) < (select b.created_at, b.id from audit_events b where b.id = ?)');
    params.push(before);
  }
  return { sql: parts.join(' and '), params };
}

/** The statement of a page (the bench explains it): entries matching `filter`, older than `before`, newest first. */
export function activityPageStatement(filter: ActivityFilter, before: number | undefined, limit: number, extra = ''): { sql: string; params: unknown[] } {
  const where = filterSql(filter, before);
  return {
    sql: `select ${entryColumns}, ${fieldNames}${extra}
       from audit_events a left join users u on u.id = a.user_id
      where ${where.sql}
      order by a.created_at desc, a.id desc
      limit ?`,
    params: [...where.params, limit],
  };
}

async function entryRows(em: EntityManager, filter: ActivityFilter, before: number | undefined, limit: number, extra = ''): Promise<(EntryRow & Record<string, unknown>)[]> {
  const { sql, params } = activityPageStatement(filter, before, limit, extra);
  return executeBound(em, sql, params);
}

function entryOf(row: EntryRow): ActivityEntry {
  const named = row.first_name !== null ? displayName({ firstName: row.first_name, lastName: row.last_name ?? '', entity: row.entity ?? '' }) : '';
  const subjectId = row.subject_id === null ? null : Number(row.subject_id);
  return {
    id: row.id,
    at: row.at,
    actor: { id: row.actor_id, email: row.actor_email ?? '', name: named },
    action: row.action,
    subject: { type: row.subject_type ?? '', id: Number.isSafeInteger(subjectId) ? subjectId : null, label: row.subject_label ?? '' },
    clientAddress: row.client_address,
    fields: row.fields ?? [],
  };
}

/** A page of the staff's changes, newest first; one row more than asked tells whether more follow. */
export async function listActivity(em: EntityManager, filter: ActivityFilter, before: number | undefined, limit: number): Promise<ActivityAnswer> {
  const rows = await entryRows(em, filter, before, limit + 1);
  const entries = rows.slice(0, limit).map(entryOf);
  return { entries, nextBefore: rows.length > limit ? (entries.at(-1)?.id ?? null) : null };
}

const asFields = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export async function activityEntry(em: EntityManager, id: number): Promise<ActivityEntryAnswer> {
  const [row] = await executeBound<EntryRow & { before: unknown; after: unknown }>(
    em,
    `select ${entryColumns}, ${fieldNames}, a.details->'before' as before, a.details->'after' as after
       from audit_events a left join users u on u.id = a.user_id
      where a.id = ? and ${staffChange}`,
    [id],
  );
  // A read's row is no Activity entry: the same answer as one that does not exist.
  if (!row) throw new HttpError(404, 'Activity entry not found.');
  return { ...entryOf(row), before: asFields(row.before), after: asFields(row.after) };
}

/**
 * Everyone who has an entry, for the person filter: a loose index scan over the user index (one
 * probe per person), since `select distinct` would read every row.
 */
export async function activityPeople(em: EntityManager): Promise<ActivityPeopleAnswer> {
  const rows = await executeBound<{ id: number; email: string; first_name: string; last_name: string; entity: string }>(
    em,
    `with recursive actors(user_id) as (
       (select a.user_id from audit_events a where ${staffChange} and a.user_id is not null order by a.user_id limit 1)
       union all
       select (select a.user_id from audit_events a where ${staffChange} and a.user_id > actors.user_id order by a.user_id limit 1)
         from actors where actors.user_id is not null)
     select u.id, u.email, u.first_name, u.last_name, u.entity from actors join users u on u.id = actors.user_id`,
  );
  const people = rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: displayName({ firstName: row.first_name, lastName: row.last_name, entity: row.entity }),
  }));
  return { people: people.sort((a, b) => a.name.localeCompare(b.name) || a.email.localeCompare(b.email)) };
}

/** Excel's most characters in a cell; a longer value is cut there and says so. */
const maxCellLength = 32_000;
const cutNote = ' … (cut here: open the entry in the panel for the rest)';

function jsonCell(value: unknown): CsvValue {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > maxCellLength ? `${text.slice(0, maxCellLength - cutNote.length)}${cutNote}` : text;
}

/**
 * The filtered view as CSV, newest first, through the one CSV writer (formula cells neutralised).
 * Read by keyset in batches, as the pages are; `truncated` when the view holds more than the cap.
 */
export async function activityCsv(em: EntityManager, filter: ActivityFilter): Promise<{ csv: string; filename: string; truncated: boolean }> {
  const lines: CsvValue[][] = [
    ['Time (Pacific)', 'Time (UTC)', 'Person', 'Person e-mail', 'Action', 'Action code', 'Subject type', 'Subject', 'Subject id', 'From address', 'Fields', 'Before', 'After'],
  ];
  const batch = 1000;
  let before: number | undefined;
  let truncated = false;
  for (;;) {
    const rows = await entryRows(em, filter, before, batch, `, a.details->'before' as before, a.details->'after' as after`);
    for (const row of rows) {
      if (lines.length > maxActivityCsvRows) {
        truncated = true;
        break;
      }
      const entry = entryOf(row);
      lines.push([
        formatDateTime(entry.at),
        entry.at,
        entry.actor.name,
        entry.actor.email,
        activityActionLabel(entry.action),
        entry.action,
        entry.subject.type,
        entry.subject.label,
        entry.subject.id,
        entry.clientAddress,
        entry.fields.join(' '),
        jsonCell(row.before),
        jsonCell(row.after),
      ]);
    }
    if (truncated || rows.length < batch) break;
    before = rows.at(-1)?.id;
  }
  return { csv: toCsv(lines), filename: 'activity.csv', truncated };
}
