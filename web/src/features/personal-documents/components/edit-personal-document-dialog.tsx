import { useState, type FormEvent } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import type { PersonalDocument } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { useEditPersonalDocument } from '../api/edit-personal-document';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { PersonalDocumentFields, emptyDetails, type PersonalDocumentDetails } from './personal-document-fields';

function detailsOf(document: PersonalDocument): PersonalDocumentDetails {
  return {
    title: document.title,
    documentCategory: document.documentCategory,
    description: document.description,
    documentDate: document.documentDate ?? '',
    tags: document.tags,
  };
}

export interface EditPersonalDocumentDialogProps {
  /** The document being edited; null closes the modal. */
  document: PersonalDocument | null;
  onClose: () => void;
}

/**
 * The Edit User Document modal (spec): title and category required ('Please fill in both title
 * and category.'), description, date, tags; Save Changes ('Saving...') and Cancel. A backdrop
 * click, Escape or Cancel closes it and clears the form: nothing half-typed survives into the
 * next document's edit.
 */
export function EditPersonalDocumentDialog({ document, onClose }: EditPersonalDocumentDialogProps) {
  const styles = useAdminStyles();
  const edit = useEditPersonalDocument();
  const [details, setDetails] = useState<PersonalDocumentDetails>(emptyDetails);
  const [error, setError] = useState<string | null>(null);

  // A newly opened document fills the form (set while rendering, not in an effect, so that the
  // modal never shows the previous document's fields for a frame).
  const [shown, setShown] = useState<PersonalDocument | null>(null);
  if (document !== shown) {
    setShown(document);
    setDetails(document ? detailsOf(document) : emptyDetails);
    setError(null);
  }

  const close = () => {
    if (edit.isPending) return;
    setDetails(emptyDetails);
    setError(null);
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!document || edit.isPending) return;
    const title = details.title.trim();
    if (!title || !details.documentCategory) {
      setError(portalMessages.fillTitleAndCategory);
      return;
    }
    edit.mutate(
      {
        documentId: document.id,
        title,
        documentCategory: details.documentCategory,
        description: details.description.trim(),
        documentDate: details.documentDate || null,
        tags: details.tags.trim(),
      },
      {
        onSuccess: (answer) => {
          notifySuccess(adminSuccess.personalDocumentUpdated, `${answer.document.title} was saved.`);
          setDetails(emptyDetails);
          onClose();
        },
        onError: (failure) => notifyFailure(portalMessages.personalDocumentEditFailed, failure),
      },
    );
  };

  return (
    <Dialog open={document !== null} modalType="modal" onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface aria-describedby={undefined}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Edit User Document</DialogTitle>
            <DialogContent className={styles.form}>
              {error && (
                <p role="alert" className={styles.alert}>
                  {error}
                </p>
              )}
              <PersonalDocumentFields
                details={details}
                onChange={(patch) => {
                  setDetails((previous) => ({ ...previous, ...patch }));
                  setError(null);
                }}
              />
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabledFocusable={edit.isPending}>
                {edit.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
              <Button onClick={close} disabled={edit.isPending}>
                Cancel
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
