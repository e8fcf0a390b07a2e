import { forwardRef } from 'react';
import { Button, Checkbox, MessageBar, MessageBarBody, ProgressBar, Field, mergeClasses } from '@fluentui/react-components';
import type { ImportPreview, ImportRowError, ImportStaffRow } from '@everest/core/contract';
import { csvDelimiterLabels, csvEncodingLabels, roleLabels, staffChangeLabel, type BulkImportCsvParse } from '@everest/core/domain';
import { changeLine, changedExistingUsers, importWouldChange, nothingToImportReason, plural } from '../lib/bulk-import-rules';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import type { ImportOptions } from './bulk-import-form';
import { CappedList, RowErrorList, useImportStyles } from './bulk-import-lists';


/** Spec: 'only those with changes; will be updated', as the chosen duplicate handling has it. */
const existingNote: Record<ImportOptions['duplicateHandling'], string> = {
  update: 'will be updated',
  skip: 'with changes; skipped (Skip existing users)',
  fail: 'with changes; the import stops on them',
};

/** The list of existing users with changes, headed by what the chosen duplicate handling does to them. */
const existingTitle: Record<ImportOptions['duplicateHandling'], string> = {
  update: 'Existing Users to Update',
  skip: 'Existing Users to Skip',
  fail: 'Existing Users That Stop the Import',
};

const errorKey = (e: ImportRowError) => `${e.row}\u0000${e.error}`;

export interface BulkImportPreviewProps {
  fileName: string;
  /** The browser's own reading of the file: shown at once, without any upload. */
  local: BulkImportCsvParse;
  /** How many of the file's rows go to the server (all but any it could not take). */
  rowsSent: number;
  /** The server's preview of the valid rows; null while it is being asked (or when it failed). */
  server: ImportPreview | null;
  /** Every row error, the browser's and the server's, in file order. */
  errors: readonly ImportRowError[];
  checking: boolean;
  serverError?: string;
  importing: boolean;
  options: ImportOptions;
  /**
   * The staff rows this import would write with the chosen duplicate handling (new
   * administrators and employees, role changes), listed apart; Import waits for their own tick.
   */
  staffRows: readonly ImportStaffRow[];
  staffConfirmed: boolean;
  onStaffConfirmedChange: (confirmed: boolean) => void;
  onCancel: () => void;
  onConfirm: () => void;
}

const fullName = (row: { firstName: string; lastName: string }) => [row.firstName, row.lastName].filter(Boolean).join(' ');

