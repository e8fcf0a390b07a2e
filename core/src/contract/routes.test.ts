import { describe, expect, it } from 'vitest';
import { routes, type RouteDef } from './routes';

const entries = Object.entries(routes) as [string, RouteDef][];

// Section 7 of both specs, plus the health checks (liveness and readiness), the self-hosted captcha's
// challenge, the sign-out that ends a session on the server, the geocoding the server does for the
// panel, the bulk upload's dry-run lookup, the watched-folder sync's batch digest and personal
// document replacement, the OpenAPI document, issue 21's two-step sign-in, read receipts and
// document versions, issue 22's document links, issue 32's count of a document's recipients, and
// issue 33's e-mail change links.
const specCalls = [
  'GET /api/admin/document-versions/:documentType/:documentId',
  'GET /api/investor/download-version/:versionId',
  'POST /api/investor/document-link',
  'POST /api/admin/notify-documents',
  'GET /api/admin/document-recipients',
  'POST /api/admin/replace-user-document/:documentId',
  'GET /api/health',
  'GET /api/openapi.json',
  'GET /api/health/ready',
  'GET /api/admin/read-receipts/documents',
  'GET /api/admin/read-receipts/documents/:documentType/:id',
  'GET /api/admin/read-receipts/documents/:documentType/:id/csv',
  'GET /api/admin/read-receipts/investors/:userId',
  'GET /api/admin/read-receipts/investors/:userId/csv',
  'POST /api/admin/read-receipts/remind',
  // Issue 35: the Activity tab.
  'GET /api/admin/activity',
  'GET /api/admin/activity/entries/:id',
  'GET /api/admin/activity/people',
  'GET /api/admin/activity/csv',
  // Issue 49: the System tab.
  'GET /api/admin/system',
  // Issue 50: match by content.
  'GET /api/admin/content-matching/investors',
  // Issue 36: shared access.
  'GET /api/investor/shares',
  'POST /api/investor/shares/create',
  'POST /api/investor/shares/revoke',
  'GET /api/investor/shared-with-me',
  'GET /api/admin/user-shares',
  'POST /api/admin/end-share',
  'GET /api/captcha/challenge',
  'POST /api/investor/logout',
  'GET /api/investor/sessions',
  'POST /api/investor/sessions/end-others',
  'POST /api/investor/sessions/end',
  'GET /api/admin/geocode',
  'POST /api/admin/bulk-upload-preview',
  'POST /api/investor/login/verify',
  'GET /api/investor/second-step',
  'POST /api/investor/second-step/totp/start',
  'POST /api/investor/second-step/totp/confirm',
  'POST /api/investor/second-step/totp/remove',
  'POST /api/investor/second-step/backup-codes',
  'POST /api/investor/login/passkey-options',
  'POST /api/investor/second-step/passkeys/options',
  'POST /api/investor/second-step/passkeys',
  'POST /api/investor/second-step/passkeys/remove',
  'GET /api/admin/second-step',
  'POST /api/admin/remove-second-step',
  'GET /api/properties',
  'GET /api/recaptcha-site-key',
  'POST /api/contact',
  'POST /api/investor/login',
  'GET /api/investor/profile',
  'POST /api/investor/update-profile',
  'POST /api/investor/change-password',
  'POST /api/investor/request-password-reset',
  'GET /api/investor/validate-reset-token/:token',
  'POST /api/investor/reset-password',
  'POST /api/investor/confirm-email-change',
  'POST /api/investor/undo-email-change',
  'POST /api/investor/cancel-email-change',
  'GET /api/investor/documents',
  'GET /api/investor/categories',
  'GET /api/investor/download/:id',
  'GET /api/bulk-import-template',
  'GET /api/admin/users',
  'GET /api/admin/user-properties',
  'GET /api/admin/documents',
  'GET /api/admin/all-properties',
  'GET /api/admin/investor-properties',
  'GET /api/admin/property/:id',
  'GET /api/admin/user-documents',
  'POST /api/admin/create-user',
  'POST /api/admin/edit-user',
  'POST /api/admin/delete-user',
  'POST /api/admin/reset-password',
  'POST /api/admin/resend-invitation', // issue 35
  'POST /api/admin/assign-property',
  'POST /api/admin/remove-property',
  'POST /api/admin/create-property',
  'POST /api/admin/update-property',
  'POST /api/admin/delete-property',
  'POST /api/admin/upload-document',
  'POST /api/admin/replace-document/:documentId',
  'POST /api/admin/update-document',
  'POST /api/admin/delete-document',
  'POST /api/admin/upload-user-document',
  'POST /api/admin/edit-user-document',
  'POST /api/admin/delete-user-document',
  'POST /api/admin/bulk-upload-user-documents',
  'POST /api/admin/preview-bulk-import',
  'POST /api/admin/bulk-import-users',
];

