import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { identifierConflict, identifierKey, joinFullName, type IdentifiedInvestor } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { InvestorIdentifier } from './investor-identifier.entity';
import type { IUser } from './user.entity';

// The identifiers administrators add to an investor (edit-user's `identifiers`), besides the full
// name and entity that identify every investor already. Content matching gives a K-1 to the one
// investor whose identifier is in it, so an identifier two accounts share would identify neither:
// one is refused when it is saved, with core's sentence naming the account that has it.

/** The user list's column (an expression over `users`): the added identifiers as typed, in the order added. */
export const identifiersColumnSql = `array(select i.identifier from investor_identifiers i where i.user_id = users.id order by i.id)::text[] as identifiers`;

const normalizedUnique = 'investor_identifiers_normalized_unique';

export const identifierMessages = {
  takenMeanwhile: 'Another account was given one of these identifiers while you saved. Please save again to see which.',
} as const;

type OtherAccount = IdentifiedInvestor & { email: string };

/**
 * Every account but `userId`, as identifierConflict reads them, keeping only those that have one
 * of `keys` (by name, entity or an added identifier). Every role counts, not only investors: a
 * role can change, and the unique index spans every account's added identifiers anyway. Reading
 * every account costs a normalization per name, done only when a save adds an identifier.
 */
async function accountsHolding(em: EntityManager, userId: number, keys: ReadonlySet<string>): Promise<OtherAccount[]> {
  const rows = await em.execute<{ id: number; email: string; first_name: string; last_name: string; entity: string; identifiers: string[] }[]>(
    `select id, email, first_name, last_name, entity, ${identifiersColumnSql} from users where id <> ? order by id`,
    [userId],
  );
  return rows
    .map((row) => ({ id: row.id, email: row.email, name: joinFullName(row.first_name, row.last_name), entity: row.entity, identifiers: row.identifiers }))
    .filter((other) => [other.name, other.entity, ...other.identifiers].some((identifier) => keys.has(identifierKey(identifier) ?? '')));
}

/**
 * Serialises, per normalized text, the saves that check it: an identifier being added and a name
 * or entity being changed into the same text are decided one after the other, so the second sees
 * the first (the unique index alone covers only two added identifiers). Sorted, so that two saves
 * locking several never deadlock; released when the transaction ends.
 */
export async function lockKeys(tx: EntityManager, keys: Iterable<string>): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`investor-identifier:${key}`]);
}

/** Refuses with 409 the first of `candidates` another account already has, in core's sentence. */
async function refuseTaken(em: EntityManager, userId: number, candidates: readonly string[]): Promise<void> {
  const keys = new Set(candidates.map((candidate) => identifierKey(candidate) ?? ''));
  const holders = await accountsHolding(em, userId, keys);
  if (holders.length === 0) return;
  for (const candidate of candidates) {
    const conflict = identifierConflict(candidate, holders);
    if (conflict) throw new HttpError(409, conflict);
  }
}

/**
 * Makes `typed` the user's added identifiers, in the caller's transaction: those no longer listed
 * go, those still listed keep their row (and take the new spelling), new ones are checked against
 * every other account and added. Two that normalize alike ("Smith Trust", "SMITH TRUST.") are kept
 * once, as first typed. Only new ones are checked, so an edit of the same list never fails on an
 * identifier saved before another account took the same name. Answers the list before and after,
 * for the audit row.
 */
export async function replaceIdentifiers(
  tx: EntityManager,
  user: IUser,
  typed: readonly string[],
): Promise<{ before: string[]; after: string[] }> {
  const wanted = new Map<string, string>();
  for (const identifier of typed) {
    const key = identifierKey(identifier);
    if (key !== null && !wanted.has(key)) wanted.set(key, identifier);
  }
  const current = await tx.find(InvestorIdentifier, { user: user.id }, { orderBy: { id: 'asc' } });
  const held = new Set(current.map((row) => row.normalized));
  const added = [...wanted].filter(([key]) => !held.has(key));
  if (added.length > 0) {
    await lockKeys(tx, added.map(([key]) => key));
    await refuseTaken(tx, user.id, added.map(([, identifier]) => identifier));
  }

  const before = current.map((row) => row.identifier);
  for (const row of current) {
    const identifier = wanted.get(row.normalized);
    if (identifier === undefined) tx.remove(row);
    else row.identifier = identifier;
  }
  for (const [normalized, identifier] of added) tx.create(InvestorIdentifier, { user, identifier, normalized });
  const after = [...current.filter((row) => wanted.has(row.normalized)).map((row) => row.identifier), ...added.map(([, identifier]) => identifier)];
  return { before, after };
}

/**
 * Refuses with 409, in core's sentence, a full name or entity (of a new account, or one an edit
 * changes) that another account has as an added identifier: content matching could then not
 * tell which of the two a K-1 naming it is for. Another account's name or entity is no refusal:
 * two investors may share a name, and then each needs an identifier of their own. `userId` is the
 * account being saved (null for a new one); empty texts are skipped. Run in the save's transaction.
 */
export async function refuseNamesTaken(tx: EntityManager, userId: number | null, texts: readonly string[]): Promise<void> {
  const named = texts.filter((text) => identifierKey(text) !== null);
  if (named.length === 0) return;
  const keys = named.map((text) => identifierKey(text)!);
  await lockKeys(tx, keys);
  const rows = await tx.execute<{ id: number; email: string; identifiers: string[] }[]>(
    `select u.id, u.email, array_agg(i.identifier order by i.id)::text[] as identifiers
       from investor_identifiers i join users u on u.id = i.user_id
      where i.normalized in (${keys.map(() => '?').join(', ')}) and i.user_id <> ?
      group by u.id, u.email order by u.id`,
    [...keys, userId ?? 0],
  );
  const holders = rows.map((row) => ({ id: row.id, email: row.email, name: '', entity: '', identifiers: row.identifiers }));
  for (const text of named) {
    const conflict = identifierConflict(text, holders);
    if (conflict) throw new HttpError(409, conflict);
  }
}

/**
 * Two administrators giving one identifier to two accounts at once both pass the check; the
 * unique index lets one commit, and the other hears the same sentence as with the check, read
 * again now that the first has committed. Any other error passes through.
 */
export async function identifierTakenOnRace(em: EntityManager, userId: number, typed: readonly string[] | undefined, error: unknown): Promise<never> {
  const onIdentifier = error instanceof UniqueConstraintViolationException && (error as { constraint?: unknown }).constraint === normalizedUnique;
  if (!onIdentifier) throw error;
  if (typed) await refuseTaken(em.fork(), userId, typed);
  // The other save committed and was undone since: nothing holds it now, and saving again works.
  throw new HttpError(409, identifierMessages.takenMeanwhile);
}
