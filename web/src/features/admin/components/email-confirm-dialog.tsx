import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';

export interface EmailConfirmDialogProps {
  /** The sentence of the count, e.g. emailingTexts.willEmail(12); null closes the dialog. */
  title: string | null;
  children: ReactNode;
  /** What the confirm button does, e.g. 'Upload and E-mail'. */
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Issue 32 case 7: before an action e-mails people, it says how many and waits for a yes. An
 * alert dialog as for a deletion: Cancel has the focus first (Enter never sends by accident),
 * Escape and Cancel close it, and Fluent returns the focus to the button that opened it.
 */
export function EmailConfirmDialog({ title, children, confirmLabel, pendingLabel, pending, onConfirm, onCancel }: EmailConfirmDialogProps) {
  // The last title stays while the dialog fades out, rather than an empty heading.
  const [shown, setShown] = useState(title);
  if (title !== null && title !== shown) setShown(title);
  return (
    <ConfirmDialog
      open={title !== null}
      title={title ?? shown ?? ''}
      confirmLabel={confirmLabel}
      pendingLabel={pendingLabel}
      pending={pending}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {children}
    </ConfirmDialog>
  );
}
