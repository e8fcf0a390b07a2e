import { routes } from '@everest/core/contract';
import type { Quarter } from '@everest/core/domain';
import { uploadWithProgress } from '../../../lib/admin/upload-with-progress';

export interface BulkUploadPersonalDocumentsInput {
  manifest: File;
  documents: readonly File[];
  emailNotification: boolean;
  /**
   * With emailNotification, nothing is sent now; the documents wait for
   * notify-documents, so that a quarter folder's two halves reach each reader as one digest.
   */
  notifyLater?: boolean;
  /** The batch's period (the quarter folder's, or chosen in the form); a row's document_date wins. */
  period?: { year: number; quarter: Quarter } | null;
  /** The batch's hash: a retry of the same batch answers the first result (core contract). */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/bulk-upload-user-documents: multipart, the fields, `csvManifest`, then every `documents[]`. */
export function bulkUploadPersonalDocuments({
  manifest,
  documents,
  emailNotification,
  notifyLater = false,
  period = null,
  idempotencyKey,
  onProgress,
}: BulkUploadPersonalDocumentsInput) {
  const form = new FormData();
  // The fields and the manifest first: the server streams the files and plans them by the manifest.
  form.append('emailNotification', String(emailNotification));
  if (notifyLater) form.append('notifyLater', 'true');
  if (period) {
    form.append('year', String(period.year));
    form.append('quarter', period.quarter);
  }
  form.append('csvManifest', manifest, manifest.name);
  for (const file of documents) form.append('documents[]', file, file.name);
  return uploadWithProgress(routes.bulkUploadPersonalDocuments.path, form, routes.bulkUploadPersonalDocuments.answer, onProgress, {
    'Idempotency-Key': idempotencyKey,
  });
}
