import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImportRowError } from '@everest/core/contract';
import { identifierConflict, identifierKey, joinFullName, shownImportValue, type IdentifiedInvestor, type ValidImportRow } from '@everest/core/domain';
import { executeBound } from '../../db/bound-query';
import { HttpError } from '../../http/errors';
import { identifierMessages } from '../users/investor-identifiers';
import type { ExistingUser, ImportUpdate } from './bulk-import-steps';

// The identifiers an import adds (its `identifiers` column), checked and written by the rules of
// edit-user (users/investor-identifiers.ts): an identifier another account has as its name, entity
// or an added identifier is refused with core's sentence naming that account, and so is a new
// name or entity that is another account's added identifier. A refused row is a row error and
// nothing of it is written, as for any other row error. The file is checked against every
// account in one read, and against its own earlier rows (the first row to claim a text keeps it,
// as the first row of an e-mail does), instead of edit-user's read of every account per user.

/** An account as identifierConflict reads it. */
export type IdentifierHolder = IdentifiedInvestor & { email: string };

/**
 * The accounts that may hold what the rows claim: every account when a row adds identifiers (they
 * must not be anyone's name or entity), else only those with added identifiers (a new name must
 * not be one of them). One query, whatever the number of rows.
 */
export async function identifierHolders(em: EntityManager, everyAccount: boolean): Promise<IdentifierHolder[]> {
  const rows = await executeBound<{ id: number; email: string; first_name: string; last_name: string; entity: string; identifiers: string[] }>(
    em,
    `select u.id, u.email, u.first_name, u.last_name, u.entity,
            coalesce(array_agg(i.identifier order by i.id) filter (where i.id is not null), '{}')::text[] as identifiers
       from users u ${everyAccount ? 'left' : ''} join investor_identifiers i on i.user_id = u.id
      group by u.id`,
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: joinFullName(row.first_name, row.last_name),
    entity: row.entity,
    identifiers: row.identifiers,
  }));
}

/** A row the import would write, as the identifier check reads it. */
export interface PlannedRow {
  row: ValidImportRow;
  /** The account the row updates; null for a new one. */
  user: ExistingUser | null;
  /** The identifiers the row adds (all of a new user's; an existing user's new ones). */
  added: readonly string[];
  /** The new full name and entity (of a new user, or those an update changes). */
  names: readonly string[];
}

/** The identifiers and names the rows of a plan add, in file order. */
export function plannedRows(newRows: readonly ValidImportRow[], updates: readonly ImportUpdate[]): PlannedRow[] {
  const planned: PlannedRow[] = [
    ...newRows.map((row) => ({ row, user: null, added: row.identifiers ?? [], names: [joinFullName(row.firstName, row.lastName), row.entity] })),
    ...updates.map(({ row, user, diff }) => {
      const { firstName, lastName, entity } = diff.changes;
      const names = [
        firstName || lastName ? joinFullName(firstName?.to ?? user.firstName, lastName?.to ?? user.lastName) : '',
        entity?.to ?? '',
      ];
      return { row, user, added: diff.newIdentifiers, names };
    }),
  ];
  return planned.sort((a, b) => a.row.line - b.row.line);
}

/** Whether the check has anything to look at, and which accounts it must read. */
export function identifierCheckNeeds(planned: readonly PlannedRow[]): 'none' | 'added-identifiers' | 'every-account' {
  if (planned.some((p) => p.added.length > 0)) return 'every-account';
  return planned.some((p) => p.names.some((name) => name !== '')) ? 'added-identifiers' : 'none';
}

/**
 * The rows refused for an identifier, each with core's sentence and the text at fault. `holders`
 * are the accounts as stored; the file's earlier rows count as accounts too, so that two rows
 * giving one identifier (or one's identifier the other's new name) keep only the first.
 */
