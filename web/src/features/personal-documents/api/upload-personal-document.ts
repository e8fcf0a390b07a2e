import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes, type UploadPersonalDocumentBody } from '@everest/core/contract';
import { uploadWithProgress } from '../../../lib/admin/upload-with-progress';
import { invalidatePublished } from '../../../lib/admin/api/query-keys';

export interface UploadPersonalDocumentInput {
  fields: UploadPersonalDocumentBody;
  file: File;
  /** The submission's key, the same on a retry (see upload-document.ts). */
  idempotencyKey: string;
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/upload-user-document: multipart, the file under `document`. */
export function uploadPersonalDocument({ fields, file, idempotencyKey, onProgress }: UploadPersonalDocumentInput) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(key, String(value));
  }
  // The text fields first: the server streams the file and needs to know whose it is.
  form.append('document', file, file.name);
  return uploadWithProgress(routes.uploadPersonalDocument.path, form, routes.uploadPersonalDocument.answer, onProgress, {
    'Idempotency-Key': idempotencyKey,
  });
}

export function useUploadPersonalDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadPersonalDocument,
    onSuccess: () => invalidatePublished(queryClient, { personal: true }),
  });
}
