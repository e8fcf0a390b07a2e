import type { z } from 'zod';
import { acceptedDocumentMimeTypes } from '../domain';
import { systemStatusAnswer } from './schemas/system';
import { activityAnswer, activityEntryAnswer, activityEntryParams, activityFilters, activityPeopleAnswer, activityQuery } from './schemas/activity';
import { healthAnswer, readyAnswer } from './schemas/health';
import { emptyBody, messageAnswer, openApiAnswer } from './schemas/common';
import {
  adminPropertiesAnswer,
  adminPropertyAnswer,
  adminPropertyParams,
  geocodeAnswer,
  geocodeQuery,
  createPropertyBody,
  deletePropertyBody,
  propertyAnswer,
  publicPropertyList,
  updatePropertyBody,
} from './schemas/property';
import { captchaChallengeAnswer, contactAnswer, contactBody, recaptchaSiteKeyAnswer } from './schemas/contact';
import {
  changePasswordAnswer,
  changePasswordBody,
  loginAnswer,
  loginBody,
  requestPasswordResetBody,
  resetPasswordBody,
  validateResetTokenAnswer,
  validateResetTokenParams,
} from './schemas/auth';
import {
  adminResetPasswordAnswer,
  adminResetPasswordBody,
  adminUserPropertiesAnswer,
  adminUsersAnswer,
  adminUsersQuery,
  deleteUserAnswer,
  assignPropertyBody,
  createUserAnswer,
  createUserBody,
  deleteUserBody,
  editUserAnswer,
  editUserBody,
  emailChangeLinkAnswer,
  emailChangeLinkBody,
  profileAnswer,
  removePropertyBody,
  resendInvitationAnswer,
  resendInvitationBody,
  updateProfileAnswer,
  updateProfileBody,
} from './schemas/user';
import {
  adminDocumentsAnswer,
  deleteDocumentBody,
  documentAnswer,
  documentRecipientsAnswer,
  documentRecipientsQuery,
  documentVersionsAnswer,
  documentVersionsParams,
  documentLinkAnswer,
  documentLinkBody,
  downloadParams,
  downloadQuery,
  downloadVersionParams,
  downloadVersionQuery,
  investorCategoriesAnswer,
  investorDocumentsAnswer,
  notifyDocumentsAnswer,
  notifyDocumentsBody,
  replaceDocumentBody,
  replaceDocumentParams,
  updateDocumentBody,
  uploadDocumentBody,
} from './schemas/document';
import {
  adminPersonalDocumentsAnswer,
  adminPersonalDocumentsQuery,
  bulkUploadPreviewAnswer,
  bulkUploadPreviewBody,
  bulkUploadPersonalDocumentsAnswer,
  bulkUploadPersonalDocumentsBody,
  contentMatchingInvestorsAnswer,
  deletePersonalDocumentBody,
  editPersonalDocumentBody,
  replacePersonalDocumentBody,
  replacePersonalDocumentParams,
  uploadPersonalDocumentBody,
  personalDocumentAnswer,
} from './schemas/personal-document';
import {
  bulkImportUsersAnswer,
  bulkImportUsersBody,
  previewBulkImportAnswer,
  previewBulkImportBody,
} from './schemas/bulk-import';
import {
  adminSecondStepAnswer,
  adminSecondStepQuery,
  backupCodesAnswer,
  confirmTotpAnswer,
  confirmTotpBody,
  loginOrSecondStepAnswer,
  loginVerifyBody,
  removeSecondStepBody,
  secondStepChangeBody,
  secondStepStatusAnswer,
  passkeyCreationOptionsAnswer,
  passkeyRequestOptionsAnswer,
  passkeySignInOptionsBody,
  registerPasskeyAnswer,
  registerPasskeyBody,
  removePasskeyBody,
  secondStepRemovedAnswer,
  startTotpAnswer,
} from './schemas/second-step';
import {
  receiptDocumentAnswer,
  receiptDocumentParams,
  receiptDocumentsAnswer,
  receiptDocumentsQuery,
  receiptInvestorAnswer,
  receiptInvestorParams,
  receiptPageQuery,
  remindAnswer,
  remindBody,
} from './schemas/read-receipts';
import { endSessionBody, endSessionsAnswer, sessionsAnswer } from './schemas/sessions';
import {
  adminUserSharesAnswer,
  adminUserSharesQuery,
  createShareAnswer,
  createShareBody,
  endShareBody,
  incomingSharesAnswer,
  investorDocumentsQuery,
  outgoingSharesAnswer,
} from './schemas/shares';