export function refusedIdentifierRows(planned: readonly PlannedRow[], holders: readonly IdentifierHolder[]): ImportRowError[] {
  const anyByKey = new Map<string, IdentifierHolder[]>();
  const addedByKey = new Map<string, IdentifierHolder[]>();
  const hold = (map: Map<string, IdentifierHolder[]>, text: string, holder: IdentifierHolder) => {
    const key = identifierKey(text);
    if (key === null) return;
    const list = map.get(key);
    if (!list) map.set(key, [holder]);
    else if (!list.includes(holder)) list.push(holder);
  };
  for (const holder of holders) {
    for (const text of [holder.name, holder.entity]) hold(anyByKey, text, holder);
    for (const text of holder.identifiers) {
      hold(anyByKey, text, holder);
      hold(addedByKey, text, holder);
    }
  }

  const errors: ImportRowError[] = [];
  for (const { row, user, added, names } of planned) {
    const isOther = (holder: IdentifierHolder) => holder.email !== row.email && holder.id !== user?.id;
    const othersHolding = (map: Map<string, IdentifierHolder[]>, text: string) => (map.get(identifierKey(text) ?? '') ?? []).filter(isOther);
    let refusal: ImportRowError | null = null;
    for (const candidate of added) {
      const sentence = identifierConflict(candidate, othersHolding(anyByKey, candidate));
      if (sentence) {
        refusal = { row: row.line, error: sentence, ...valueOf(candidate) };
        break;
      }
    }
    for (const name of names) {
      if (refusal || name === '') continue;
      // Only their added identifiers: two investors may share a name, and then each needs one.
      const others = othersHolding(addedByKey, name).map((holder) => ({ ...holder, name: '', entity: '' }));
      const sentence = identifierConflict(name, others);
      if (sentence) refusal = { row: row.line, error: sentence, ...valueOf(name) };
    }
    if (refusal) {
      errors.push(refusal);
      continue;
    }
    // What this row claims holds against the rows after it.
    const claim: IdentifierHolder = { id: -row.line, email: row.email, name: names[0] ?? '', entity: names[1] ?? '', identifiers: [...added] };
    for (const text of [...names, ...added]) hold(anyByKey, text, claim);
    for (const text of added) hold(addedByKey, text, claim);
  }
  return errors;
}

function valueOf(text: string): { value?: string } {
  const value = shownImportValue(text);
  return value === undefined ? {} : { value };
}

const normalizedUnique = 'investor_identifiers_normalized_unique';

/**
 * Writes the identifiers of the new users and of the updated ones, as replaceIdentifiers does for
 * one user: an updated user's identifiers the row no longer lists go, those it still lists take
 * its spelling, new ones are added. Set-based, after the check above. An identifier another
 * account was given meanwhile (the unique index) refuses the whole import with 409: its
 * transaction has written users already, and a retry's preview names the row.
 */
export async function writeIdentifiers(
  tx: EntityManager,
  created: readonly ValidImportRow[],
  newIds: ReadonlyMap<string, number>,
  updates: readonly ImportUpdate[],
): Promise<void> {
  const listed = updates.filter((u) => u.row.identifiers !== undefined);
  const removed = listed.flatMap(({ user, diff }) => diff.removedIdentifiers.map((identifier) => ({ user_id: user.id, normalized: identifierKey(identifier) })));
  const kept = listed.flatMap(({ user, row }) => (row.identifiers ?? []).map((identifier) => ({ user_id: user.id, identifier, normalized: identifierKey(identifier) })));
  const added = [
    ...created.flatMap((row) => (row.identifiers ?? []).map((identifier) => ({ user_id: newIds.get(row.email) ?? 0, identifier }))),
    ...listed.flatMap(({ user, diff }) => diff.newIdentifiers.map((identifier) => ({ user_id: user.id, identifier }))),
  ].map((row) => ({ ...row, normalized: identifierKey(row.identifier) }));

  if (removed.length > 0) {
    await executeBound(
      tx,
      `delete from investor_identifiers i using jsonb_to_recordset(?::jsonb) as r(user_id int, normalized text)
        where i.user_id = r.user_id and i.normalized = r.normalized`,
      [JSON.stringify(removed)],
    );
  }
  if (kept.length > 0) {
    await executeBound(
      tx,
      `update investor_identifiers i set identifier = r.identifier from jsonb_to_recordset(?::jsonb) as r(user_id int, identifier text, normalized text)
        where i.user_id = r.user_id and i.normalized = r.normalized and i.identifier <> r.identifier`,
      [JSON.stringify(kept)],
    );
  }
  if (added.length === 0) return;
  try {
    await executeBound(
      tx,
      `insert into investor_identifiers (user_id, identifier, normalized, created_at)
       select r.user_id, r.identifier, r.normalized, now() from jsonb_to_recordset(?::jsonb) as r(user_id int, identifier text, normalized text)`,
      [JSON.stringify(added)],
    );
  } catch (error) {
    if ((error as { constraint?: unknown }).constraint === normalizedUnique) throw new HttpError(409, identifierMessages.takenMeanwhile);
    throw error;
  }
}
