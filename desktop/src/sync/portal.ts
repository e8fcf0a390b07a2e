import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ApiError, createApiClient, type ApiClient } from '@everest/core/client';
import type {
  BulkUploadPreviewAnswer,
  BulkUploadPersonalDocumentsAnswer,
  ContentMatchingInvestorsAnswer,
  DocumentAnswer,
  DocumentRecipientsAnswer,
  NotifyDocumentsAnswer,
  PropertyDocument,
  UploadDocumentBody,
  PersonalDocumentAnswer,
} from '@everest/core/contract';
import type { Quarter } from '@everest/core/domain';
import { SignInRefused } from './failures';

/** What the sync asks of the server: the admin routes of the contract, signed in as an administrator. */
export interface Portal {
  propertyNames(): Promise<string[]>;
  propertyDocuments(): Promise<PropertyDocument[]>;
  /** The sha256 of a published property document's file. */
  documentSha256(documentId: number): Promise<string>;
  /**
   * `notifyLater` (with emailNotification): the e-mail waits for notifyDocuments. The
   * `idempotencyKey` names this publication: the same key again, a retry after a lost
   * answer, is answered with the first request's result instead of a second document.
   */
  uploadDocument(
    fields: Omit<UploadDocumentBody, 'emailNotification' | 'notifyLater'> & { emailNotification: boolean; notifyLater?: boolean },
    file: LocalFile,
    options: { idempotencyKey: string },
  ): Promise<DocumentAnswer>;
  /**
   * `property`: the destination the file belongs to; the server refuses (409) to
   * put it under a document filed elsewhere. `notifyLater` (with emailNotification): a
   * correction's e-mail waits for notifyDocuments, which lists it as corrected.
   */
  replaceDocument(documentId: number, file: LocalFile, options: { property: string } & Notification): Promise<DocumentAnswer>;
  /**
   * One digest per reader for these documents uploaded with notifyLater, property and personal
   * together; a repeat sends nothing.
   */
  notifyDocuments(ids: { documentIds: number[]; userDocumentIds: number[] }): Promise<NotifyDocumentsAnswer>;
  /**
   * `userEmail`: the investor the file was published for; the server refuses (409) another's
   * document. `notifyLater` as replaceDocument's.
   */
  replacePersonalDocument(documentId: number, file: LocalFile, options: { userEmail: string } & Notification): Promise<PersonalDocumentAnswer>;
  bulkPreview(emails: string[], sha256: string[]): Promise<BulkUploadPreviewAnswer>;
  /** Who a new document of this property (or General) would reach, as the panel asks before an upload. */
  documentRecipients(property: string): Promise<DocumentRecipientsAnswer>;
  /**
   * `year` and `quarter`: the batch's period, its quarter folder's (a row's own document_date
   * still wins). `notifyLater` (with emailNotification): the e-mails wait for notifyDocuments.
   */
  bulkUpload(
    manifest: { name: string; text: string },
    files: LocalFile[],
    options: { emailNotification: boolean; idempotencyKey: string; year?: number; quarter?: Quarter; notifyLater?: boolean },
  ): Promise<BulkUploadPersonalDocumentsAnswer>;
  /**
   * Every investor with what identifies them on a K-1 (content-matching-investors): asked only by
   * a sync that matches K-1s by content, so a portal made for the rest of the sync may leave it out.
   */
  contentMatchingInvestors?(): Promise<ContentMatchingInvestorsAnswer['investors']>;
}

/** Whether readers are e-mailed about a correction, and whether that waits for the batch's digest. */
export interface Notification {
  emailNotification?: boolean;
  notifyLater?: boolean;
}

function setNotification(form: FormData, { emailNotification, notifyLater }: Notification): void {
  if (emailNotification) form.set('emailNotification', 'true');
  if (emailNotification && notifyLater) form.set('notifyLater', 'true');
}

export interface LocalFile {
  absolutePath: string;
  /** The name sent (NFC). */
  name: string;
}

export interface PortalOptions {
  serverUrl: string;
  email: string;
  password: string;
  /**
   * A TOTP or backup code for an account with a second step (two-factor sign-in), asked for at each
   * sign-in that needs one: the CLI prompts at a terminal, or takes EVEREST_SECOND_STEP_CODE.
   * Without it such an account is refused with a sentence.
   */
  secondStepCode?: () => Promise<string>;
  fetch?: typeof globalThis.fetch;
}

async function fileOf(local: LocalFile): Promise<File> {
  return new File([await readFile(local.absolutePath)], local.name);
}

/** How a Portal reaches the server: the client, its token, and what surrounds each call. */
export interface PortalAccess {
  client(): ApiClient;
  token(): string | null;
  fetch?: typeof globalThis.fetch;
  /** Runs a call signed in (signing in first, again after a 401, or ending the session). */
  signedIn<T>(work: () => Promise<T>): Promise<T>;
}

export const notAnAdministrator = 'The sync signs in as an administrator: this account is not one.';

export const secondStepNeeded =
  'This account signs in with a second step: run the sync at a terminal to type a code, or set EVEREST_SECOND_STEP_CODE to a current code from the authenticator app (or a backup code).';

/**
 * Signs in with the given administrator's e-mail and password (and a second-step code when the
 * account has one), and signs in again once when a
 * call answers 401 (a session that expired during a long watch).
 */