// The calls that need no sign-in: the public site's, signing in, and the password reset steps.
const publicCalls = new Set([
  'health',
  'openApi',
  'healthReady',
  'listProperties',
  'recaptchaSiteKey',
  'captchaChallenge',
  'contact',
  'login',
  'loginVerify',
  'passkeySignInOptions',
  'requestPasswordReset',
  'validateResetToken',
  'resetPassword',
  'confirmEmailChange',
  'undoEmailChange',
  'bulkImportTemplate',
]);

describe('route table', () => {
  it('holds exactly the calls of both specs, one entry each', () => {
    const calls = entries.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(calls).size).toBe(calls.length);
    expect([...calls].sort()).toEqual([...specCalls].sort());
  });

  it('gives every route a summary of its own, a few words long (the API description shows it)', () => {
    for (const [name, route] of entries) {
      expect(route.summary, name).toMatch(/^[A-Z][^\n]*[^\s.]$/);
      expect(route.summary.length, name).toBeLessThanOrEqual(80);
    }
    const summaries = entries.map(([, route]) => route.summary);
    expect(new Set(summaries).size).toBe(summaries.length);
  });

  it('puts every path under /api/', () => {
    for (const [, route] of entries) expect(route.path.startsWith('/api/')).toBe(true);
  });

  it('lets only administrators call /api/admin/ routes', () => {
    for (const [name, route] of entries) {
      if (route.path.startsWith('/api/admin/')) expect(route.access, name).toBe('administrator');
    }
  });

  it('leaves public only the calls the specs make without a sign-in', () => {
    const publicNames = entries.filter(([, r]) => r.access === 'public').map(([name]) => name);
    expect(new Set(publicNames)).toEqual(publicCalls);
  });

  it('gives every POST a body schema and every answering route a JSON answer but the file routes', () => {
    for (const [name, route] of entries) {
      if (route.method === 'POST') expect(route.body, name).toBeDefined();
      const answersFile = ['download', 'downloadVersion', 'bulkImportTemplate', 'readReceiptDocumentCsv', 'readReceiptInvestorCsv', 'activityCsv'].includes(name);
      expect(route.answer === undefined, name).toBe(answersFile);
    }
  });

  it('declares a params schema exactly for the paths with :params', () => {
    for (const [name, route] of entries) {
      expect(route.params !== undefined, name).toBe(route.path.includes(':'));
    }
  });

  it('marks the file-carrying routes as multipart', () => {
    const multipart = entries.filter(([, r]) => r.multipart).map(([name]) => name);
    expect(multipart.sort()).toEqual(
      ['bulkUploadPersonalDocuments', 'replaceDocument', 'replacePersonalDocument', 'updateProperty', 'uploadDocument', 'uploadPersonalDocument'].sort(),
    );
  });

  it('answers every admin and investor write with at least a message, login, previews and document links aside', () => {
    // Passkey options hand out a challenge to sign: the browser reads them, no person does.
    const reads = new Set(['login', 'loginVerify', 'passkeySignInOptions', 'passkeyCreationOptions', 'previewBulkImport', 'bulkUploadPreview', 'documentLink']);
    for (const [name, route] of entries) {
      if (route.method !== 'POST' || reads.has(name)) continue;
      const shape = (route.answer as { shape?: Record<string, unknown> } | undefined)?.shape;
      expect(shape && 'message' in shape, name).toBe(true);
    }
  });
});
