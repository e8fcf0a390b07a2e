import { roleLabels, type Role } from './enums';
import { megabyte } from './limits';
import { timeZone } from './dates-and-periods';

/**
 * The one size of a file everywhere (a small file read '0.0 MB'): whole KB under 1 MB
 * ('12 KB', never under 1 KB for a file that has bytes), else MB with one decimal ('1.4 MB').
 */
export function formatFileSize(bytes: number): string {
  const kilobytes = Math.round(bytes / 1024);
  if (kilobytes < 1024) return `${bytes > 0 ? Math.max(1, kilobytes) : 0} KB`;
  return `${(bytes / megabyte).toFixed(1)} MB`;
}

/** A category as the personal document list shows it: underscores become spaces. */
export function formatCategory(category: string): string {
  return category.replace(/_/g, ' ');
}

export interface NameParts {
  firstName: string;
  lastName: string;
}

/** The spec holds first and last name as one full name split at the first space. */
export function splitFullName(fullName: string): NameParts {
  const trimmed = fullName.trim();
  const space = trimmed.search(/\s/);
  if (space === -1) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1).trim() };
}

export function joinFullName(firstName: string, lastName: string): string {
  return [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');
}

/** The welcome line's name: first and last name, or the entity when there is no name. */
export function displayName(user: { firstName: string; lastName: string; entity: string; email?: string }): string {
  return joinFullName(user.firstName, user.lastName) || user.entity.trim() || (user.email ?? '');
}

export function roleLabel(role: Role): string {
  return roleLabels[role];
}

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone,
  dateStyle: 'medium',
  timeStyle: 'short',
});
// A calendar date ('2025-03-31') has no time of day: format it as written, never shifted by a zone.
const calendarDateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium' });

function toDate(value: Date | string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Mar 31, 2025' in America/Los_Angeles; `fallback` for a missing or unreadable value. */
export function formatDate(value: Date | string | null | undefined, fallback = ''): string {
  const date = toDate(value);
  return date ? dateFormat.format(date) : fallback;
}

/** 'Mar 31, 2025, 4:05 PM' in America/Los_Angeles; `fallback` for a missing or unreadable value. */
export function formatDateTime(value: Date | string | null | undefined, fallback = ''): string {
  const date = toDate(value);
  return date ? dateTimeFormat.format(date) : fallback;
}

/** A 'YYYY-MM-DD' calendar date as 'Mar 31, 2025'; `fallback` when absent or malformed. */
export function formatCalendarDate(value: string | null | undefined, fallback = ''): string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return fallback;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? fallback : calendarDateFormat.format(date);
}