export function createPortal(options: PortalOptions): Portal {
  let token: string | null = null;
  const client: ApiClient = createApiClient({ baseUrl: options.serverUrl, getToken: () => token, fetch: options.fetch });

  /**
   * Any answer of the sign-in routes that is not a session (401 wrong password or deactivated,
   * a wrong second-step code, 429 with `captchaRequired` or a lock-out, a non-administrator) is
   * a SignInRefused: the engine stops on it instead of retrying, which could lock the account
   * out. No answer at all
   * (the portal away) stays an ApiError the engine waits out.
   */
  async function signIn(): Promise<void> {
    token = null;
    const refused = (error: unknown): never => {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) throw new SignInRefused(error.message, { cause: error });
      throw error;
    };
    const first = await client.call('login', { body: { email: options.email, password: options.password } }).catch(refused);
    let answer;
    if ('mfaRequired' in first) {
      if (!options.secondStepCode) throw new SignInRefused(secondStepNeeded);
      const code = await options.secondStepCode().catch((error: unknown) => {
        throw new SignInRefused(error instanceof Error ? error.message : String(error));
      });
      answer = await client.call('loginVerify', { body: { mfaToken: first.mfaToken, code } }).catch(refused);
    } else {
      answer = first;
    }
    if (answer.user.role !== 'administrator') throw new SignInRefused(notAnAdministrator);
    token = answer.token;
  }

  async function signedIn<T>(work: () => Promise<T>): Promise<T> {
    if (!token) await signIn();
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      await signIn();
      return work();
    }
  }

  return portalOver({ client: () => client, token: () => token, fetch: options.fetch, signedIn });
}

/** The sync's calls, each through `access` (the CLI's own sign-in, or the desktop app's session). */
export function portalOver(access: PortalAccess): Portal {
  return {
    propertyNames: () =>
      access.signedIn(async () => (await access.client().call('adminAllProperties')).properties.map((p) => p.name)),
    propertyDocuments: () => access.signedIn(async () => (await access.client().call('adminDocuments', undefined, { cache: 'no-store' })).documents),
    documentSha256: (documentId) =>
      access.signedIn(async () => {
        const response = await (access.fetch ?? globalThis.fetch)(access.client().urlFor('download', { params: { id: documentId } }), {
          headers: { Authorization: `Bearer ${access.token() ?? ''}` },
        });
        if (!response.ok) throw new ApiError(response.status, `The file of document ${documentId} could not be read (${response.status}).`);
        return createHash('sha256').update(Buffer.from(await response.arrayBuffer())).digest('hex');
      }),
    uploadDocument: (fields, file, { idempotencyKey }) =>
      access.signedIn(async () => {
        const form = new FormData();
        form.set('title', fields.title);
        form.set('property', fields.property);
        form.set('year', String(fields.year));
        form.set('quarter', fields.quarter);
        form.set('emailNotification', fields.emailNotification ? 'true' : 'false');
        if (fields.notifyLater) form.set('notifyLater', 'true');
        form.set('document', await fileOf(file));
        return access.client().call('uploadDocument', { body: form }, { headers: { 'Idempotency-Key': idempotencyKey } });
      }),
    notifyDocuments: ({ documentIds, userDocumentIds }) =>
      access.signedIn(() => access.client().call('notifyDocuments', { body: { documentIds, userDocumentIds } })),
    replacePersonalDocument: (documentId, file, { userEmail, ...notification }) =>
      access.signedIn(async () => {
        const form = new FormData();
        form.set('userEmail', userEmail);
        setNotification(form, notification);
        form.set('document', await fileOf(file));
        return access.client().call('replacePersonalDocument', { params: { documentId }, body: form });
      }),
    replaceDocument: (documentId, file, { property, ...notification }) =>
      access.signedIn(async () => {
        const form = new FormData();
        form.set('property', property);
        setNotification(form, notification);
        form.set('document', await fileOf(file));
        return access.client().call('replaceDocument', { params: { documentId }, body: form });
      }),
    contentMatchingInvestors: () =>
      access.signedIn(async () => (await access.client().call('contentMatchingInvestors', undefined, { cache: 'no-store' })).investors),
    bulkPreview: (emails, sha256) => access.signedIn(() => access.client().call('bulkUploadPreview', { body: { emails, sha256 } })),
    documentRecipients: (property) =>
      access.signedIn(() => access.client().call('documentRecipients', { query: { property } }, { cache: 'no-store' })),
    bulkUpload: (manifest, files, { emailNotification, idempotencyKey, year, quarter, notifyLater }) =>
      access.signedIn(async () => {
        const form = new FormData();
        form.set('emailNotification', emailNotification ? 'true' : 'false');
        if (notifyLater) form.set('notifyLater', 'true');
        if (year !== undefined) form.set('year', String(year));
        if (quarter !== undefined) form.set('quarter', quarter);
        form.set('csvManifest', new File([manifest.text], manifest.name, { type: 'text/csv' }));
        for (const file of files) form.append('documents', await fileOf(file));
        return access.client().call('bulkUploadPersonalDocuments', { body: form }, { headers: { 'Idempotency-Key': idempotencyKey } });
      }),
  };
}