/** The file a route answers instead of JSON. */
export interface FileAnswer {
  /** Every media type the file may be sent as. */
  types: readonly string[];
  description: string;
  /** It answers `Range` requests (206, 416), for viewers and resumed downloads. */
  ranges?: true;
}

/** What a document is sent as: one of the types an upload accepts. */
const documentFile = (description: string): FileAnswer => ({ types: acceptedDocumentMimeTypes, description, ranges: true });
const csvFile = (description: string): FileAnswer => ({ types: ['text/csv'], description });

/** Who may call a route: anyone, any signed-in user, or administrators only. */
export type Access = 'public' | 'signed-in' | 'administrator';

export interface RouteDef {
  method: 'GET' | 'POST';
  /** Koa-style path: `/api/investor/download/:id`. */
  path: string;
  /** What the call does, in a few words: the API description's `summary` (required, so no route goes without). */
  summary: string;
  access: Access;
  /** JSON body, or the text fields of a multipart body when `multipart` is set. */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The JSON answer; absent for routes that answer a file. */
  answer?: z.ZodType;
  /** What a route that answers no JSON answers: the media types its file may have, and byte ranges. */
  file?: FileAnswer;
  /**
   * The session token, or a document link's token, may come as `?token=` instead of the
   * Authorization header: the call is opened by browser navigation (a new window, a preview frame).
   */
  tokenInQuery?: true;
  /**
   * The body may be multipart/form-data (files plus text fields, where numbers and yes/no
   * arrive as strings and the body schema coerces them). update-property also takes JSON.
   */
  multipart?: boolean;
  /**
   * Open to an account whose role must sign in with two steps (REQUIRE_SECOND_STEP) and that has
   * not set one up yet: the set-up itself, reading the profile and signing out. Every other
   * signed-in route refuses such a session, so a password alone opens nothing.
   */
  beforeSecondStep?: true;
  /**
   * A path parameter is a secret (a reset link's token, in the spec's path): logs name the call
   * by its pattern, never by the address asked.
   */
  secretInPath?: true;
}

