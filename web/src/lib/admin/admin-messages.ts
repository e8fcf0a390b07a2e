import { publishingMessages } from '@everest/core/domain';

// decided: the spec shows only 'User Created' among the admin panel's success toasts ("a success
// shows a success toast per action"; "other success texts are not shown"). These are ours,
// kept in one file so that the tests and the desktop app read the same words. The failure
// texts are the spec's, from core's portalMessages.
export const adminSuccess = {
  userUpdated: 'User Updated',
  userDeleted: 'User Deleted',
  resetLinkSent: 'Reset Link Sent',
  propertyAssigned: 'Property Assigned',
  propertyRemoved: 'Property Removed',
  propertyCreated: 'Property Created',
  propertyUpdated: 'Property Updated',
  propertyDeleted: 'Property Deleted',
  coordinatesFound: 'Coordinates Found',
  documentUploaded: 'Document Uploaded',
  /** upload-document answered that the property already has this file. */
  documentAlreadyPublished: 'Already Published',
  /** A correction with the very same file. */
  documentUnchanged: 'Nothing Changed',
  documentUpdated: 'Document Updated',
  documentReplaced: 'File Replaced',
  documentCorrected: 'Correction Published',
  documentDeleted: 'Document Deleted',
  personalDocumentUploaded: 'Document Published',
  personalDocumentAlreadyPublished: 'Already Published',
  personalDocumentUpdated: 'Document Updated',
  personalDocumentDeleted: 'Document Deleted',
  usersImported: 'Import Complete',
  reminderSent: 'Reminder Sent',
  nobodyReminded: 'Nobody Reminded',
} as const;

/** Read receipts: texts the spec does not have. */
export const readReceiptTexts = {
  remindFailed: 'Reminder Failed',
  exportFailed: 'Export Failed',
  loadFailed: 'The read receipts could not be loaded',
} as const;

/** The 'User Created' toast's copy button. */
export const copyPasswordLabels = { label: 'Copy password', doneLabel: 'Copied' } as const;

/** Refusals of the panel's own that the spec's catalogue has no words for (decided). */
export const adminNotices = {
  /** A document over `maxDocumentBytes`, refused before it is sent. */
  fileTooLarge: 'File Too Large',
  /** Upload pressed without a file. */
  chooseFile: 'Please choose a file.',
  /** The single upload for an account that cannot sign in (the bulk upload refuses such rows). */
  deactivatedOwner: (email: string) =>
    `${email} is deactivated and cannot sign in: nobody can read this document until the account is reactivated, and no e-mail is sent.`,
} as const;

/** What an action that e-mails people says before it sends. */
export const emailingTexts = {
  /** 'This will e-mail 12 people' (the dialog's title). */
  willEmail: (people: number) => `This will e-mail ${people} ${people === 1 ? 'person' : 'people'}`,
  /** The same when only an upper bound is known (a batch across several properties and investors). */
  willEmailUpTo: (people: number) => `This will e-mail up to ${people} ${people === 1 ? 'person' : 'people'}`,
  /** The warning of an upload that only administrators could read (core's, which the desktop's sync also says). */
  noReader: publishingMessages.noReader,
  /** After a property's name in the pickers, when investors are not shown it. */
  notShown: '(not shown to investors)',
  counting: 'Counting recipients...',
  countFailed: 'The recipients could not be counted',
} as const;
