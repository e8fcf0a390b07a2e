import { useState, type ReactNode } from 'react';
import { emailingTexts } from '../../lib/admin/admin-messages';
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
 * Before an action e-mails people, it says how many and waits for a yes. An
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

/** Who a batch e-mails: the sum of its groups, exact only when one group is all of it. */
export interface RecipientCount {
  people: number;
  exact: boolean;
  groups: readonly { label: string; people: number }[];
}

/** The dialog's title for a batch: 'This will e-mail 12 people', or 'up to' for an upper bound. */
export function recipientsTitle(count: RecipientCount): string {
  return count.exact ? emailingTexts.willEmail(count.people) : emailingTexts.willEmailUpTo(count.people);
}

/**
 * The body of a batch's e-mail confirmation, in the panel and the desktop's Folder Drop alike:
 * how many documents, and, when the count is an upper bound, the groups that add up to it.
 */
export function BatchEmailSummary({ documents, recipients }: { documents: number; recipients: RecipientCount }) {
  return (
    <>
      <p>
        {`${documents} ${documents === 1 ? 'document will be' : 'documents will be'} published, then each reader gets one e-mail listing all of their new documents.`}
      </p>
      {!recipients.exact && (
        <>
          <ul aria-label="Who is e-mailed">
            {recipients.groups.map((group) => (
              <li key={group.label}>{`${group.label}, ${group.people}`}</li>
            ))}
          </ul>
          <p>Someone in more than one of these gets one e-mail, so fewer people may be e-mailed.</p>
        </>
      )}
      <p>Nothing is uploaded or sent if you cancel.</p>
    </>
  );
}
