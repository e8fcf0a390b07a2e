import type { EntityManager } from '@mikro-orm/postgresql';
import { reminderIntervalDays, type ReceiptDocumentType, type RemindAnswer, type RemindBody } from '@everest/core/contract';
import { defaultPropertyGroup, displayName } from '@everest/core/domain';
import { executeBound } from '../../db/bound-query';
import type { SessionUser } from '../../http/state';
import { recordAdminAction } from '../audit/admin-audit';
import { enqueueMailBatch } from '../mail/outbox';
import { escapeHtml, escapeLines } from '../mail/templates';
import { audience, iso, mayReadProperty } from './read-receipts.service';
import { documentReminderMail, reminderFields } from './reminder-mail';

// Reminders of unopened documents: the investors entitled to a document (the read receipts' own
// rule) who have not opened it, one e-mail each, never twice within the reminder interval.

interface ReminderRow {
  unopened: number;
  user_id: number | null;
  document_type: ReceiptDocumentType;
  document_id: number;
  email: string;
  first_name: string;
  last_name: string;
  entity: string;
  title: string;
  context: string;
  year: number;
  quarter: string;
  reminded_at: string;
}

export interface RemindCall {
  em: EntityManager;
  actor: SessionUser;
  clientAddress: string;
  portalUrl: string;
}

/** The unopened pairs reminded now: recorded, unless reminded within the interval (the upsert's condition). */
const remindNow = `
  insert into document_reminders (user_id, document_type, document_id, reminded_at)
  select user_id, document_type, document_id, now() from unopened
  on conflict (user_id, document_type, document_id) do update set reminded_at = excluded.reminded_at
    where document_reminders.reminded_at <= excluded.reminded_at - make_interval(days => ?)
  returning user_id, document_type, document_id, reminded_at`;

/** The same pairs, only looked at: those remindNow would record (a dry run, so the button can say whom it will e-mail). */
const wouldRemind = `
  select e.user_id, e.document_type, e.document_id, now() as reminded_at from unopened e
   where not exists (select 1 from document_reminders m
     where m.user_id = e.user_id and m.document_type = e.document_type and m.document_id = e.document_id
       and m.reminded_at > now() - make_interval(days => ?))`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function remindMessage(counts: { remindedInvestors: number; distinctDocuments: number }, unopened: number, mode: 'sent' | 'dry run'): string {
  if (counts.remindedInvestors === 0) {
    if (unopened === 0) return 'Everyone has opened these documents.';
    const nobody = mode === 'sent' ? 'Nobody was reminded' : 'Nobody would be reminded';
    return `${nobody}: every investor who has not opened these documents was reminded within the last ${reminderIntervalDays} days.`;
  }
  const investors = plural(counts.remindedInvestors, 'investor', 'investors');
  const documents = plural(counts.distinctDocuments, 'document', 'documents');
  return mode === 'sent' ? `Reminded ${investors} of ${documents}.` : `This will e-mail ${investors} about ${documents}.`;
}

/**
 * Reminds every entitled investor (or only `userIds`) who has not opened some of the chosen
 * documents: one e-mail each, listing all of theirs. One statement finds the unopened pairs and
 * records the reminders, skipping pairs reminded within 7 days (the upsert's condition, so two
 * administrators pressing at once cannot both send); the e-mails and the audit row commit with it.
 * With `dryRun` the same statement only looks: the answer's counts, nothing sent or
 * written.
 */
