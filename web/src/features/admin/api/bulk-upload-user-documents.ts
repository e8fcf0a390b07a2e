import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@everest/core/contract';
import { uploadWithProgress } from '../lib/upload-with-progress';
import { adminKeys } from './query-keys';

export interface BulkUploadUserDocumentsInput {
  manifest: File;
  documents: readonly File[];
  emailNotification: boolean;
  /** The batch's hash: a retry of the same batch answers the first result (core contract). */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/bulk-upload-user-documents: multipart, `csvManifest` then every `documents[]`. */
export function bulkUploadUserDocuments({ manifest, documents, emailNotification, idempotencyKey, onProgress }: BulkUploadUserDocumentsInput) {
  const form = new FormData();
  // The flag and the manifest first: the server streams the files and plans them by the manifest.
  form.append('emailNotification', String(emailNotification));
  form.append('csvManifest', manifest, manifest.name);
  for (const file of documents) form.append('documents[]', file, file.name);
  return uploadWithProgress(routes.bulkUploadUserDocuments.path, form, routes.bulkUploadUserDocuments.answer, onProgress, {
    'Idempotency-Key': idempotencyKey,
  });
}

export function useBulkUploadUserDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkUploadUserDocuments,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.userDocuments }),
  });
}
