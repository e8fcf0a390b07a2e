import type { z } from 'zod';
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
  adminUserDocumentsAnswer,
  adminUserDocumentsQuery,
  bulkUploadPreviewAnswer,
  bulkUploadPreviewBody,
  bulkUploadUserDocumentsAnswer,
  bulkUploadUserDocumentsBody,
  deleteUserDocumentBody,
  editUserDocumentBody,
  replaceUserDocumentBody,
  replaceUserDocumentParams,
  uploadUserDocumentBody,
  userDocumentAnswer,
} from './schemas/user-document';
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

/** Who may call a route: anyone, any signed-in user, or administrators only. */
export type Access = 'public' | 'signed-in' | 'administrator';

export interface RouteDef {
  method: 'GET' | 'POST';
  /** Koa-style path: `/api/investor/download/:id`. */
  path: string;
  access: Access;
  /** JSON body, or the text fields of a multipart body when `multipart` is set. */
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  /** The JSON answer; absent for routes that answer a file. */
  answer?: z.ZodType;
  /**
   * The body may be multipart/form-data (files plus text fields, where numbers and yes/no
   * arrive as strings and the body schema coerces them). update-property also takes JSON.
   */
  multipart?: boolean;
  /**
   * Open to an account whose role must sign in with two steps (REQUIRE_SECOND_STEP) and that has
   * not set one up yet: the set-up itself, reading the profile and signing out. Every other
   * signed-in route refuses such a session (issue 33), so a password alone opens nothing.
   */
  beforeSecondStep?: true;
  /**
   * A path parameter is a secret (a reset link's token, in the spec's path): logs name the call
   * by its pattern, never by the address asked (issue 33).
   */
  secretInPath?: true;
}