/** Spec: three counts, the capped lists, Cancel Import and Confirm & Import Users. */
export const BulkImportPreview = forwardRef<HTMLHeadingElement, BulkImportPreviewProps>(function BulkImportPreview(
  {
    fileName,
    local,
    rowsSent,
    server,
    errors,
    checking,
    serverError,
    importing,
    options,
    staffRows,
    staffConfirmed,
    onStaffConfirmedChange,
    onCancel,
    onConfirm,
  },
  headingRef,
) {
  const admin = useAdminStyles();
  const styles = useImportStyles();
  const existing = server ? changedExistingUsers(server) : [];
  const canImport = server !== null && importWouldChange(server, options.duplicateHandling);
  const waitsForStaff = canImport && staffRows.length > 0 && !staffConfirmed;
  const reasonId = !server ? undefined : !canImport ? 'bulk-import-nothing' : waitsForStaff ? 'bulk-import-staff-reason' : undefined;
  // One count of row errors: the Errors card's. Until the server answers it is the browser's;
  // then the server's too, which knows what the browser cannot (the accounts, e.g. a role change
  // of the built-in administrator), and the sentence says how many of them it added.
  const browserErrors = new Set(local.errors.map(errorKey));
  const serverOnly = server ? errors.filter((e) => !browserErrors.has(errorKey(e))).length : 0;
  const rowsRead = plural(local.rows.length, 'row');

  return (
    <section className={styles.panel} aria-labelledby="bulk-import-preview-title">
      <h4 id="bulk-import-preview-title" ref={headingRef} tabIndex={-1} className={admin.sectionTitle}>
        Import Preview
      </h4>
      <p className={styles.meta}>
        {fileName}: read as {csvEncodingLabels[local.encoding]}, columns separated by {csvDelimiterLabels[local.delimiter]};{' '}
        {server
          ? `${rowsRead}, ${plural(errors.length, 'row error')}${serverOnly > 0 ? ` (${serverOnly.toLocaleString('en-US')} found by the server)` : ''}.`
          : `${rowsRead}, ${plural(local.errors.length, 'row error')} found in your browser.`}
      </p>

      {checking && (
        <Field label={`Checking ${plural(rowsSent, 'row')} with the server...`} validationState="none">
          <ProgressBar aria-label={`Checking ${plural(rowsSent, 'row')} with the server`} />
        </Field>
      )}
      {serverError && (
        <MessageBar intent="error">
          <MessageBarBody>{serverError} The errors below were found in your browser; press Preview Import to ask again.</MessageBarBody>
        </MessageBar>
      )}

      {server && (
        <dl className={styles.counts} aria-label="Import summary">
          <div className={mergeClasses(styles.count, styles.countNew)}>
            <dt className={styles.countLabel}>New Users</dt>
            <dd className={styles.countValue}>{server.newUsers.length.toLocaleString('en-US')}</dd>
            <dd className={styles.countNote}>will be created</dd>
          </div>
          <div className={mergeClasses(styles.count, styles.countExisting)}>
            <dt className={styles.countLabel}>Existing Users</dt>
            <dd className={styles.countValue}>{existing.length.toLocaleString('en-US')}</dd>
            <dd className={styles.countNote}>
              {existingNote[options.duplicateHandling]}
            </dd>
          </div>
          <div className={mergeClasses(styles.count, styles.countErrors)}>
            <dt className={styles.countLabel}>Errors</dt>
            <dd className={styles.countValue}>{errors.length.toLocaleString('en-US')}</dd>
            <dd className={styles.countNote}>need attention</dd>
          </div>
        </dl>
      )}

      {server && staffRows.length > 0 && (
        <div className={styles.staff}>
          <CappedList
            id="bulk-import-staff"
            title="Staff accounts in this import"
            items={staffRows}
            itemKey={(r) => r.email}
            renderItem={(r) => (
              <>
                <span className={styles.email}>{r.email}</span>
                <span className={styles.detail}>{[`Row ${r.row}`, fullName(r), r.entity].filter(Boolean).join(' · ')}</span>
                <span className={styles.staffChange}>{staffChangeLabel(r)}</span>
              </>
            )}
          />
          <p className={styles.meta}>
            Administrators can open every investor&apos;s documents and change every account; Everest employees sign in to the
            portal. Check that each of these people should have this role.
          </p>
          <Checkbox
            checked={staffConfirmed}
            disabled={importing}
            onChange={(_, data) => onStaffConfirmedChange(data.checked === true)}
            label={
              staffRows.length === 1
                ? `I confirm this staff account: ${staffRows[0]?.email ?? ''} as ${roleLabels[staffRows[0]?.role ?? 'user']}`
                : `I confirm these ${plural(staffRows.length, 'staff account')} and their roles`
            }
          />
        </div>
      )}

      {server && server.newUsers.length > 0 && (
        <CappedList
          id="bulk-import-new-users"
          title="New Users"
          items={server.newUsers}
          itemKey={(u) => u.email}
          renderItem={(u) => {
            const details = [
              fullName(u),
              u.entity,
              roleLabels[u.role],
              plural(u.propertyAccess.length, 'property', 'properties'),
              u.identifiers.length > 0 ? plural(u.identifiers.length, 'identifier') : '',
            ].filter(Boolean);
            return (
              <>
                <span className={styles.email}>{u.email}</span>
                <span className={styles.detail}>{details.join(' · ')}</span>
              </>
            );
          }}
        />
      )}
      {existing.length > 0 && (
        <CappedList
          id="bulk-import-existing-users"
          title={existingTitle[options.duplicateHandling]}
          items={existing}
          itemKey={(u) => u.email}
          renderItem={(u) => (
            <>
              <span className={styles.email}>{u.email}</span>
              {Object.entries(u.changes).map(([field, change]) => (
                <span key={field} className={styles.change}>
                  {changeLine(field, change)}
                </span>
              ))}
              {u.newPropertyAccess.length > 0 && (
                <span className={styles.change}>New property access: {u.newPropertyAccess.join(', ')}</span>
              )}
              {/* Semicolons between them, as in the CSV: a trust's name may hold a comma. */}
              {u.newIdentifiers.length > 0 && <span className={styles.change}>New identifiers: {u.newIdentifiers.join('; ')}</span>}
              {u.removedIdentifiers.length > 0 && (
                <span className={styles.change}>Identifiers removed: {u.removedIdentifiers.join('; ')}</span>
              )}
            </>
          )}
        />
      )}
      {errors.length > 0 && <RowErrorList id="bulk-import-errors" title="Errors (will be skipped)" errors={errors} />}

      {importing && (
        <Field label={`Importing ${plural(rowsSent, 'row')}...`} validationState="none">
          <ProgressBar aria-label={`Importing ${plural(rowsSent, 'row')}`} />
        </Field>
      )}
      <div className={admin.buttons}>
        <Button onClick={onCancel} disabled={importing}>
          Cancel Import
        </Button>
        <Button
          appearance="primary"
          onClick={onConfirm}
          disabled={!canImport || waitsForStaff || importing}
          aria-describedby={reasonId}
        >
          {importing ? 'Importing...' : 'Confirm & Import Users'}
        </Button>
        {server && !canImport && (
          <span id="bulk-import-nothing" className={admin.muted}>
            {nothingToImportReason(server, options.duplicateHandling)}
          </span>
        )}
        {waitsForStaff && (
          <span id="bulk-import-staff-reason" className={admin.muted}>
            Confirm the staff accounts above first.
          </span>
        )}
      </div>
    </section>
  );
});
