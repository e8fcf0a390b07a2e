import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@everest/core/contract';
import { api } from '../../api';
import { uploadWithProgress } from '../upload-with-progress';
import { adminKeys, invalidatePublished } from './query-keys';

export type CorrectedKind = 'property' | 'personal';

export interface CorrectDocumentInput {
  kind: CorrectedKind;
  documentId: number;
  /**
   * The document's property (or 'General') or its investor's e-mail, as the list
   * showed it. The server refuses (409) a correction of a document filed elsewhere since.
   */
  destination: string;
  file: File;
  /** Why, for the e-mail and the version history ('' for none). */
  note: string;
  emailNotification: boolean;
  /** With emailNotification: the correction waits for its batch's one digest (notify-documents). */
  notifyLater?: boolean;
  onProgress?: (fraction: number) => void;
}

/**
 * A corrected file for a document whose file exists, through replace-document or
 * replace-user-document with their optional note and e-mail flag. The server publishes it as the
 * document's next version; the answer's `corrected` says it did.
 */
/** What the dialog reads of either answer. */
export interface CorrectionAnswer {
  message: string;
  corrected?: boolean | undefined;
  /** The very file the document has; nothing changed and nobody was e-mailed. */
  unchanged?: boolean | undefined;
  document: { title: string; version: number };
}

export function correctDocument({ kind, documentId, destination, file, note, emailNotification, notifyLater, onProgress }: CorrectDocumentInput): Promise<CorrectionAnswer> {
  const form = new FormData();
  form.append('note', note);
  form.append('emailNotification', String(emailNotification));
  if (notifyLater) form.append('notifyLater', 'true');
  form.append(kind === 'property' ? 'property' : 'userEmail', destination);
  form.append('document', file, file.name);
  if (kind === 'property') {
    return uploadWithProgress(api.urlFor('replaceDocument', { params: { documentId } }), form, routes.replaceDocument.answer, onProgress);
  }
  return uploadWithProgress(api.urlFor('replacePersonalDocument', { params: { documentId } }), form, routes.replacePersonalDocument.answer, onProgress);
}

export function useCorrectDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: correctDocument,
    onSuccess: (_answer, input) =>
      Promise.all([
        invalidatePublished(queryClient, { property: input.kind === 'property', personal: input.kind === 'personal' }),
        queryClient.invalidateQueries({ queryKey: adminKeys.documentVersions }),
      ]),
  });
}
