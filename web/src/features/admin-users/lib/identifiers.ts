import { identifierKey, joinFullName } from '@everest/core/domain';

// The identifiers administrators add to an investor, as the users tab types and shows them.

/** The textarea's lines as edit-user's list: one identifier a line, blank lines dropped. */
export function identifierLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Whether the typed list is the saved one, in the same order and spelling (then it is not sent). */
export function sameIdentifiers(typed: readonly string[], saved: readonly string[]): boolean {
  return typed.length === saved.length && typed.every((identifier, i) => identifier === saved[i]);
}

/** How many of a row's identifiers the list names before 'and n more'. */
export const identifiersShown = 3;

/** A row's identifiers as the list shows them: the first three, then 'and n more'. */
export function identifiersSummary(identifiers: readonly string[]): string {
  if (identifiers.length <= identifiersShown) return identifiers.join(' · ');
  return `${identifiers.slice(0, identifiersShown).join(' · ')} and ${identifiers.length - identifiersShown} more`;
}

// The server's refusal opens with the identifier it refused, in quotes (core's
// contentMatchingMessages.identifierTaken): “Smith Family Trust” already identifies …
const refusedIdentifier = /^“(.+?)” already identifies /u;

/**
 * The field a 409 of edit-user is about, when it refuses an identifier: the identifiers when it
 * names one of those sent, the first name or the entity when the new name or entity is another
 * account's identifier; null for any other refusal (an e-mail already used, the last administrator).
 */
export function identifierRefusal(
  message: string,
  sent: { firstName?: string; lastName?: string; entity?: string; identifiers?: readonly string[] },
): 'identifiers' | 'firstName' | 'entity' | null {
  const quoted = refusedIdentifier.exec(message)?.[1];
  const key = quoted === undefined ? null : identifierKey(quoted);
  if (key === null) return null;
  if (sent.identifiers?.some((identifier) => identifierKey(identifier) === key)) return 'identifiers';
  if (identifierKey(joinFullName(sent.firstName ?? '', sent.lastName ?? '')) === key) return 'firstName';
  if (identifierKey(sent.entity ?? '') === key) return 'entity';
  return null;
}
