import type { FormEvent, ReactNode, Ref } from 'react';
import { Button, Checkbox, Field, ProgressBar, useRestoreFocusTarget } from '@fluentui/react-components';
import { documentAccept } from '@everest/core/domain';
import { emailingTexts } from '../../lib/admin/admin-messages';
import { useAdminStyles } from './admin-styles';
import { EmailConfirmDialog } from './email-confirm-dialog';

export interface UploadFormProps {
  /** The section's heading and the submit button's label, as 'Upload Document'. */
  title: string;
  titleId: string;
  formRef: Ref<HTMLFormElement>;
  onSubmit: (event: FormEvent) => void;
  /** The fields before the file, with their warnings. */
  children: ReactNode;
  fileError?: string;
  /** A new key empties the native file input after an upload (its value cannot be set). */
  fileKey: number;
  onFile: (input: HTMLInputElement) => void;
  notificationLabel: string;
  notification: boolean;
  onNotification: (checked: boolean) => void;
  /** The share of the file sent so far, or null when nothing is on its way. */
  progress: number | null;
  /** What the last upload came to, where it stays visible (not only in a toast). */
  outcome: ReactNode;
  uploading: boolean;
  /** The recipients are being counted before the e-mail confirmation. */
  counting: boolean;
  /** The e-mail confirmation: its title (null when closed), button and sentence. */
  confirm: { title: string | null; confirmLabel: string; onConfirm: () => void; onCancel: () => void; children: ReactNode };
}

/**
 * The single upload of a document, property or personal: the fields, the file (checked when
 * chosen), the notification, a progress bar while sending, the outcome, and the e-mail
 * confirmation that gives the focus back to the submit button when it closes.
 */
export function UploadForm(props: UploadFormProps) {
  const { title, titleId, formRef, onSubmit, children, fileError, fileKey, onFile, progress, uploading, counting, confirm } = props;
  const styles = useAdminStyles();
  const restoreFocusTarget = useRestoreFocusTarget();
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.sectionTitle}>
        {title}
      </h3>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby={titleId}>
        <div className={styles.fieldGrid}>
          {children}
          <Field
            label="File"
            required
            hint="PDF, DOC, DOCX, XLS or XLSX, up to 10 MB"
            validationMessage={fileError}
            className={styles.wide}
          >
            {(fieldProps) => (
              <input
                {...fieldProps}
                key={fileKey}
                name="document"
                type="file"
                accept={documentAccept}
                onChange={(event) => onFile(event.currentTarget)}
              />
            )}
          </Field>
          <Checkbox
            className={styles.wide}
            label={props.notificationLabel}
            checked={props.notification}
            onChange={(_, data) => props.onNotification(data.checked === true)}
          />
        </div>
        {progress !== null && (
          <Field label="Uploading document" validationState="none" hint={`${Math.round(progress * 100)}%`}>
            <ProgressBar value={progress} max={1} />
          </Field>
        )}
        <div role="status">{props.outcome}</div>
        <div className={styles.buttons}>
          <Button {...restoreFocusTarget} type="submit" appearance="primary" disabledFocusable={uploading || counting}>
            {uploading ? 'Uploading...' : counting ? emailingTexts.counting : title}
          </Button>
        </div>
      </form>
      <EmailConfirmDialog
        title={confirm.title}
        confirmLabel={confirm.confirmLabel}
        pendingLabel="Uploading..."
        pending={uploading}
        onConfirm={confirm.onConfirm}
        onCancel={confirm.onCancel}
      >
        {confirm.children}
      </EmailConfirmDialog>
    </section>
  );
}