/** Every call of both specs' section 7, one line each. Servers and clients read it. */
export const routes = {
  // ---- Public site -------------------------------------------------------------------------
  health: { method: 'GET', path: '/api/health', summary: 'Check that this server is running', access: 'public', answer: healthAnswer },
  // Not in the spec: this table as an OpenAPI 3.1 document, for the firm's other systems.
  openApi: { method: 'GET', path: '/api/openapi.json', summary: 'Get this API description as OpenAPI 3.1', access: 'public', answer: openApiAnswer },
  healthReady: { method: 'GET', path: '/api/health/ready', summary: 'Check that this server is ready for requests', access: 'public', answer: readyAnswer },
  listProperties: {
    method: 'GET',
    path: '/api/properties',
    summary: 'List the properties the public site shows',
    access: 'public',
    answer: publicPropertyList,
  },
  recaptchaSiteKey: {
    method: 'GET',
    path: '/api/recaptcha-site-key',
    summary: 'Get the captcha the contact form shows',
    access: 'public',
    answer: recaptchaSiteKeyAnswer,
  },
  contact: { method: 'POST', path: '/api/contact', summary: 'Send the firm a message from the contact form', access: 'public', body: contactBody, answer: contactAnswer },
  // Not in the spec: where the self-hosted captcha (ALTCHA, the default) fetches its challenge.
  captchaChallenge: {
    method: 'GET',
    path: '/api/captcha/challenge',
    summary: 'Get a challenge of the self-hosted captcha',
    access: 'public',
    answer: captchaChallengeAnswer,
  },

  // ---- Investor: session and password ------------------------------------------------------
  // The spec's `{ token, user }`, or `{ mfaRequired, mfaToken, methods }` for an account with a
  // second step, which then signs in with loginVerify.
  login: { method: 'POST', path: '/api/investor/login', summary: 'Sign in with an e-mail address and password', access: 'public', body: loginBody, answer: loginOrSecondStepAnswer },
  loginVerify: {
    method: 'POST',
    path: '/api/investor/login/verify',
    summary: 'Finish a sign-in with its second step',
    access: 'public',
    body: loginVerifyBody,
    answer: loginAnswer,
  },
  // The signed challenge for a passkey as the second step of this sign-in.
  passkeySignInOptions: {
    method: 'POST',
    path: '/api/investor/login/passkey-options',
    summary: "Get the passkey challenge of a sign-in's second step",
    access: 'public',
    body: passkeySignInOptionsBody,
    answer: passkeyRequestOptionsAnswer,
  },
  // Not in the spec: ends this session on the server (the spec's Logout only forgot it).
  logout: {
    method: 'POST',
    path: '/api/investor/logout',
    summary: 'Sign out, ending this session on the server',
    access: 'signed-in',
    beforeSecondStep: true,
    body: emptyBody,
    answer: messageAnswer,
  },
  // Not in the spec: the account's signed-in sessions in Manage Profile, and ending
  // the others. No password: they only protect the account.
  sessions: { method: 'GET', path: '/api/investor/sessions', summary: "List the account's signed-in sessions", access: 'signed-in', answer: sessionsAnswer },
  endOtherSessions: {
    method: 'POST',
    path: '/api/investor/sessions/end-others',
    summary: 'Sign out every other session of the account',
    access: 'signed-in',
    body: emptyBody,
    answer: endSessionsAnswer,
  },
  endSession: {
    method: 'POST',
    path: '/api/investor/sessions/end',
    summary: 'Sign out one other session of the account',
    access: 'signed-in',
    body: endSessionBody,
    answer: endSessionsAnswer,
  },
  profile: { method: 'GET', path: '/api/investor/profile', summary: "Get the signed-in user's profile", access: 'signed-in', beforeSecondStep: true, answer: profileAnswer },
  updateProfile: {
    method: 'POST',
    path: '/api/investor/update-profile',
    summary: "Change the signed-in user's profile or e-mail address",
    access: 'signed-in',
    body: updateProfileBody,
    answer: updateProfileAnswer,
  },
  changePassword: {
    method: 'POST',
    path: '/api/investor/change-password',
    summary: "Change the signed-in user's password",
    access: 'signed-in',
    body: changePasswordBody,
    answer: changePasswordAnswer,
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/api/investor/request-password-reset',
    summary: 'Ask for a password-reset link by e-mail',
    access: 'public',
    body: requestPasswordResetBody,
    answer: messageAnswer,
  },
  validateResetToken: {
    method: 'GET',
    path: '/api/investor/validate-reset-token/:token',
    summary: 'Check that a password-reset link is still valid',
    access: 'public',
    secretInPath: true,
    params: validateResetTokenParams,
    answer: validateResetTokenAnswer,
  },
  // The token in the body is the proof of identity: no sign-in needed.
  resetPassword: {
    method: 'POST',
    path: '/api/investor/reset-password',
    summary: "Set a new password with a reset link's token",
    access: 'public',
    body: resetPasswordBody,
    answer: messageAnswer,
  },
  // Not in the spec: a new e-mail address asked for by update-profile takes effect
  // only when the link sent to it is opened (confirm), and the old address can put itself back
  // (undo). The token in the body is the proof: no sign-in needed, and never a token in a path.
  confirmEmailChange: {
    method: 'POST',
    path: '/api/investor/confirm-email-change',
    summary: 'Confirm a new e-mail address with the link sent to it',
    access: 'public',
    body: emailChangeLinkBody,
    answer: emailChangeLinkAnswer,
  },
  undoEmailChange: {
    method: 'POST',
    path: '/api/investor/undo-email-change',
    summary: 'Put the old e-mail address back with the link sent to it',
    access: 'public',
    body: emailChangeLinkBody,
    answer: emailChangeLinkAnswer,
  },
  // The owner withdraws a change still waiting for its link: no proof, it only keeps the address.
  cancelEmailChange: {
    method: 'POST',
    path: '/api/investor/cancel-email-change',
    summary: 'Withdraw an e-mail change still waiting for its link',
    access: 'signed-in',
    body: emptyBody,
    answer: updateProfileAnswer,
  },

  // ---- Investor: second step ---------------------------------------------------------------
  secondStep: {
    method: 'GET',
    path: '/api/investor/second-step',
    summary: 'Get the second steps the account has set up',
    access: 'signed-in',
    beforeSecondStep: true,
    answer: secondStepStatusAnswer,
  },
  // Each change of the second step asks for an owner proof: the password or a code.
  startTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/start',
    summary: 'Start setting up an authenticator app',
    access: 'signed-in',
    beforeSecondStep: true,
    body: secondStepChangeBody,
    answer: startTotpAnswer,
  },
  confirmTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/confirm',
    summary: 'Confirm the authenticator app with a code and get backup codes',
    access: 'signed-in',
    beforeSecondStep: true,
    body: confirmTotpBody,
    answer: confirmTotpAnswer,
  },
  // Removes the authenticator app alone; passkeys and backup codes stay while any second step does.
  removeTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/remove',
    summary: 'Remove the authenticator app',
    access: 'signed-in',
    body: secondStepChangeBody,
    answer: secondStepRemovedAnswer,
  },
  regenerateBackupCodes: {
    method: 'POST',
    path: '/api/investor/second-step/backup-codes',
    summary: 'Replace the backup codes with new ones',
    access: 'signed-in',
    body: secondStepChangeBody,
    answer: backupCodesAnswer,
  },

  passkeyCreationOptions: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys/options',
    summary: 'Get the challenge for registering a passkey',
    access: 'signed-in',
    beforeSecondStep: true,
    body: secondStepChangeBody,
    answer: passkeyCreationOptionsAnswer,
  },
  registerPasskey: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys',
    summary: 'Register a passkey as a second step',
    access: 'signed-in',
    beforeSecondStep: true,
    body: registerPasskeyBody,
    answer: registerPasskeyAnswer,
  },
  removePasskey: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys/remove',
    summary: 'Remove a passkey',
    access: 'signed-in',
    body: removePasskeyBody,
    answer: secondStepRemovedAnswer,
  },

  // ---- Investor: documents -----------------------------------------------------------------
  // `?onBehalfOf=`: the documents a live share from that investor covers.
  investorDocuments: {
    method: 'GET',
    path: '/api/investor/documents',
    summary: 'List the documents the signed-in user may read',
    access: 'signed-in',
    query: investorDocumentsQuery,
    answer: investorDocumentsAnswer,
  },
  investorCategories: {
    method: 'GET',
    path: '/api/investor/categories',
    summary: 'List the categories of personal documents',
    access: 'signed-in',
    query: investorDocumentsQuery,
    answer: investorCategoriesAnswer,
  },
  // Answers the file. Opened by browser navigation, so the session may come as `?token=`.
  download: {
    method: 'GET',
    path: '/api/investor/download/:id',
    summary: 'Download a document',
    access: 'signed-in',
    params: downloadParams,
    query: downloadQuery,
    file: documentFile('The document, as the type its content was recognised as when it was uploaded.'),
    tokenInQuery: true,
  },
  // One version of a document (history kept by corrections). Signed-in, not
  // administrator: an investor asking for an earlier version gets the 404 of an unknown id.
  downloadVersion: {
    method: 'GET',
    path: '/api/investor/download-version/:versionId',
    summary: 'Download an earlier version of a document',
    access: 'signed-in',
    params: downloadVersionParams,
    query: downloadVersionQuery,
    file: documentFile('One version of a document, as the type its content was recognised as.'),
    tokenInQuery: true,
  },
  // Not in the spec: a token of a few minutes that opens one readable document by the
  // download's `?token=`, so that the portal's addresses never carry the 8-hour session token.
  documentLink: {
    method: 'POST',
    path: '/api/investor/document-link',
    summary: 'Get a link of a few minutes that opens one document',
    access: 'signed-in',
    body: documentLinkBody,
    answer: documentLinkAnswer,
  },
  // ---- Investor: shared access -------------------------------------------------------------
  // An investor's own shares. Investors only (403 for other roles and for delegate-only
  // accounts); creating one asks the owner's proof. `ALLOW_SHARING=false` answers 403 to create.
  shares: {
    method: 'GET',
    path: '/api/investor/shares',
    summary: 'List the shares the signed-in investor gave',
    access: 'signed-in',
    answer: outgoingSharesAnswer,
  },
  createShare: {
    method: 'POST',
    path: '/api/investor/shares/create',
    summary: 'Share chosen documents with another person',
    access: 'signed-in',
    body: createShareBody,
    answer: createShareAnswer,
  },
  revokeShare: {
    method: 'POST',
    path: '/api/investor/shares/revoke',
    summary: 'Revoke one of the investor\'s shares',
    access: 'signed-in',
    body: endShareBody,
    answer: messageAnswer,
  },
  // The live shares given to the caller, for the portal's switch between whose documents.
  sharedWithMe: {
    method: 'GET',
    path: '/api/investor/shared-with-me',
    summary: 'List the live shares given to the caller',
    access: 'signed-in',
    answer: incomingSharesAnswer,
  },

  // Answers a CSV file by browser navigation; it holds no data, so anyone may fetch it.
  bulkImportTemplate: { method: 'GET', path: '/api/bulk-import-template', summary: 'Download the CSV template of the bulk user import', access: 'public', file: csvFile('The bulk import template.') },

  // ---- Admin: reads ------------------------------------------------------------------------
  // Not in the spec: read receipts, from the audit rows of previews and downloads.
  readReceiptDocuments: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents',
    summary: 'List documents with how many of their investors opened them',
    access: 'administrator',
    query: receiptDocumentsQuery,
    answer: receiptDocumentsAnswer,
  },
  readReceiptDocument: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents/:documentType/:id',
    summary: 'List which investors opened one document',
    access: 'administrator',
    params: receiptDocumentParams,
    query: receiptPageQuery,
    answer: receiptDocumentAnswer,
  },
  // Answers a CSV file (every entitled investor, no paging).
  readReceiptDocumentCsv: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents/:documentType/:id/csv',
    summary: "Download one document's read receipts as CSV",
    access: 'administrator',
    params: receiptDocumentParams,
    file: csvFile('The read receipts of the document, one row per entitled investor.'),
  },
  readReceiptInvestor: {
    method: 'GET',
    path: '/api/admin/read-receipts/investors/:userId',
    summary: 'List which documents one investor opened',
    access: 'administrator',
    params: receiptInvestorParams,
    query: receiptPageQuery,
    answer: receiptInvestorAnswer,
  },
  // Answers a CSV file (every document of the investor, no paging).
  readReceiptInvestorCsv: {
    method: 'GET',
    path: '/api/admin/read-receipts/investors/:userId/csv',
    summary: "Download one investor's read receipts as CSV",
    access: 'administrator',
    params: receiptInvestorParams,
    file: csvFile('The read receipts of the investor, one row per document.'),
  },
  readReceiptRemind: {
    method: 'POST',
    path: '/api/admin/read-receipts/remind',
    summary: 'E-mail investors a reminder of documents they have not opened',
    access: 'administrator',
    body: remindBody,
    answer: remindAnswer,
  },

  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    summary: 'List users, a page at a time when asked',
    access: 'administrator',
    query: adminUsersQuery,
    answer: adminUsersAnswer,
  },
  adminUserProperties: {
    method: 'GET',
    path: '/api/admin/user-properties',
    summary: 'List which properties each user may see',
    access: 'administrator',
    answer: adminUserPropertiesAnswer,
  },
  adminDocuments: {
    method: 'GET',
    path: '/api/admin/documents',
    summary: 'List every property document',
    access: 'administrator',
    answer: adminDocumentsAnswer,
  },
  adminAllProperties: {
    method: 'GET',
    path: '/api/admin/all-properties',
    summary: 'List every property',
    access: 'administrator',
    answer: adminPropertiesAnswer,
  },
  adminInvestorProperties: {
    method: 'GET',
    path: '/api/admin/investor-properties',
    summary: 'List the properties flagged for investor relations',
    access: 'administrator',
    answer: adminPropertiesAnswer,
  },
  adminProperty: {
    method: 'GET',
    path: '/api/admin/property/:id',
    summary: 'Get one property with everything the panel edits',
    access: 'administrator',
    params: adminPropertyParams,
    answer: adminPropertyAnswer,
  },
  adminPersonalDocuments: {
    method: 'GET',
    path: '/api/admin/user-documents',
    summary: 'List personal documents, a page at a time',
    access: 'administrator',
    query: adminPersonalDocumentsQuery,
    answer: adminPersonalDocumentsAnswer,
  },

  // ---- Admin: users ------------------------------------------------------------------------
  createUser: {
    method: 'POST',
    path: '/api/admin/create-user',
    summary: 'Create a user',
    access: 'administrator',
    body: createUserBody,
    answer: createUserAnswer,
  },
  editUser: {
    method: 'POST',
    path: '/api/admin/edit-user',
    summary: "Change a user's details, role or status",
    access: 'administrator',
    body: editUserBody,
    answer: editUserAnswer,
  },
  deleteUser: {
    method: 'POST',
    path: '/api/admin/delete-user',
    summary: 'Delete a user with their access and personal documents',
    access: 'administrator',
    body: deleteUserBody,
    answer: deleteUserAnswer,
  },
  adminResetPassword: {
    method: 'POST',
    path: '/api/admin/reset-password',
    summary: 'Send a user a password-reset link',
    access: 'administrator',
    body: adminResetPasswordBody,
    answer: adminResetPasswordAnswer,
  },
  /** The welcome e-mail again, with a fresh 7-day link; 409 unless the user is Invited. */
  resendInvitation: {
    method: 'POST',
    path: '/api/admin/resend-invitation',
    summary: "Send an invited user's welcome e-mail again",
    access: 'administrator',
    body: resendInvitationBody,
    answer: resendInvitationAnswer,
  },
  // The shares a user gave and received, and ending any of them.
  adminUserShares: {
    method: 'GET',
    path: '/api/admin/user-shares',
    summary: 'List the shares a user gave and received',
    access: 'administrator',
    query: adminUserSharesQuery,
    answer: adminUserSharesAnswer,
  },
  endShare: {
    method: 'POST',
    path: '/api/admin/end-share',
    summary: 'End any share',
    access: 'administrator',
    body: endShareBody,
    answer: messageAnswer,
  },
  assignProperty: {
    method: 'POST',
    path: '/api/admin/assign-property',
    summary: 'Give a user access to a property',
    access: 'administrator',
    body: assignPropertyBody,
    answer: messageAnswer,
  },
  removeProperty: {
    method: 'POST',
    path: '/api/admin/remove-property',
    summary: "Take a user's access to a property away",
    access: 'administrator',
    body: removePropertyBody,
    answer: messageAnswer,
  },

  // A locked-out user calls the firm; an administrator removes their second step.
  adminSecondStep: {
    method: 'GET',
    path: '/api/admin/second-step',
    summary: 'Get the second steps a user has set up',
    access: 'administrator',
    query: adminSecondStepQuery,
    answer: adminSecondStepAnswer,
  },
  removeSecondStep: {
    method: 'POST',
    path: '/api/admin/remove-second-step',
    summary: "Remove a locked-out user's second step",
    access: 'administrator',
    body: removeSecondStepBody,
    answer: messageAnswer,
  },

  // ---- Admin: properties -------------------------------------------------------------------
  createProperty: {
    method: 'POST',
    path: '/api/admin/create-property',
    summary: 'Create a property',
    access: 'administrator',
    body: createPropertyBody,
    answer: propertyAnswer,
  },
  updateProperty: {
    method: 'POST',
    path: '/api/admin/update-property',
    summary: 'Change a property and its photo',
    access: 'administrator',
    body: updatePropertyBody,
    answer: propertyAnswer,
    multipart: true,
  },
  deleteProperty: {
    method: 'POST',
    path: '/api/admin/delete-property',
    summary: 'Delete a property that nothing names any more',
    access: 'administrator',
    body: deletePropertyBody,
    answer: messageAnswer,
  },

  // Not in the spec: the browser and the desktop app geocode through the server, so neither
  // needs a third-party origin in its CSP and the public service's rate limit is kept in one place.
  geocode: {
    method: 'GET',
    path: '/api/admin/geocode',
    summary: 'Look up the coordinates of an address',
    access: 'administrator',
    query: geocodeQuery,
    answer: geocodeAnswer,
  },

  // ---- Admin: property documents -----------------------------------------------------------
  uploadDocument: {
    method: 'POST',
    path: '/api/admin/upload-document',
    summary: 'Upload a property document',
    access: 'administrator',
    body: uploadDocumentBody,
    answer: documentAnswer,
    multipart: true,
  },
  replaceDocument: {
    method: 'POST',
    path: '/api/admin/replace-document/:documentId',
    summary: "Replace a property document's file, keeping the old one as a version",
    access: 'administrator',
    params: replaceDocumentParams,
    body: replaceDocumentBody,
    answer: documentAnswer,
    multipart: true,
  },
  updateDocument: {
    method: 'POST',
    path: '/api/admin/update-document',
    summary: "Change a property document's details",
    access: 'administrator',
    body: updateDocumentBody,
    answer: documentAnswer,
  },
  deleteDocument: {
    method: 'POST',
    path: '/api/admin/delete-document',
    summary: 'Delete a property document',
    access: 'administrator',
    body: deleteDocumentBody,
    answer: messageAnswer,
  },
  // A document's versions (each correction keeps the file before it), newest first.
  documentVersions: {
    method: 'GET',
    path: '/api/admin/document-versions/:documentType/:documentId',
    summary: "List a document's versions, newest first",
    access: 'administrator',
    params: documentVersionsParams,
    answer: documentVersionsAnswer,
  },
  // Not in the spec: the watched-folder sync's one digest per investor for a batch of uploads.
  notifyDocuments: {
    method: 'POST',
    path: '/api/admin/notify-documents',
    summary: 'E-mail investors one digest of a batch of new documents',
    access: 'administrator',
    body: notifyDocumentsBody,
    answer: notifyDocumentsAnswer,
  },
  // Who a new document of a property would e-mail, asked before an upload.
  documentRecipients: {
    method: 'GET',
    path: '/api/admin/document-recipients',
    summary: 'Count who a new document of a property would e-mail',
    access: 'administrator',
    query: documentRecipientsQuery,
    answer: documentRecipientsAnswer,
  },

  // ---- Admin: personal documents -----------------------------------------------------------
  uploadPersonalDocument: {
    method: 'POST',
    path: '/api/admin/upload-user-document',
    summary: 'Upload a personal document for an investor',
    access: 'administrator',
    body: uploadPersonalDocumentBody,
    answer: personalDocumentAnswer,
    multipart: true,
  },
  editPersonalDocument: {
    method: 'POST',
    path: '/api/admin/edit-user-document',
    summary: "Change a personal document's details",
    access: 'administrator',
    body: editPersonalDocumentBody,
    answer: personalDocumentAnswer,
  },
  deletePersonalDocument: {
    method: 'POST',
    path: '/api/admin/delete-user-document',
    summary: 'Delete a personal document',
    access: 'administrator',
    body: deletePersonalDocumentBody,
    answer: messageAnswer,
  },
  // Not in the spec: a corrected personal document in the watched folder replaces its file.
  replacePersonalDocument: {
    method: 'POST',
    path: '/api/admin/replace-user-document/:documentId',
    summary: "Replace a personal document's file",
    access: 'administrator',
    params: replacePersonalDocumentParams,
    body: replacePersonalDocumentBody,
    answer: personalDocumentAnswer,
    multipart: true,
  },
  bulkUploadPersonalDocuments: {
    method: 'POST',
    path: '/api/admin/bulk-upload-user-documents',
    summary: 'Upload personal documents in bulk with a manifest',
    access: 'administrator',
    body: bulkUploadPersonalDocumentsBody,
    answer: bulkUploadPersonalDocumentsAnswer,
    multipart: true,
  },
  /** decided: the browser's dry run asks about the manifest's e-mails and the files' hashes only. */
  bulkUploadPreview: {
    method: 'POST',
    path: '/api/admin/bulk-upload-preview',
    summary: "Check a bulk upload's manifest and files before sending them",
    access: 'administrator',
    body: bulkUploadPreviewBody,
    answer: bulkUploadPreviewAnswer,
  },
  /** "Match by content": the investors and identifiers the rule gives K-1s to, read where the PDFs are. */
  contentMatchingInvestors: {
    method: 'GET',
    path: '/api/admin/content-matching/investors',
    summary: 'List every investor with the identifiers content matching reads',
    access: 'administrator',
    answer: contentMatchingInvestorsAnswer,
  },

  // ---- Admin: bulk user import -------------------------------------------------------------
  previewBulkImport: {
    method: 'POST',
    path: '/api/admin/preview-bulk-import',
    summary: 'Check a bulk user import before running it',
    access: 'administrator',
    body: previewBulkImportBody,
    answer: previewBulkImportAnswer,
  },
  bulkImportUsers: {
    method: 'POST',
    path: '/api/admin/bulk-import-users',
    summary: 'Import users in bulk',
    access: 'administrator',
    body: bulkImportUsersBody,
    answer: bulkImportUsersAnswer,
  },

  // The Activity tab: administrators' changes from the audit rows.
  activity: {
    method: 'GET',
    path: '/api/admin/activity',
    summary: "List administrators' changes, filtered and a page at a time",
    access: 'administrator',
    query: activityQuery,
    answer: activityAnswer,
  },
  activityEntry: {
    method: 'GET',
    path: '/api/admin/activity/entries/:id',
    summary: 'Get one change with its details',
    access: 'administrator',
    params: activityEntryParams,
    answer: activityEntryAnswer,
  },
  activityPeople: {
    method: 'GET',
    path: '/api/admin/activity/people',
    summary: 'List the people who made changes',
    access: 'administrator',
    answer: activityPeopleAnswer,
  },
  // Answers a CSV file of the filtered view, newest first, at most maxActivityCsvRows entries.
  activityCsv: {
    method: 'GET',
    path: '/api/admin/activity/csv',
    summary: 'Download the filtered changes as CSV',
    access: 'administrator',
    query: activityFilters,
    file: csvFile('The filtered changes, newest first.'),
  },

  // The System tab: backups, the outbox, the disk.
  systemStatus: {
    method: 'GET',
    path: '/api/admin/system',
    summary: 'Get the state of backups, e-mail delivery, disk and database',
    access: 'administrator',
    answer: systemStatusAnswer,
  },
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
