import { useEffect, useMemo, useRef, useState } from 'react';
import { Field, MessageBar, MessageBarBody, ProgressBar, makeStyles, tokens } from '@fluentui/react-components';
import type { ImportPreview, ImportResults, StaffRowConfirmation } from '@everest/core/contract';
import {
  defaultDuplicateHandling,
  defaultImportRole,
  formatFileSize,
  portalMessages,
  staffRowConfirmationOf,
  staffRowsToConfirm,
  unconfirmedStaffRows,
  welcomeEmailWarningThreshold,
  type BulkImportCsvParse,
} from '@everest/core/domain';
import { useBulkImportUsers } from '../api/bulk-import-users';
import { useInvestorProperties } from '../../../lib/admin/api/investor-properties';
import { usePreviewBulkImport } from '../api/preview-bulk-import';
import { adminSuccess } from '../../../lib/admin/admin-messages';
import { parseImportFile } from '../lib/bulk-import-parse';
import { checkImportFile, mergeRowErrors, plural, rowsToSend } from '../lib/bulk-import-rules';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { AvailablePropertyNames, ImportCsvExample, ImportCsvFormat } from './bulk-import-csv-help';
import { BulkImportForm, type ImportOptions } from './bulk-import-form';
import { BulkImportPreview } from './bulk-import-preview';
import { BulkImportResults } from './bulk-import-results';

const useStyles = makeStyles({
  // The form and its preview or results on the left, the help beside them from 1024 px.
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingVerticalXXL,
    alignItems: 'start',
    '@media (min-width: 1024px)': { gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr)' },
  },
  main: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXL, minWidth: 0 },
  help: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL, minWidth: 0 },
  intro: { margin: 0 },
});

const initialOptions: ImportOptions = {
  defaultRole: defaultImportRole,
  duplicateHandling: defaultDuplicateHandling,
  // decided: on, since imported users get no password and the welcome e-mail's link is how
  // they set one (DECISIONS.md); the instructions suggest turning it off above 100 users.
  sendWelcomeEmails: true,
  sendUpdateEmails: false,
};

type Busy = 'reading' | 'checking' | 'importing' | null;

const noPreview: ImportPreview = { newUsers: [], existingUsers: [], errors: [], staffRows: [] };

/**
 * The bulk-import tab: choose a CSV, preview it (first in the browser with core's parser, which
 * shows row errors before anything is sent; then the server's preview of the valid rows, whose
 * answer the counts and lists show), then import it or cancel.
 */
