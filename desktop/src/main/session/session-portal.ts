import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { ApiError } from '@everest/core/client';
import type { LocalFile, Portal } from '../../sync/portal';
import type { DesktopSession } from './desktop-session';

export const notSignedInMessage = 'Sign in to the portal first.';

async function fileOf(local: LocalFile): Promise<File> {
  return new File([await readFile(local.absolutePath)], local.name);
}

/**
 * The sync engine's Portal, signed in with the app's one session rather than an e-mail and
 * password of its own (the headless CLI's `createPortal`). A 401 ends the session: the
 * engine then sees the refusal and the window shows the sign-in again.
 */
export function createSessionPortal(session: DesktopSession): Portal {
  async function signedIn<T>(work: () => Promise<T>): Promise<T> {
    if (!session.token()) throw new ApiError(401, notSignedInMessage);
    try {
      return await work();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) await session.ended();
      throw error;
    }
  }
  const client = () => session.client();

  return {
    propertyNames: () => signedIn(async () => (await client().call('adminAllProperties')).properties.map((p) => p.name)),
    propertyDocuments: () =>
      signedIn(async () => (await client().call('adminDocuments', undefined, { cache: 'no-store' })).documents),
    documentSha256: (documentId) =>
      signedIn(async () => {
        const response = await fetch(client().urlFor('download', { params: { id: documentId } }), {
          headers: { Authorization: `Bearer ${session.token() ?? ''}` },
        });
        if (!response.ok) throw new ApiError(response.status, `The file of document ${documentId} could not be read (${response.status}).`);
        return createHash('sha256').update(Buffer.from(await response.arrayBuffer())).digest('hex');
      }),
    uploadDocument: (fields, file) =>
      signedIn(async () => {
        const form = new FormData();
        form.set('title', fields.title);
        form.set('property', fields.property);
        form.set('year', String(fields.year));
        form.set('quarter', fields.quarter);
        form.set('emailNotification', fields.emailNotification ? 'true' : 'false');
        form.set('document', await fileOf(file));
        return client().call('uploadDocument', { body: form });
      }),
    replaceDocument: (documentId, file) =>
      signedIn(async () => {
        const form = new FormData();
        form.set('document', await fileOf(file));
        return client().call('replaceDocument', { params: { documentId }, body: form });
      }),
    bulkPreview: (emails, sha256) => signedIn(() => client().call('bulkUploadPreview', { body: { emails, sha256 } })),
    bulkUpload: (manifest, files, { emailNotification, idempotencyKey }) =>
      signedIn(async () => {
        const form = new FormData();
        form.set('emailNotification', emailNotification ? 'true' : 'false');
        form.set('csvManifest', new File([manifest.text], manifest.name, { type: 'text/csv' }));
        for (const file of files) form.append('documents', await fileOf(file));
        return client().call('bulkUploadUserDocuments', { body: form }, { headers: { 'Idempotency-Key': idempotencyKey } });
      }),
  };
}
