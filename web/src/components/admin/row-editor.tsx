import type { FormEvent, ReactNode, Ref } from 'react';
import { Button } from '@fluentui/react-components';
import { useAdminStyles } from './admin-styles';

export interface RowEditorProps {
  formRef: Ref<HTMLFormElement>;
  /** The heading's id, which names the form. */
  titleId: string;
  title: string;
  /** A save on its way: Save says 'Saving...', and neither Cancel nor Escape closes the form. */
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
  /** Cancel or Escape, without saving. */
  onClose: () => void;
  /** The fields, laid out in the editor's grid. */
  children: ReactNode;
  /** What follows the fields, before Save and Cancel (a user's second step and shares). */
  after?: ReactNode;
}

/**
 * The form of a row's inline edit (spec: rows toggle between view and inline edit), shared by
 * users, properties and property documents: its heading, the fields' grid, Save and Cancel.
 * Escape leaves it without saving, as it closes a dialog.
 */
export function RowEditor({ formRef, titleId, title, pending, onSubmit, onClose, children, after }: RowEditorProps) {
  const styles = useAdminStyles();
  return (
    <form
      ref={formRef}
      className={styles.editor}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !pending) {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <h4 id={titleId} className={styles.sectionTitle}>
        {title}
      </h4>
      <div className={styles.fieldGrid}>{children}</div>
      {after}
      <div className={styles.buttons}>
        <Button type="submit" appearance="primary" disabledFocusable={pending}>
          {pending ? 'Saving...' : 'Save'}
        </Button>
        <Button onClick={() => onClose()} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
