import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { uploadWithProgress } from '../../../lib/admin/upload-with-progress';
import { invalidatePublished } from '../../../lib/admin/api/query-keys';

export interface ReplaceDocumentInput {
  documentId: number;
  /** The property the list shows it under; the server refuses another (409). */
  property: string;
  file: File;
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/replace-document/:documentId: the lost file of a 'File Missing' document. */
export function replaceDocument({ documentId, property, file, onProgress }: ReplaceDocumentInput) {
  const form = new FormData();
  form.append('property', property);
  form.append('document', file, file.name);
  const path = api.urlFor('replaceDocument', { params: { documentId } });
  return uploadWithProgress(path, form, routes.replaceDocument.answer, onProgress);
}

export function useReplaceDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceDocument,
    onSuccess: () => invalidatePublished(queryClient, { property: true }),
  });
}
