import { forwardRef, type ChangeEvent } from 'react';
import { Button, Checkbox, Field, Select, Text } from '@fluentui/react-components';
import {
  duplicateHandlings,
  maxImportCsvBytes,
  megabyte,
  portalMessages,
  roleLabels,
  assignableRoles,
  type DuplicateHandling,
  type AssignableRole,
} from '@everest/core/domain';
import { bulkImportTemplateUrl } from '../api/bulk-import-template';
import { useAdminStyles } from '../../../components/admin/admin-styles';

export interface ImportOptions {
  defaultRole: AssignableRole;
  duplicateHandling: DuplicateHandling;
  sendWelcomeEmails: boolean;
  sendUpdateEmails: boolean;
}

export const duplicateHandlingLabels: Record<DuplicateHandling, string> = {
  skip: 'Skip existing users (recommended)',
  update: 'Update existing users',
  fail: 'Stop the import on a duplicate',
};

export interface BulkImportFormProps {
  file: File | null;
  /** Changes with every new choice of file, so that the input can be emptied by a remount. */
  fileKey: number;
  fileError?: string;
  options: ImportOptions;
  busy: boolean;
  onChooseFile: (input: HTMLInputElement) => void;
  onOptionsChange: (change: Partial<ImportOptions>) => void;
  onPreview: () => void;
}

/** Spec, bulk user import controls: the file, the options, instructions, template, Preview Import. */
export const BulkImportForm = forwardRef<HTMLButtonElement, BulkImportFormProps>(function BulkImportForm(
  { file, fileKey, fileError, options, busy, onChooseFile, onOptionsChange, onPreview },
  previewButtonRef,
) {
  const styles = useAdminStyles();
  return (
    <form
      className={styles.form}
      aria-labelledby="bulk-import-title"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onPreview();
      }}
    >
      <div className={styles.fieldGrid}>
        <Field
          label="CSV file"
          required
          hint={`CSV only, up to ${maxImportCsvBytes / megabyte} MB`}
          validationMessage={fileError}
          className={styles.wide}
        >
          {(props) => (
            <input
              {...props}
              key={fileKey}
              name="csvFile"
              type="file"
              accept=".csv,text/csv"
              disabled={busy}
              onChange={(event: ChangeEvent<HTMLInputElement>) => onChooseFile(event.currentTarget)}
            />
          )}
        </Field>
        <Field label="Default role" hint="For rows whose role is empty">
          <Select
            name="defaultRole"
            value={options.defaultRole}
            disabled={busy}
            onChange={(_, data) => {
              const role = assignableRoles.find((r) => r === data.value);
              if (role) onOptionsChange({ defaultRole: role });
            }}
          >
            {assignableRoles.map((r) => (
              <option key={r} value={r}>
                {roleLabels[r]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Duplicate handling" hint="When an email already has an account">
          <Select
            name="duplicateHandling"
            value={options.duplicateHandling}
            disabled={busy}
            onChange={(_, data) => {
              const handling = duplicateHandlings.find((d) => d === data.value);
              if (handling) onOptionsChange({ duplicateHandling: handling });
            }}
          >
            {duplicateHandlings.map((d) => (
              <option key={d} value={d}>
                {duplicateHandlingLabels[d]}
              </option>
            ))}
          </Select>
        </Field>
        <div className={styles.wide}>
          <Checkbox
            name="sendWelcomeEmails"
            label="Send welcome emails to new users (with a link to set their password)"
            checked={options.sendWelcomeEmails}
            disabled={busy}
            onChange={(_, data) => onOptionsChange({ sendWelcomeEmails: data.checked === true })}
          />
          <Checkbox
            name="sendUpdateEmails"
            label="Send update emails to existing users who gain property access"
            checked={options.sendUpdateEmails}
            disabled={busy}
            onChange={(_, data) => onOptionsChange({ sendUpdateEmails: data.checked === true })}
          />
        </div>
      </div>
      <div className={styles.buttons}>
        <Button
          as="a"
          href="/bulk-user-import-instructions"
          target="_blank"
          rel="noopener"
          appearance="secondary"
          aria-label="View Instructions (opens in a new tab)"
        >
          View Instructions
        </Button>
        <Button as="a" href={bulkImportTemplateUrl} download appearance="secondary">
          Download Template
        </Button>
        <Button ref={previewButtonRef} type="submit" appearance="primary" disabled={!file || busy} aria-describedby={file ? undefined : 'bulk-import-no-file'}>
          Preview Import
        </Button>
        {!file && (
          <Text id="bulk-import-no-file" className={styles.muted}>
            {portalMessages.selectCsvFirst}
          </Text>
        )}
      </div>
    </form>
  );
});
