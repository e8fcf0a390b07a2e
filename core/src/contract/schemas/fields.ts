import { z } from 'zod';
import { quarters } from '../../domain/enums';
import { fieldMax, maxPageSize } from '../../domain/limits';
import { currentYear, firstDocumentYear } from '../../domain/dates-and-periods';
import { identifierKey } from '../../domain/content-matching';

// Field builders shared by the request schemas. Every message is a sentence for the person who
// filled in the form, because the server answers a 400 with the first one.

function tooLong(label: string, max: number): string {
  return `${label} must be ${max} characters or fewer.`;
}

/** A required text: trimmed, not empty, at most `max` characters. */
export function requiredText(label: string, max: number, missing: string) {
  return z.string({ error: missing }).trim().min(1, missing).max(max, tooLong(label, max));
}

/**
 * An optional text: trimmed, at most `max` characters. On an update, absent means "leave as it
 * is"; an empty string or null clears the field (null so that an answer's nullable fields, such
 * as a property's phone, can be sent back as they came).
 */
export function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((value) => (value === null ? '' : value));
}

/**
 * C0 controls (CR, LF, TAB among them), DEL, C1 controls and the Unicode line and paragraph
 * separators: a name goes into e-mails, headers and CSV cells, where any of them can start a new
 * line that reads as the firm's.
 */
// eslint-disable-next-line no-control-regex -- exactly the characters a name must not hold
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A person's or an entity's name, as `optionalText`, refusing control characters anywhere in it
 * (before the trim, so that a trailing line break is refused rather than quietly dropped).
 */
export function nameText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text.` })
    .refine((value) => !controlCharacters.test(value), `${label} cannot contain line breaks, tabs or other control characters.`)
    .trim()
    .max(max, tooLong(label, max))
    .nullish()
    .transform((value) => (value === null ? '' : value));
}

/**
 * An identifier an administrator adds to an investor ("Smith Family Trust dtd 3/1/2001",
 * "XXX-XX-1234"): trimmed, 2 to 200 characters, no control characters (as `nameText`), and at
 * least one word to match by. Its normalized form must fit the same 200 characters, since the
 * database stores both (NFKC can lengthen a ligature).
 */
export function identifierText() {
  const label = 'An identifier';
  return z
    .string({ error: 'Each identifier must be text.' })
    .refine((value) => !controlCharacters.test(value), `${label} cannot contain line breaks, tabs or other control characters.`)
    .trim()
    .min(2, `${label} must be at least 2 characters.`)
    .max(fieldMax.identifier, tooLong(label, fieldMax.identifier))
    .superRefine((value, ctx) => {
      const key = identifierKey(value);
      if (key === null) ctx.addIssue({ code: 'custom', message: `${label} needs a letter or a digit: “${value}” has none.` });
      else if (key.length > fieldMax.identifier) ctx.addIssue({ code: 'custom', message: tooLong(label, fieldMax.identifier) });
    });
}

/** An e-mail address: trimmed and lower-cased, since addresses are compared without case. */
export function emailAddress(
  missing = 'Please enter an email address.',
  invalid = 'Please enter a valid email address.',
) {
  return z
    .string({ error: missing })
    .trim()
    .toLowerCase()
    .min(1, missing)
    .max(fieldMax.email, tooLong('Email address', fieldMax.email))
    .pipe(z.email({ error: invalid }));
}

/**
 * A whole number that may arrive as a number (JSON) or as a string (multipart fields, path
 * parameters, query strings). An empty string counts as missing.
 */
export function wholeNumber(missing: string) {
  return z.union([z.number(), z.string()], { error: missing }).transform((value, ctx) => {
    // Digits only: Number() would also read '', '1e3' and '0x10'.
    const n = typeof value === 'number' ? value : /^\s*-?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: missing });
      return z.NEVER;
    }
    return n;
  });
}

/** The page of a paged list, from 1. */
export const pageNumber = wholeNumber('Page must be a whole number.').pipe(
  z.number().int().min(1, 'Page must be 1 or more.'),
);

/** The rows a page of a paged list holds. */
export const pageLimit = wholeNumber('Limit must be a whole number.').pipe(
  z.number().int().min(1).max(maxPageSize, `Limit must be from 1 to ${maxPageSize}.`),
);

/**
 * The largest id a row can have: ids are PostgreSQL `integer` columns, and a larger number sent
 * to one is an error of the database (a 500), not an answer.
 */
export const maxRowId = 2_147_483_647;

/** The id of a row, as a positive whole number within PostgreSQL's integer. */
export function idOf(what: string) {
  // 'an entry', 'an investor'; 'a user' (u sounds like 'you' in the words used here).
  const message = `Please choose ${/^[aeio]/i.test(what) ? 'an' : 'a'} ${what}.`;
  return wholeNumber(message).pipe(z.number().int().positive(message).max(maxRowId, message));
}

/**
 * A yes/no that may arrive as a boolean (JSON) or as a string (multipart: 'true'/'false', or
 * 'on' from a checked checkbox). Absent means `fallback`.
 */
export function yesNo(label: string, fallback: boolean) {
  return z
    .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0', ''])], {
      error: `${label} must be yes or no.`,
    })
    .transform((value) => value === true || value === 'true' || value === 'on' || value === '1')
    .default(fallback);
}

/** A document year: 2014 through the current year, checked when parsing (not at start-up). */
export const documentYear = wholeNumber('Please choose a year.').pipe(
  z
    .number()
    .int()
    .min(firstDocumentYear, `Please choose a year from ${firstDocumentYear} onwards.`)
    .refine((year) => year <= currentYear(), { error: 'Please choose a year that is not in the future.' }),
);

export const quarter = z.enum(quarters, { error: 'Please choose a quarter from Q1 to Q4.' });

/** A timestamp in an answer: an ISO 8601 string. */
export const timestamp = z.iso.datetime({ offset: true });

/** A calendar date without time, 'YYYY-MM-DD', from the year 1 on (PostgreSQL has no year 0). */
export const calendarDate = z.iso
  .date({ error: 'Please enter a date as YYYY-MM-DD.' })
  .refine((date) => !date.startsWith('0000-'), { error: 'Please enter a date in the year 1 or later.' });
