import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes, type UploadDocumentBody } from '@everest/core/contract';
import { uploadWithProgress } from '../upload-with-progress';
import { invalidatePublished } from './query-keys';

export interface UploadDocumentInput {
  fields: UploadDocumentBody;
  file: File;
  /**
   * The submission's key (one per submission, the same on a retry): the server answers
   * a repeated key with the first result instead of publishing the file again.
   */
  idempotencyKey: string;
  /** Share of the body sent so far, 0 to 1. */
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/upload-document: multipart, the file under `document`. */
export function uploadDocument({ fields, file, idempotencyKey, onProgress }: UploadDocumentInput) {
  const form = new FormData();
  form.append('title', fields.title);
  form.append('property', fields.property);
  form.append('year', String(fields.year));
  form.append('quarter', fields.quarter);
  form.append('emailNotification', String(fields.emailNotification));
  if (fields.notifyLater) form.append('notifyLater', 'true');
  // The text fields first: the server streams the file and needs to know where it goes.
  form.append('document', file, file.name);
  return uploadWithProgress(routes.uploadDocument.path, form, routes.uploadDocument.answer, onProgress, {
    'Idempotency-Key': idempotencyKey,
  });
}

export function useUploadDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadDocument,
    onSuccess: () => invalidatePublished(queryClient, { property: true }),
  });
}
