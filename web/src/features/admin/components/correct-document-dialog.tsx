import { useState, type FormEvent } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  ProgressBar,
  Textarea,
} from '@fluentui/react-components';
import { documentAccept, fieldMax, portalMessages } from '@everest/core/domain';
import { useCorrectDocument, type CorrectedKind } from '../api/correct-document';
import { adminSuccess } from '../lib/admin-messages';
import { checkDocumentFile } from '../lib/document-rules';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { useAdminStyles } from './admin-styles';

export interface CorrectionTarget {
  kind: CorrectedKind;
  id: number;
  title: string;
}

export interface CorrectDocumentDialogProps {
  /** The document to correct; null closes the dialog. */
  target: CorrectionTarget | null;
  onClose: () => void;
}

/**
 * Issue 21: Replace for a document whose file exists publishes a corrected version. The
 * administrator picks the corrected file, may say why (told to the investors with the e-mail,
 * kept in the version history), and chooses whether to e-mail its readers. Escape, Cancel or the
 * backdrop close it, except while the file is on its way; the focus returns to the row's button.
 */
export function CorrectDocumentDialog({ target, onClose }: CorrectDocumentDialogProps) {
  const styles = useAdminStyles();
  const correct = useCorrectDocument();
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [emailNotification, setEmailNotification] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  // A newly opened document starts from an empty form (set while rendering, as the edit dialog does).
  const [shown, setShown] = useState<CorrectionTarget | null>(null);
  if (target !== shown) {
    setShown(target);
    setFile(null);
    setNote('');
    setEmailNotification(true);
    setError(null);
    setProgress(null);
  }

  const close = () => {
    if (correct.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target || correct.isPending) return;
    if (!file) {
      setError('Please choose the corrected file.');
      return;
    }
    const problem = checkDocumentFile(file);
    if (problem) {
      setError(`${problem.title}: ${problem.description}`);
      return;
    }
    setProgress(0);
    correct.mutate(
      { kind: target.kind, documentId: target.id, file, note: note.trim(), emailNotification, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          notifySuccess(
            answer.corrected ? adminSuccess.documentCorrected : adminSuccess.documentReplaced,
            answer.corrected ? `${answer.document.title} is now version ${answer.document.version}. ${answer.message}` : answer.message,
          );
          onClose();
        },
        onError: (failure) => notifyFailure(portalMessages.documentReplaceFailed, failure),
        onSettled: () => setProgress(null),
      },
    );
  };

  return (
    <Dialog open={target !== null} modalType="modal" onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface aria-describedby="correct-document-intro">
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{target ? `Correct ${target.title}` : 'Correct document'}</DialogTitle>
            <DialogContent className={styles.form}>
              <p id="correct-document-intro">
                The corrected file becomes the version investors see, marked &lsquo;Corrected&rsquo; with today&rsquo;s date. The
                current file stays in the version history for administrators.
              </p>
              {error && (
                <p role="alert" className={styles.alert}>
                  {error}
                </p>
              )}
              <Field label="Corrected file" required hint="PDF, DOC, DOCX, XLS or XLSX, up to 10 MB">
                {(props) => (
                  <input
                    {...props}
                    name="document"
                    type="file"
                    accept={documentAccept}
                    onChange={(event) => {
                      setFile(event.currentTarget.files?.[0] ?? null);
                      setError(null);
                    }}
                  />
                )}
              </Field>
              <Field label="What was corrected (optional)" hint="Told to the investors in the e-mail, and kept with the version.">
                <Textarea value={note} maxLength={fieldMax.correctionNote} resize="vertical" onChange={(_, data) => setNote(data.value)} />
              </Field>
              <Checkbox
                label="Send an email notification that this document was corrected"
                checked={emailNotification}
                onChange={(_, data) => setEmailNotification(data.checked === true)}
              />
              {progress !== null && (
                <Field label="Uploading corrected file" validationState="none" hint={`${Math.round(progress * 100)}%`}>
                  <ProgressBar value={progress} max={1} />
                </Field>
              )}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabledFocusable={correct.isPending}>
                {correct.isPending ? 'Publishing...' : 'Publish Correction'}
              </Button>
              <Button onClick={close} disabled={correct.isPending}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
