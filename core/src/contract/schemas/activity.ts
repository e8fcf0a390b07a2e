import { z } from 'zod';
import { calendarDate, idOf, pageLimit, timestamp } from './fields';

// The Activity tab: the audit rows of administrators' writes, newest first. Document
// reads (preview, download) are audit rows too, but they are investors' and staff's reads, shown
// by the read receipts; the Activity tab lists the staff's changes only (README, Decisions).

/** The actions an administrator's write is recorded under, with the words the panel shows. */
export const activityActionLabels = {
  'create-user': 'Created a user',
  'edit-user': 'Edited a user',
  'delete-user': 'Deleted a user',
  'reset-password': 'Sent a reset link',
  'resend-invitation': 'Resent an invitation',
  'assign-property': 'Gave property access',
  'remove-property': 'Removed property access',
  'remove-second-step': 'Removed two-step sign-in',
  'bulk-import-users': 'Imported users',
  'create-property': 'Added a property',
  'update-property': 'Edited a property',
  'delete-property': 'Deleted a property',
  'upload-document': 'Uploaded a property document',
  'update-document': 'Edited a property document',
  'replace-document': 'Replaced a property document',
  'delete-document': 'Deleted a property document',
  'notify-documents': 'E-mailed about documents',
  correct: 'Corrected a document',
  'upload-user-document': 'Uploaded a personal document',
  'edit-user-document': 'Edited a personal document',
  'replace-user-document': 'Replaced a personal document',
  'delete-user-document': 'Deleted a personal document',
  'bulk-upload-user-documents': 'Bulk uploaded a document',
  'bulk-upload-batch': 'Bulk uploaded documents',
  'remind-unopened-documents': 'Reminded investors',
  // An investor's own shares are recorded here too, with an administrator's end of one.
  'create-share': 'Shared documents',
  'revoke-share': 'Revoked a share',
  'end-share': 'Ended a share',
} as const;
export type ActivityAction = keyof typeof activityActionLabels;
export const activityActions = Object.keys(activityActionLabels) as [ActivityAction, ...ActivityAction[]];

/** The audit actions that are reads, not changes: never listed in Activity. */
export const documentReadActions = ['preview', 'download'] as const;

/** The words for an action; an action this version does not know is shown as recorded. */
export function activityActionLabel(action: string): string {
  return Object.hasOwn(activityActionLabels, action) ? activityActionLabels[action as ActivityAction] : action;
}

export const activityFilters = z
  .object({
    /** The person who acted (their user id). */
    userId: idOf('person').optional(),
    action: z.enum(activityActions, { error: 'Please choose an action from the list.' }).optional(),
    /** Calendar days in America/Los_Angeles, both included. */
    from: calendarDate.optional(),
    to: calendarDate.optional(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { error: 'The start date must be on or before the end date.', path: ['from'] });
export type ActivityFilters = z.input<typeof activityFilters>;

/**
 * GET /api/admin/activity: a page of entries, newest first. Paged by keyset: `before` is the id of
 * the last entry of the previous page, so page 2,000 costs what page 1 does with 1,000,000 rows.
 */
export const activityQuery = z.intersection(
  activityFilters,
  z.object({
    // The id of an entry: bounded as every id is.
    before: idOf('page').optional(),
    limit: pageLimit.default(50),
  }),
);
export type ActivityQuery = z.input<typeof activityQuery>;

export const activityActor = z.object({
  /** Null once the account was deleted; the e-mail stays. */
  id: z.number().int().nullable(),
  email: z.string(),
  /** Their name today; empty once deleted. */
  name: z.string(),
});

export const activitySubject = z.object({
  type: z.string(),
  id: z.number().int().nullable(),
  label: z.string(),
});

export const activityEntry = z.object({
  id: z.number().int(),
  at: timestamp,
  actor: activityActor,
  action: z.string(),
  subject: activitySubject,
  clientAddress: z.string(),
  /** The names of the fields the entry records, before or after (the dialog shows their values). */
  fields: z.array(z.string()),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

export const activityAnswer = z.object({
  entries: z.array(activityEntry),
  /** The `before` that asks the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type ActivityAnswer = z.infer<typeof activityAnswer>;

export const activityEntryParams = z.object({ id: idOf('entry') });

/** GET /api/admin/activity/entries/:id: one entry with its values as they were and as they became. */
export const activityEntryAnswer = activityEntry.extend({
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type ActivityEntryAnswer = z.infer<typeof activityEntryAnswer>;

/** GET /api/admin/activity/people: everyone with an entry, for the person filter. */
export const activityPeopleAnswer = z.object({ people: z.array(activityActor.extend({ id: z.number().int() })) });
export type ActivityPeopleAnswer = z.infer<typeof activityPeopleAnswer>;

/** The most entries one CSV export holds; the answer says when the view had more. */
export const maxActivityCsvRows = 50_000;