export function BulkImportTab() {
  const styles = useStyles();
  const admin = useAdminStyles();
  const properties = useInvestorProperties();
  const previewCall = usePreviewBulkImport();
  const importCall = useBulkImportUsers();

  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [fileError, setFileError] = useState<string>();
  const [options, setOptions] = useState<ImportOptions>(initialOptions);
  const [busy, setBusy] = useState<Busy>(null);
  const [local, setLocal] = useState<BulkImportCsvParse | null>(null);
  const [server, setServer] = useState<ImportPreview | null>(null);
  const [serverError, setServerError] = useState<string>();
  const [results, setResults] = useState<ImportResults | null>(null);
  /** The staff rows ticked, by e-mail and role; the server writes no other. */
  const [confirmedStaff, setConfirmedStaff] = useState<StaffRowConfirmation[]>([]);

  // Every preview run has a number; an answer of an older run (the file or role changed, or
  // Cancel Import was pressed meanwhile) is dropped.
  const run = useRef(0);
  const abort = useRef<AbortController | null>(null);
  const previewButton = useRef<HTMLButtonElement>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);

  const clearPreview = () => {
    run.current += 1;
    abort.current?.abort();
    abort.current = null;
    setLocal(null);
    setServer(null);
    setServerError(undefined);
    setConfirmedStaff([]);
    setBusy((b) => (b === 'importing' ? b : null));
  };

  // The keyboard follows the outcome: to the preview once it shows, to the results once in.
  useEffect(() => {
    if (local) previewHeading.current?.focus();
  }, [local]);
  useEffect(() => {
    if (results) resultsHeading.current?.focus();
  }, [results]);

  const chooseFile = (input: HTMLInputElement) => {
    const chosen = input.files?.[0] ?? null;
    clearPreview();
    setResults(null);
    setFileError(undefined);
    if (!chosen) {
      setFile(null);
      return;
    }
    const problem = checkImportFile(chosen);
    if (problem) {
      showToast({ ...problem, variant: 'destructive' });
      setFileError(problem.description);
      input.value = '';
      setFile(null);
      return;
    }
    setFile(chosen);
  };

  const changeOptions = (change: Partial<ImportOptions>) => {
    setOptions((previous) => ({ ...previous, ...change }));
    // The default role is part of what the preview compares; the other options are not.
    if (change.defaultRole !== undefined && change.defaultRole !== options.defaultRole) clearPreview();
  };

  const preview = async () => {
    if (busy) return;
    if (!file) {
      showToast({ title: portalMessages.csvPreviewError, description: portalMessages.selectCsvFirst, variant: 'destructive' });
      return;
    }
    clearPreview();
    setResults(null);
    const mine = run.current;
    const controller = new AbortController();
    abort.current = controller;
    setBusy('reading');

    let parse: BulkImportCsvParse;
    try {
      parse = await parseImportFile(
        file,
        { defaultRole: options.defaultRole, knownPropertyNames: properties.data?.properties.map((p) => p.name) },
        controller.signal,
      );
    } catch (error) {
      if (mine !== run.current) return;
      setBusy(null);
      notifyFailure(portalMessages.csvPreviewError, error, portalMessages.bulkPreviewFailed);
      return;
    }
    if (mine !== run.current) return;
    if (parse.error) {
      setBusy(null);
      setFileError(parse.error);
      showToast({ title: portalMessages.csvPreviewError, description: parse.error, variant: 'destructive' });
      return;
    }
    setLocal(parse);
    const { rows } = rowsToSend(parse);
    if (rows.length === 0) {
      // No row the server could read: the browser's errors are the whole answer.
      setServer(noPreview);
      setBusy(null);
      return;
    }
    setBusy('checking');
    try {
      const answer = await previewCall.mutateAsync({ csvData: rows, defaultRole: options.defaultRole });
      if (mine !== run.current) return;
      if (!answer.success) throw new Error(answer.error ?? portalMessages.importPreviewFailed);
      setServer(answer.preview);
    } catch (error) {
      if (mine !== run.current) return;
      setServerError(error instanceof Error && error.message ? error.message : portalMessages.importPreviewFailed);
      notifyFailure(portalMessages.importPreviewFailed, error);
    } finally {
      if (mine === run.current) setBusy(null);
    }
  };

  const confirm = async () => {
    if (!local || !server || busy || !staffConfirmed) return;
    setBusy('importing');
    try {
      const { rows, heldBack } = rowsToSend(local);
      const answer = await importCall.mutateAsync({ csvData: rows, ...options, confirmedStaffRows: confirmedStaff });
      if (!answer.success) throw new Error(answer.error ?? answer.message);
      // Rows held back were never sent: they are failed rows of this import too.
      const final: ImportResults = {
        ...answer.results,
        failed: answer.results.failed + heldBack.length,
        errors: mergeRowErrors(heldBack, answer.results.errors),
      };
      notifySuccess(
        adminSuccess.usersImported,
        `${plural(final.imported, 'user')} imported, ${plural(final.updated, 'user')} updated.`,
      );
      clearPreview();
      setFile(null);
      setFileKey((k) => k + 1);
      setResults(final);
    } catch (error) {
      notifyFailure(portalMessages.importFailed, error);
    } finally {
      setBusy((b) => (b === 'importing' ? null : b));
    }
  };

  const cancel = () => {
    clearPreview();
    previewButton.current?.focus();
  };

  const closeResults = () => {
    setResults(null);
    document.querySelector<HTMLInputElement>('input[name="csvFile"]')?.focus();
  };

  // Until the server answers, the browser's errors; then the server's, with any held back.
  const sending = useMemo(() => (local ? rowsToSend(local) : { rows: [], heldBack: [] }), [local]);
  const heldBack = sending.heldBack;
  const errors = !local ? [] : server ? mergeRowErrors(heldBack, server.errors) : local.errors;
  // The staff rows that the chosen duplicate handling would write: a tick covers exactly those,
  // so rows that appear later (Update chosen after the tick) wait for a tick of their own.
  const staffRows = useMemo(() => (server ? staffRowsToConfirm(server.staffRows, options.duplicateHandling) : []), [server, options.duplicateHandling]);
  const staffConfirmed = unconfirmedStaffRows(staffRows, confirmedStaff).length === 0;
  const manyWelcomes =
    options.sendWelcomeEmails && local !== null && local.csvData.length > welcomeEmailWarningThreshold;

  return (
    <div className={styles.layout}>
      <div className={styles.main}>
        <section className={admin.section} aria-labelledby="bulk-import-title">
          <h3 id="bulk-import-title" className={admin.sectionTitle}>
            Bulk User Import
          </h3>
          <p className={styles.intro}>
            Create many investor accounts from one CSV file. Preview it first: nothing changes until you confirm.
          </p>
          <BulkImportForm
            ref={previewButton}
            file={file}
            fileKey={fileKey}
            fileError={fileError}
            options={options}
            busy={busy !== null}
            onChooseFile={chooseFile}
            onOptionsChange={changeOptions}
            onPreview={() => void preview()}
          />
          {busy === 'reading' && file && (
            <Field label={`Reading ${file.name} (${formatFileSize(file.size)})...`} validationState="none">
              <ProgressBar aria-label={`Reading ${file.name}`} />
            </Field>
          )}
          {manyWelcomes && (
            <MessageBar intent="warning">
              <MessageBarBody>
                This file has more than {welcomeEmailWarningThreshold} users: consider importing without welcome emails and
                sending reset links later.
              </MessageBarBody>
            </MessageBar>
          )}
        </section>
        {local && file && (
          <BulkImportPreview
            ref={previewHeading}
            fileName={file.name}
            local={local}
            rowsSent={sending.rows.length}
            server={server}
            errors={errors}
            checking={busy === 'checking'}
            serverError={serverError}
            importing={busy === 'importing'}
            options={options}
            staffRows={staffRows}
            staffConfirmed={staffConfirmed}
            onStaffConfirmedChange={(checked) => setConfirmedStaff(checked ? staffRows.map(staffRowConfirmationOf) : [])}
            onCancel={cancel}
            onConfirm={() => void confirm()}
          />
        )}
        {results && <BulkImportResults ref={resultsHeading} results={results} onClose={closeResults} />}
      </div>
      <aside className={styles.help} aria-label="CSV help">
        <AvailablePropertyNames capped />
        <ImportCsvFormat />
        <ImportCsvExample />
      </aside>
    </div>
  );
}
