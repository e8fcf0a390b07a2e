import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@everest/core/contract';
import { api } from '../../../lib/api';
import { uploadWithProgress } from '../lib/upload-with-progress';
import { adminKeys } from './query-keys';

export type CorrectedKind = 'property' | 'personal';

export interface CorrectDocumentInput {
  kind: CorrectedKind;
  documentId: number;
  file: File;
  /** Why, for the e-mail and the version history ('' for none). */
  note: string;
  emailNotification: boolean;
  onProgress?: (fraction: number) => void;
}

/**
 * Issue 21: a corrected file for a document whose file exists, through replace-document or
 * replace-user-document with their optional note and e-mail flag. The server publishes it as the
 * document's next version; the answer's `corrected` says it did.
 */
/** What the dialog reads of either answer. */
export interface CorrectionAnswer {
  message: string;
  corrected?: boolean | undefined;
  document: { title: string; version: number };
}

export function correctDocument({ kind, documentId, file, note, emailNotification, onProgress }: CorrectDocumentInput): Promise<CorrectionAnswer> {
  const form = new FormData();
  form.append('note', note);
  form.append('emailNotification', String(emailNotification));
  form.append('document', file, file.name);
  if (kind === 'property') {
    return uploadWithProgress(api.urlFor('replaceDocument', { params: { documentId } }), form, routes.replaceDocument.answer, onProgress);
  }
  return uploadWithProgress(api.urlFor('replaceUserDocument', { params: { documentId } }), form, routes.replaceUserDocument.answer, onProgress);
}

export function useCorrectDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: correctDocument,
    onSuccess: (_answer, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: input.kind === 'property' ? adminKeys.documents : adminKeys.userDocuments }),
        queryClient.invalidateQueries({ queryKey: adminKeys.documentVersions }),
        queryClient.invalidateQueries({ queryKey: adminKeys.readReceipts }),
      ]),
  });
}
