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
import { useCorrectDocument, type CorrectedKind } from '../../lib/admin/api/correct-document';
import { useCorrectionRecipients } from '../../lib/admin/api/document-recipients';
import { adminSuccess, emailingTexts } from '../../lib/admin/admin-messages';
import { checkDocumentFile } from '../../lib/admin/document-rules';
import { notifyFailure, notifySuccess } from '../../lib/admin/notify';
import { useAdminStyles } from './admin-styles';

export interface CorrectionTarget {
  kind: CorrectedKind;
  id: number;
  title: string;
  /** The property (or 'General') or the investor's e-mail the list shows it under. */
  destination: string;
}

export interface CorrectDocumentDialogProps {
  /** The document to correct; null closes the dialog. */
  target: CorrectionTarget | null;
  onClose: () => void;
}

/**
 * Replace for a document whose file exists publishes a corrected version. The
 * administrator picks the corrected file, may say why (told to the investors with the e-mail,
 * kept in the version history), and chooses whether to e-mail its readers. Escape, Cancel or the
 * backdrop close it, except while the file is on its way; the focus returns to the row's button.
 * With the e-mail ticked, the dialog says how many people it will e-mail and the
 * button says so too: the dialog is the confirmation. The very same file changes nothing,
 * and the toast says so.
 */
export function CorrectDocumentDialog({ target, onClose }: CorrectDocumentDialogProps) {
  const styles = useAdminStyles();
  const correct = useCorrectDocument();
  const [file, setFile] = useState<File | null>(null);
  const [note, setNote] = useState('');
  const [emailNotification, setEmailNotification] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const recipients = useCorrectionRecipients(target, emailNotification);
  const people = emailNotification ? recipients.data : 0;

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
    // The count is part of what is confirmed: no sending before it is known.
    if (people === undefined) return;
    setProgress(0);
    correct.mutate(
      {
        kind: target.kind,
        documentId: target.id,
        destination: target.destination,
        file,
        note: note.trim(),
        emailNotification: emailNotification && people > 0,
        onProgress: setProgress,
      },
      {
        onSuccess: (answer) => {
          if (answer.unchanged) {
            notifySuccess(
              adminSuccess.documentUnchanged,
              `The file is the one ${answer.document.title} already has: nothing changed, and nobody was e-mailed.`,
            );
          } else {
            notifySuccess(
              answer.corrected ? adminSuccess.documentCorrected : adminSuccess.documentReplaced,
              answer.corrected ? `${answer.document.title} is now version ${answer.document.version}. ${answer.message}` : answer.message,
            );
          }
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
              <p className={styles.muted} role="status" data-testid="correction-recipients">
                {!emailNotification
                  ? 'Nobody will be e-mailed.'
                  : recipients.isError
                    ? `${emailingTexts.countFailed}: ${recipients.error.message}`
                    : people === undefined
                      ? emailingTexts.counting
                      : people === 0
                        ? 'Nobody can be e-mailed: no active reader has this document.'
                        : `${emailingTexts.willEmail(people)}.`}
              </p>
              {progress !== null && (
                <Field label="Uploading corrected file" validationState="none" hint={`${Math.round(progress * 100)}%`}>
                  <ProgressBar value={progress} max={1} />
                </Field>
              )}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabledFocusable={correct.isPending || people === undefined}>
                {correct.isPending
                  ? 'Publishing...'
                  : people
                    ? `Publish Correction and E-mail ${people} ${people === 1 ? 'Person' : 'People'}`
                    : 'Publish Correction'}
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
