import { z } from 'zod';
import { fieldMax, passwordMinLength, passwordSpecials } from './limits';

// The spec's rule: at least 8 characters with a lowercase letter, an uppercase letter, a number
// and one of @$!%*?&. Other characters (spaces, '#', accents) are allowed too: the rule says
// what a password must contain, and refusing more would only push people to weaker choices.

const specialPattern = new RegExp(`[${passwordSpecials.replace(/[\\\]^-]/g, '\\$&')}]`);

const requirements: { item: string; met: (pw: string) => boolean }[] = [
  { item: `at least ${passwordMinLength} characters`, met: (pw) => pw.length >= passwordMinLength },
  { item: 'one lowercase letter', met: (pw) => /[a-z]/.test(pw) },
  { item: 'one uppercase letter', met: (pw) => /[A-Z]/.test(pw) },
  { item: 'one number', met: (pw) => /\d/.test(pw) },
  { item: `one special character (${passwordSpecials})`, met: (pw) => specialPattern.test(pw) },
];

/** The requirements a password misses, in the spec's order; empty when it is acceptable. */
export function passwordProblems(password: string): string[] {
  return requirements.filter((r) => !r.met(password)).map((r) => r.item);
}

/** 'a', 'a and b', 'a, b and c'. */
export function joinNaturally(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The spec's message for a password that misses requirements, or null when it meets them all. */
export function checkPassword(password: string): string | null {
  const problems = passwordProblems(password);
  return problems.length === 0 ? null : `Password must contain ${joinNaturally(problems)}`;
}

/** A new password as every form and route accepts it. Never trimmed: spaces are characters. */
export const newPassword = z
  .string({ error: 'Please enter a new password.' })
  .max(fieldMax.password, `Password must be ${fieldMax.password} characters or fewer.`)
  .superRefine((password, ctx) => {
    const message = checkPassword(password);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