/** Every call of both specs' section 7, one line each. Servers and clients read it. */
export const routes = {
  // ---- Public site -------------------------------------------------------------------------
  health: { method: 'GET', path: '/api/health', access: 'public', answer: healthAnswer },
  // Not in the spec: this table as an OpenAPI 3.1 document, for the firm's other systems.
  openApi: { method: 'GET', path: '/api/openapi.json', access: 'public', answer: openApiAnswer },
  healthReady: { method: 'GET', path: '/api/health/ready', access: 'public', answer: readyAnswer },
  listProperties: {
    method: 'GET',
    path: '/api/properties',
    access: 'public',
    answer: publicPropertyList,
  },
  recaptchaSiteKey: {
    method: 'GET',
    path: '/api/recaptcha-site-key',
    access: 'public',
    answer: recaptchaSiteKeyAnswer,
  },
  contact: { method: 'POST', path: '/api/contact', access: 'public', body: contactBody, answer: contactAnswer },
  // Not in the spec: where the self-hosted captcha (ALTCHA, the default) fetches its challenge.
  captchaChallenge: {
    method: 'GET',
    path: '/api/captcha/challenge',
    access: 'public',
    answer: captchaChallengeAnswer,
  },

  // ---- Investor: session and password ------------------------------------------------------
  // The spec's `{ token, user }`, or `{ mfaRequired, mfaToken, methods }` for an account with a
  // second step (issue 21), which then signs in with loginVerify.
  login: { method: 'POST', path: '/api/investor/login', access: 'public', body: loginBody, answer: loginOrSecondStepAnswer },
  loginVerify: {
    method: 'POST',
    path: '/api/investor/login/verify',
    access: 'public',
    body: loginVerifyBody,
    answer: loginAnswer,
  },
  // Issue 21: the signed challenge for a passkey as the second step of this sign-in.
  passkeySignInOptions: {
    method: 'POST',
    path: '/api/investor/login/passkey-options',
    access: 'public',
    body: passkeySignInOptionsBody,
    answer: passkeyRequestOptionsAnswer,
  },
  // Not in the spec: ends this session on the server (the spec's Logout only forgot it).
  logout: {
    method: 'POST',
    path: '/api/investor/logout',
    access: 'signed-in',
    beforeSecondStep: true,
    body: emptyBody,
    answer: messageAnswer,
  },
  // Not in the spec (issue 33): the account's signed-in sessions in Manage Profile, and ending
  // the others. No password: they only protect the account.
  sessions: { method: 'GET', path: '/api/investor/sessions', access: 'signed-in', answer: sessionsAnswer },
  endOtherSessions: {
    method: 'POST',
    path: '/api/investor/sessions/end-others',
    access: 'signed-in',
    body: emptyBody,
    answer: endSessionsAnswer,
  },
  endSession: {
    method: 'POST',
    path: '/api/investor/sessions/end',
    access: 'signed-in',
    body: endSessionBody,
    answer: endSessionsAnswer,
  },
  profile: { method: 'GET', path: '/api/investor/profile', access: 'signed-in', beforeSecondStep: true, answer: profileAnswer },
  updateProfile: {
    method: 'POST',
    path: '/api/investor/update-profile',
    access: 'signed-in',
    body: updateProfileBody,
    answer: updateProfileAnswer,
  },
  changePassword: {
    method: 'POST',
    path: '/api/investor/change-password',
    access: 'signed-in',
    body: changePasswordBody,
    answer: changePasswordAnswer,
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/api/investor/request-password-reset',
    access: 'public',
    body: requestPasswordResetBody,
    answer: messageAnswer,
  },
  validateResetToken: {
    method: 'GET',
    path: '/api/investor/validate-reset-token/:token',
    access: 'public',
    secretInPath: true,
    params: validateResetTokenParams,
    answer: validateResetTokenAnswer,
  },
  // The token in the body is the proof of identity: no sign-in needed.
  resetPassword: {
    method: 'POST',
    path: '/api/investor/reset-password',
    access: 'public',
    body: resetPasswordBody,
    answer: messageAnswer,
  },
  // Not in the spec (issue 33): a new e-mail address asked for by update-profile takes effect
  // only when the link sent to it is opened (confirm), and the old address can put itself back
  // (undo). The token in the body is the proof: no sign-in needed, and never a token in a path.
  confirmEmailChange: {
    method: 'POST',
    path: '/api/investor/confirm-email-change',
    access: 'public',
    body: emailChangeLinkBody,
    answer: emailChangeLinkAnswer,
  },
  undoEmailChange: {
    method: 'POST',
    path: '/api/investor/undo-email-change',
    access: 'public',
    body: emailChangeLinkBody,
    answer: emailChangeLinkAnswer,
  },
  // The owner withdraws a change still waiting for its link: no proof, it only keeps the address.
  cancelEmailChange: {
    method: 'POST',
    path: '/api/investor/cancel-email-change',
    access: 'signed-in',
    body: emptyBody,
    answer: updateProfileAnswer,
  },

  // ---- Investor: second step (issue 21) ----------------------------------------------------
  secondStep: {
    method: 'GET',
    path: '/api/investor/second-step',
    access: 'signed-in',
    beforeSecondStep: true,
    answer: secondStepStatusAnswer,
  },
  // Each change of the second step asks for an owner proof (issue 33): the password or a code.
  startTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/start',
    access: 'signed-in',
    beforeSecondStep: true,
    body: secondStepChangeBody,
    answer: startTotpAnswer,
  },
  confirmTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/confirm',
    access: 'signed-in',
    beforeSecondStep: true,
    body: confirmTotpBody,
    answer: backupCodesAnswer,
  },
  // Removes the authenticator app alone; passkeys and backup codes stay while any second step does.
  removeTotp: {
    method: 'POST',
    path: '/api/investor/second-step/totp/remove',
    access: 'signed-in',
    body: secondStepChangeBody,
    answer: messageAnswer,
  },
  regenerateBackupCodes: {
    method: 'POST',
    path: '/api/investor/second-step/backup-codes',
    access: 'signed-in',
    body: secondStepChangeBody,
    answer: backupCodesAnswer,
  },

  passkeyCreationOptions: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys/options',
    access: 'signed-in',
    beforeSecondStep: true,
    body: secondStepChangeBody,
    answer: passkeyCreationOptionsAnswer,
  },
  registerPasskey: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys',
    access: 'signed-in',
    beforeSecondStep: true,
    body: registerPasskeyBody,
    answer: registerPasskeyAnswer,
  },
  removePasskey: {
    method: 'POST',
    path: '/api/investor/second-step/passkeys/remove',
    access: 'signed-in',
    body: removePasskeyBody,
    answer: messageAnswer,
  },

  // ---- Investor: documents -----------------------------------------------------------------
  // `?onBehalfOf=` (issue 36): the documents a live share from that investor covers.
  investorDocuments: {
    method: 'GET',
    path: '/api/investor/documents',
    access: 'signed-in',
    query: investorDocumentsQuery,
    answer: investorDocumentsAnswer,
  },
  investorCategories: {
    method: 'GET',
    path: '/api/investor/categories',
    access: 'signed-in',
    query: investorDocumentsQuery,
    answer: investorCategoriesAnswer,
  },
  // Answers the file. Opened by browser navigation, so the session may come as `?token=`.
  download: {
    method: 'GET',
    path: '/api/investor/download/:id',
    access: 'signed-in',
    params: downloadParams,
    query: downloadQuery,
  },
  // Issue 21: one version of a document (history kept by corrections). Signed-in, not
  // administrator: an investor asking for an earlier version gets the 404 of an unknown id.
  downloadVersion: {
    method: 'GET',
    path: '/api/investor/download-version/:versionId',
    access: 'signed-in',
    params: downloadVersionParams,
    query: downloadVersionQuery,
  },
  // Not in the spec (issue 22): a token of a few minutes that opens one readable document by the
  // download's `?token=`, so that the portal's addresses never carry the 8-hour session token.
  documentLink: {
    method: 'POST',
    path: '/api/investor/document-link',
    access: 'signed-in',
    body: documentLinkBody,
    answer: documentLinkAnswer,
  },
  // ---- Investor: shared access (issue 36) -------------------------------------------------
  // An investor's own shares. Investors only (403 for other roles and for delegate-only
  // accounts); creating one asks the owner's proof. `ALLOW_SHARING=false` answers 403 to create.
  shares: { method: 'GET', path: '/api/investor/shares', access: 'signed-in', answer: outgoingSharesAnswer },
  createShare: {
    method: 'POST',
    path: '/api/investor/shares/create',
    access: 'signed-in',
    body: createShareBody,
    answer: createShareAnswer,
  },
  revokeShare: {
    method: 'POST',
    path: '/api/investor/shares/revoke',
    access: 'signed-in',
    body: endShareBody,
    answer: messageAnswer,
  },
  // The live shares given to the caller, for the portal's switch between whose documents.
  sharedWithMe: { method: 'GET', path: '/api/investor/shared-with-me', access: 'signed-in', answer: incomingSharesAnswer },

  // Answers a CSV file by browser navigation; it holds no data, so anyone may fetch it.
  bulkImportTemplate: { method: 'GET', path: '/api/bulk-import-template', access: 'public' },

  // ---- Admin: reads ------------------------------------------------------------------------
  // Not in the spec: read receipts (issue 21), from the audit rows of previews and downloads.
  readReceiptDocuments: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents',
    access: 'administrator',
    query: receiptDocumentsQuery,
    answer: receiptDocumentsAnswer,
  },
  readReceiptDocument: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents/:documentType/:id',
    access: 'administrator',
    params: receiptDocumentParams,
    query: receiptPageQuery,
    answer: receiptDocumentAnswer,
  },
  // Answers a CSV file (every entitled investor, no paging).
  readReceiptDocumentCsv: {
    method: 'GET',
    path: '/api/admin/read-receipts/documents/:documentType/:id/csv',
    access: 'administrator',
    params: receiptDocumentParams,
  },
  readReceiptInvestor: {
    method: 'GET',
    path: '/api/admin/read-receipts/investors/:userId',
    access: 'administrator',
    params: receiptInvestorParams,
    query: receiptPageQuery,
    answer: receiptInvestorAnswer,
  },
  // Answers a CSV file (every document of the investor, no paging).
  readReceiptInvestorCsv: {
    method: 'GET',
    path: '/api/admin/read-receipts/investors/:userId/csv',
    access: 'administrator',
    params: receiptInvestorParams,
  },
  readReceiptRemind: {
    method: 'POST',
    path: '/api/admin/read-receipts/remind',
    access: 'administrator',
    body: remindBody,
    answer: remindAnswer,
  },

  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    access: 'administrator',
    query: adminUsersQuery,
    answer: adminUsersAnswer,
  },
  adminUserProperties: {
    method: 'GET',
    path: '/api/admin/user-properties',
    access: 'administrator',
    answer: adminUserPropertiesAnswer,
  },
  adminDocuments: {
    method: 'GET',
    path: '/api/admin/documents',
    access: 'administrator',
    answer: adminDocumentsAnswer,
  },
  adminAllProperties: {
    method: 'GET',
    path: '/api/admin/all-properties',
    access: 'administrator',
    answer: adminPropertiesAnswer,
  },
  adminInvestorProperties: {
    method: 'GET',
    path: '/api/admin/investor-properties',
    access: 'administrator',
    answer: adminPropertiesAnswer,
  },
  adminProperty: {
    method: 'GET',
    path: '/api/admin/property/:id',
    access: 'administrator',
    params: adminPropertyParams,
    answer: adminPropertyAnswer,
  },
  adminUserDocuments: {
    method: 'GET',
    path: '/api/admin/user-documents',
    access: 'administrator',
    query: adminUserDocumentsQuery,
    answer: adminUserDocumentsAnswer,
  },

  // ---- Admin: users ------------------------------------------------------------------------
  createUser: {
    method: 'POST',
    path: '/api/admin/create-user',
    access: 'administrator',
    body: createUserBody,
    answer: createUserAnswer,
  },
  editUser: {
    method: 'POST',
    path: '/api/admin/edit-user',
    access: 'administrator',
    body: editUserBody,
    answer: editUserAnswer,
  },
  deleteUser: {
    method: 'POST',
    path: '/api/admin/delete-user',
    access: 'administrator',
    body: deleteUserBody,
    answer: deleteUserAnswer,
  },
  adminResetPassword: {
    method: 'POST',
    path: '/api/admin/reset-password',
    access: 'administrator',
    body: adminResetPasswordBody,
    answer: adminResetPasswordAnswer,
  },
  /** Issue 35: the welcome e-mail again, with a fresh 7-day link; 409 unless the user is Invited. */
  resendInvitation: {
    method: 'POST',
    path: '/api/admin/resend-invitation',
    access: 'administrator',
    body: resendInvitationBody,
    answer: resendInvitationAnswer,
  },
  // Issue 36: the shares a user gave and received, and ending any of them.
  adminUserShares: {
    method: 'GET',
    path: '/api/admin/user-shares',
    access: 'administrator',
    query: adminUserSharesQuery,
    answer: adminUserSharesAnswer,
  },
  endShare: {
    method: 'POST',
    path: '/api/admin/end-share',
    access: 'administrator',
    body: endShareBody,
    answer: messageAnswer,
  },
  assignProperty: {
    method: 'POST',
    path: '/api/admin/assign-property',
    access: 'administrator',
    body: assignPropertyBody,
    answer: messageAnswer,
  },
  removeProperty: {
    method: 'POST',
    path: '/api/admin/remove-property',
    access: 'administrator',
    body: removePropertyBody,
    answer: messageAnswer,
  },

  // Issue 21: a locked-out user calls the firm; an administrator removes their second step.
  adminSecondStep: {
    method: 'GET',
    path: '/api/admin/second-step',
    access: 'administrator',
    query: adminSecondStepQuery,
    answer: adminSecondStepAnswer,
  },
  removeSecondStep: {
    method: 'POST',
    path: '/api/admin/remove-second-step',
    access: 'administrator',
    body: removeSecondStepBody,
    answer: messageAnswer,
  },

  // ---- Admin: properties -------------------------------------------------------------------
  createProperty: {
    method: 'POST',
    path: '/api/admin/create-property',
    access: 'administrator',
    body: createPropertyBody,
    answer: propertyAnswer,
  },
  updateProperty: {
    method: 'POST',
    path: '/api/admin/update-property',
    access: 'administrator',
    body: updatePropertyBody,
    answer: propertyAnswer,
    multipart: true,
  },
  deleteProperty: {
    method: 'POST',
    path: '/api/admin/delete-property',
    access: 'administrator',
    body: deletePropertyBody,
    answer: messageAnswer,
  },

  // Not in the spec: the browser and the desktop app geocode through the server, so neither
  // needs a third-party origin in its CSP and the public service's rate limit is kept in one place.
  geocode: {
    method: 'GET',
    path: '/api/admin/geocode',
    access: 'administrator',
    query: geocodeQuery,
    answer: geocodeAnswer,
  },

  // ---- Admin: property documents -----------------------------------------------------------
  uploadDocument: {
    method: 'POST',
    path: '/api/admin/upload-document',
    access: 'administrator',
    body: uploadDocumentBody,
    answer: documentAnswer,
    multipart: true,
  },
  replaceDocument: {
    method: 'POST',
    path: '/api/admin/replace-document/:documentId',
    access: 'administrator',
    params: replaceDocumentParams,
    body: replaceDocumentBody,
    answer: documentAnswer,
    multipart: true,
  },
  updateDocument: {
    method: 'POST',
    path: '/api/admin/update-document',
    access: 'administrator',
    body: updateDocumentBody,
    answer: documentAnswer,
  },
  deleteDocument: {
    method: 'POST',
    path: '/api/admin/delete-document',
    access: 'administrator',
    body: deleteDocumentBody,
    answer: messageAnswer,
  },
  // Issue 21: a document's versions (each correction keeps the file before it), newest first.
  documentVersions: {
    method: 'GET',
    path: '/api/admin/document-versions/:documentType/:documentId',
    access: 'administrator',
    params: documentVersionsParams,
    answer: documentVersionsAnswer,
  },
  // Not in the spec: the watched-folder sync's one digest per investor for a batch of uploads.
  notifyDocuments: {
    method: 'POST',
    path: '/api/admin/notify-documents',
    access: 'administrator',
    body: notifyDocumentsBody,
    answer: notifyDocumentsAnswer,
  },
  // Issue 32: who a new document of a property would e-mail, asked before an upload.
  documentRecipients: {
    method: 'GET',
    path: '/api/admin/document-recipients',
    access: 'administrator',
    query: documentRecipientsQuery,
    answer: documentRecipientsAnswer,
  },

  // ---- Admin: personal documents -----------------------------------------------------------
  uploadUserDocument: {
    method: 'POST',
    path: '/api/admin/upload-user-document',
    access: 'administrator',
    body: uploadUserDocumentBody,
    answer: userDocumentAnswer,
    multipart: true,
  },
  editUserDocument: {
    method: 'POST',
    path: '/api/admin/edit-user-document',
    access: 'administrator',
    body: editUserDocumentBody,
    answer: userDocumentAnswer,
  },
  deleteUserDocument: {
    method: 'POST',
    path: '/api/admin/delete-user-document',
    access: 'administrator',
    body: deleteUserDocumentBody,
    answer: messageAnswer,
  },
  // Not in the spec: a corrected personal document in the watched folder replaces its file.
  replaceUserDocument: {
    method: 'POST',
    path: '/api/admin/replace-user-document/:documentId',
    access: 'administrator',
    params: replaceUserDocumentParams,
    body: replaceUserDocumentBody,
    answer: userDocumentAnswer,
    multipart: true,
  },
  bulkUploadUserDocuments: {
    method: 'POST',
    path: '/api/admin/bulk-upload-user-documents',
    access: 'administrator',
    body: bulkUploadUserDocumentsBody,
    answer: bulkUploadUserDocumentsAnswer,
    multipart: true,
  },
  /** decided: the browser's dry run asks about the manifest's e-mails and the files' hashes only. */
  bulkUploadPreview: {
    method: 'POST',
    path: '/api/admin/bulk-upload-preview',
    access: 'administrator',
    body: bulkUploadPreviewBody,
    answer: bulkUploadPreviewAnswer,
  },

  // ---- Admin: bulk user import -------------------------------------------------------------
  previewBulkImport: {
    method: 'POST',
    path: '/api/admin/preview-bulk-import',
    access: 'administrator',
    body: previewBulkImportBody,
    answer: previewBulkImportAnswer,
  },
  bulkImportUsers: {
    method: 'POST',
    path: '/api/admin/bulk-import-users',
    access: 'administrator',
    body: bulkImportUsersBody,
    answer: bulkImportUsersAnswer,
  },

  // The Activity tab (issue 35): administrators' changes from the audit rows.
  activity: {
    method: 'GET',
    path: '/api/admin/activity',
    access: 'administrator',
    query: activityQuery,
    answer: activityAnswer,
  },
  activityEntry: {
    method: 'GET',
    path: '/api/admin/activity/entries/:id',
    access: 'administrator',
    params: activityEntryParams,
    answer: activityEntryAnswer,
  },
  activityPeople: {
    method: 'GET',
    path: '/api/admin/activity/people',
    access: 'administrator',
    answer: activityPeopleAnswer,
  },
  // Answers a CSV file of the filtered view, newest first, at most maxActivityCsvRows entries.
  activityCsv: {
    method: 'GET',
    path: '/api/admin/activity/csv',
    access: 'administrator',
    query: activityFilters,
  },
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** The names of `:param` segments of a path: `'/a/:id/b/:key'` gives `'id' | 'key'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = Record<PathParamNames<P>, string | number>;

/**
 * The path of a route with its `:param` segments filled in, each URL-encoded:
 * `pathFor(routes.download, { id: 7 })` gives `/api/investor/download/7`.
 */
export function pathFor<P extends string>(
  route: { path: P },
  ...params: [PathParamNames<P>] extends [never] ? [params?: Record<string, never>] : [params: PathParams<P>]
): string;
export function pathFor(route: { path: string }, params?: Record<string, string | number>): string {
  return fillPath(route.path, params ?? {});
}

/** `pathFor` for a path known only at run time. */
export function fillPath(path: string, params: Readonly<Record<string, unknown>>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_segment, name: string) => {
    const value = params[name];
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') {
      throw new Error(`The path ${path} needs the parameter '${name}'.`);
    }
    return encodeURIComponent(String(value));
  });
}
