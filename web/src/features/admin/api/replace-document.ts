import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { uploadWithProgress } from '../lib/upload-with-progress';
import { adminKeys } from './query-keys';

export interface ReplaceDocumentInput {
  documentId: number;
  file: File;
  onProgress?: (fraction: number) => void;
}

/** POST /api/admin/replace-document/:documentId: the lost file of a 'File Missing' document. */
export function replaceDocument({ documentId, file, onProgress }: ReplaceDocumentInput) {
  const form = new FormData();
  form.append('document', file, file.name);
  const path = api.urlFor('replaceDocument', { params: { documentId } });
  return uploadWithProgress(path, form, routes.replaceDocument.answer, onProgress);
}

export function useReplaceDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.documents }),
  });
}