export async function remindUnopened({ em, actor, clientAddress, portalUrl }: RemindCall, body: RemindBody): Promise<RemindAnswer> {
  const documents = body.documents ? JSON.stringify(body.documents.map((d) => ({ document_type: d.documentType, id: d.id }))) : null;
  const users = body.userIds ? JSON.stringify(body.userIds) : null;
  return em.transactional(async (tx) => {
    const rows = await executeBound<ReminderRow>(
      tx,
      `with chosen as (select * from jsonb_to_recordset(?::jsonb) as c(document_type text, id int)),
       chosen_users as (select value::int as id from jsonb_array_elements_text(?::jsonb)),
       entitled as (
         select u.id as user_id, 'property'::text as document_type, d.id as document_id
           from property_documents d join users u on ${audience} and ${mayReadProperty}
          where (?::jsonb is null or d.id in (select id from chosen where document_type = 'property'))
            and (?::jsonb is null or u.id in (select id from chosen_users))
         union
         select u.id, 'personal', d.id
           from user_documents d join users u on u.id = d.user_id and u.is_active
          where (?::jsonb is null or d.id in (select id from chosen where document_type = 'personal'))
            and (?::jsonb is null or u.id in (select id from chosen_users))),
       unopened as (
         select e.* from entitled e
          where not exists (select 1 from document_reads r
            where r.user_id = e.user_id and r.document_type = e.document_type and r.document_id = e.document_id)),
       reminded as (${body.dryRun ? wouldRemind : remindNow})
       select (select count(*)::int from unopened) as unopened, x.*
         from (select 1) one
         left join (
           select r.user_id, r.document_type, r.document_id, u.email, u.first_name, u.last_name, u.entity, ${iso('r.reminded_at')} as reminded_at,
                  coalesce(pd.title, ud.title) as title,
                  case when r.document_type = 'property' then coalesce(p.name, '${defaultPropertyGroup}') else 'Your documents' end as context,
                  coalesce(pd.year, ud.year) as year, coalesce(pd.quarter, ud.quarter) as quarter, coalesce(pd.uploaded_at, ud.uploaded_at) as uploaded_at
             from reminded r join users u on u.id = r.user_id
             left join property_documents pd on r.document_type = 'property' and pd.id = r.document_id
             left join properties p on p.id = pd.property_id
             left join user_documents ud on r.document_type = 'personal' and ud.id = r.document_id) x on true
        order by x.user_id, x.uploaded_at desc, x.title`,
      [
        documents,
        users ?? '[]',
        documents,
        users,
        documents,
        users,
        reminderIntervalDays,
      ],
    );
    const unopened = rows[0]?.unopened ?? 0;
    const byInvestor = new Map<number, ReminderRow[]>();
    for (const row of rows) {
      if (row.user_id === null) continue;
      byInvestor.set(row.user_id, [...(byInvestor.get(row.user_id) ?? []), row]);
    }
    const remindedDocuments = [...byInvestor.values()].reduce((sum, list) => sum + list.length, 0);
    // What the message counts: one notice sent to 12 investors is 1 document, not 12.
    const distinctDocuments = new Set(rows.filter((row) => row.user_id !== null).map((row) => `${row.document_type}:${row.document_id}`)).size;
    const counts = { remindedInvestors: byInvestor.size, remindedDocuments, distinctDocuments, skippedRecent: unopened - remindedDocuments };
    if (body.dryRun) {
      return {
        message: remindMessage(counts, unopened, 'dry run'),
        ...counts,
        remindedAt: rows.find((row) => row.user_id !== null)?.reminded_at ?? new Date().toISOString(),
      };
    }
    await enqueueMailBatch(
      tx,
      reminderFields,
      (values) => ({ to: '', ...documentReminderMail(values, portalUrl) }),
      [...byInvestor.values()].map((list) => {
        const first = list[0]!;
        const name = displayName({ firstName: first.first_name, lastName: first.last_name, entity: first.entity });
        const greeting = name ? `Hello ${name},` : 'Hello,';
        const documents = list.map((row) => `• ${row.title} — ${row.context} · ${row.quarter} ${row.year}`).join('\n');
        return {
          to: first.email,
          values: {
            greeting: { text: greeting, html: escapeHtml(greeting) },
            documents: { text: documents, html: escapeLines(documents) },
          },
        };
      }),
    );
    const remindedAt = rows.find((row) => row.user_id !== null)?.reminded_at ?? new Date().toISOString();
    recordAdminAction(tx, actor, clientAddress, {
      action: 'remind-unopened-documents',
      subject: { type: 'document', id: null, label: body.documents ? `${body.documents.length} documents` : 'every document' },
      after: {
        ...(body.documents ? { documents: body.documents } : {}),
        ...(body.userIds ? { userIds: body.userIds } : {}),
        ...counts,
      },
    });
    return { message: remindMessage(counts, unopened, 'sent'), ...counts, remindedAt };
  });
}
