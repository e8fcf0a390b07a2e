import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Field, Link, MessageBar, MessageBarBody, MessageBarTitle, ProgressBar } from '@fluentui/react-components';
import type { BulkUploadUserDocumentsAnswer } from '@everest/core/contract';
import { documentAccept, manifestEmails, portalMessages, type BulkManifestPlan } from '@everest/core/domain';
import { useBulkUploadPreview } from '../api/bulk-upload-preview';
import { useBulkUploadUserDocuments } from '../api/bulk-upload-user-documents';
import { batchKey, decodeManifest, hashFiles, screenFiles, splitFolder, type BulkSelection } from '../lib/bulk-batch';
import { planBatch, type RefusedFile } from '../lib/bulk-plan';
import { notifyFailure, notifySuccess } from '../lib/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from './admin-styles';
import { BulkPreview } from './bulk-preview';
import { BulkResults } from './bulk-results';
import { useBulkStyles } from './bulk-styles';

/** decided: the spec names 'Missing Files' only; this says what is missing. */
export const bulkNotices = {
  missingFilesDetail: 'Please select the CSV manifest and the documents it names, or a folder holding manifest.csv and them.',
  folderWithoutManifest: 'The chosen folder holds no manifest.csv.',
  completeTitle: 'Bulk Upload Complete',
} as const;

interface Dry {
  plan: BulkManifestPlan;
  csvText: string;
  manifest: File;
  /** The files that will be sent: the selection less the refused ones. */
  files: File[];
  refused: RefusedFile[];
  key: string;
}

type Busy = { step: 'hashing' | 'uploading'; fraction: number } | null;

// The folder picker's attribute is not in React's types; Chromium, Firefox and Safari all read it.
const folderPicker = { webkitdirectory: '', directory: '' } as Record<string, string>;

/**
 * The bulk upload of personal documents (spec: user-documents; section 4 "Bulk document upload"):
 * select files, preview, confirm, results. The preview is the browser's dry run (planBulkManifest
 * fed by bulk-upload-preview) and nothing is sent before Confirm; changing the selection clears
 * the preview and the results.
 */
export function BulkUploadSection() {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const askServer = useBulkUploadPreview();
  const upload = useBulkUploadUserDocuments();
  const [manifest, setManifest] = useState<File | null>(null);
  const [documents, setDocuments] = useState<File[]>([]);
  const [folder, setFolder] = useState<File[] | null>(null);
  const [inputsKey, setInputsKey] = useState(0);
  // The two ways of choosing exclude each other: choosing one empties the other's pickers, so
  // that what the pickers show is what will be read.
  const [pickerKeys, setPickerKeys] = useState({ files: 0, folder: 0 });
  const [emailNotification, setEmailNotification] = useState(false);
  const [problem, setProblem] = useState<{ title: string; detail?: string } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [dry, setDry] = useState<Dry | null>(null);
  const [results, setResults] = useState<BulkUploadUserDocumentsAnswer | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const sectionHeading = useRef<HTMLHeadingElement>(null);
  // Each preview run has a number; a selection changed while hashing makes its answer stale.
  const run = useRef(0);

  useEffect(() => {
    if (dry) previewHeading.current?.focus();
  }, [dry]);
  useEffect(() => {
    if (results) resultsHeading.current?.focus();
  }, [results]);

  const selectionChanged = () => {
    run.current += 1;
    setDry(null);
    setResults(null);
    setProblem(null);
    setBusy(null);
  };

  const selection = (): BulkSelection => (folder ? splitFolder(folder) : { manifest, files: documents });

  const preview = async () => {
    if (busy) return;
    setDry(null);
    setResults(null);
    setProblem(null);
    const chosen = selection();
    if (!chosen.manifest || chosen.files.length === 0) {
      const detail = folder && !chosen.manifest ? bulkNotices.folderWithoutManifest : bulkNotices.missingFilesDetail;
      setProblem({ title: portalMessages.missingFiles, detail });
      showToast({ title: portalMessages.missingFiles, description: detail, variant: 'destructive' });
      return;
    }
    const mine = ++run.current;
    const stale = () => run.current !== mine;
    const { accepted, refused } = screenFiles(chosen.files);
    try {
      setBusy({ step: 'hashing', fraction: 0 });
      const manifestBytes = await chosen.manifest.arrayBuffer();
      const csvText = decodeManifest(manifestBytes);
      const hashed = await hashFiles(accepted, (fraction) => {
        if (!stale()) setBusy({ step: 'hashing', fraction });
      });
      if (stale()) return;
      const emails = manifestEmails(csvText);
      const known =
        emails.length === 0 ? { users: [] } : await askServer.mutateAsync({ emails, sha256: [...new Set(hashed.map((f) => f.sha256 ?? ''))] });
      if (stale()) return;
      const plan = planBatch(csvText, hashed, known);
      setBusy(null);
      if (plan.error) {
        setProblem({ title: plan.error });
        showToast({ title: plan.error, variant: 'destructive' });
        return;
      }
      setDry({ plan, csvText, manifest: chosen.manifest, files: accepted, refused, key: await batchKey(manifestBytes, hashed) });
    } catch (error) {
      if (stale()) return;
      setBusy(null);
      notifyFailure(portalMessages.bulkPreviewFailed, error);
      setProblem({ title: portalMessages.bulkPreviewFailed, detail: error instanceof Error ? error.message : undefined });
    }
  };

  const confirm = () => {
    if (!dry || upload.isPending || dry.plan.counts.publish === 0) return;
    setBusy({ step: 'uploading', fraction: 0 });
    upload.mutate(
      {
        manifest: dry.manifest,
        documents: dry.files,
        emailNotification,
        idempotencyKey: dry.key,
        onProgress: (fraction) => setBusy({ step: 'uploading', fraction }),
      },
      {
        onSuccess: (answer) => {
          setDry(null);
          setResults(answer);
          notifySuccess(
            bulkNotices.completeTitle,
            answer.successful.length === 0 ? 'Nothing new was published.' : `${answer.successful.length} published, ${answer.failed.length} failed.`,
          );
        },
        onError: (error) => notifyFailure(portalMessages.bulkUploadFailed, error),
        onSettled: () => setBusy(null),
      },
    );
  };

  const cancel = () => {
    setDry(null);
    sectionHeading.current?.focus();
  };

  const closeResults = () => {
    setResults(null);
    setManifest(null);
    setDocuments([]);
    setFolder(null);
    setInputsKey((k) => k + 1);
    sectionHeading.current?.focus();
  };

  const percent = busy ? Math.round(busy.fraction * 100) : 0;
  const chosen = selection();

  return (
    <section className={styles.section} aria-labelledby="bulk-upload-title">
      <h3 id="bulk-upload-title" ref={sectionHeading} tabIndex={-1} className={styles.sectionTitle}>
        Bulk Upload User Documents
      </h3>
      <p className={bulk.or}>
        {"Publish many investors' documents at once: a CSV manifest and the documents it names. "}
        <Link href="/instructions" target="_blank" rel="noopener">
          View Instructions
        </Link>
        <span className={styles.muted}> (opens in a new tab)</span>
      </p>
      <div className={bulk.inputs} key={inputsKey}>
        <Field label="CSV manifest" hint="Columns: email, filename, document_category, title">
          {(props) => (
            <input
              {...props}
              key={`manifest-${pickerKeys.files}`}
              className={bulk.fileInput}
              name="csvManifest"
              type="file"
              accept=".csv,text/csv"
              disabled={busy?.step === 'uploading'}
              onChange={(event) => {
                setManifest(event.currentTarget.files?.[0] ?? null);
                if (folder) setPickerKeys((keys) => ({ ...keys, folder: keys.folder + 1 }));
                setFolder(null);
                selectionChanged();
              }}
            />
          )}
        </Field>
        <Field label="Documents" hint="PDF, DOC, DOCX, XLS or XLSX, up to 10 MB each">
          {(props) => (
            <input
              {...props}
              key={`documents-${pickerKeys.files}`}
              className={bulk.fileInput}
              name="documents"
              type="file"
              multiple
              accept={documentAccept}
              disabled={busy?.step === 'uploading'}
              onChange={(event) => {
                setDocuments(Array.from(event.currentTarget.files ?? []));
                if (folder) setPickerKeys((keys) => ({ ...keys, folder: keys.folder + 1 }));
                setFolder(null);
                selectionChanged();
              }}
            />
          )}
        </Field>
        <Field label="Or a whole folder" hint="A folder holding manifest.csv and the documents it names" className={styles.wide}>
          {(props) => (
            <input
              {...props}
              {...folderPicker}
              key={`folder-${pickerKeys.folder}`}
              className={bulk.fileInput}
              name="folder"
              type="file"
              disabled={busy?.step === 'uploading'}
              onChange={(event) => {
                const files = Array.from(event.currentTarget.files ?? []);
                setFolder(files.length > 0 ? files : null);
                if (manifest || documents.length > 0) setPickerKeys((keys) => ({ ...keys, files: keys.files + 1 }));
                setManifest(null);
                setDocuments([]);
                selectionChanged();
              }}
            />
          )}
        </Field>
        <Checkbox
          className={styles.wide}
          label="Send an email notification to each investor (one e-mail listing their new documents)"
          checked={emailNotification}
          onChange={(_, data) => setEmailNotification(data.checked === true)}
        />
      </div>
      <p className={styles.muted} aria-live="polite">
        {folder
          ? chosen.manifest
            ? `Folder: ${chosen.manifest.webkitRelativePath || chosen.manifest.name} and ${chosen.files.length} ${chosen.files.length === 1 ? 'file' : 'files'}`
            : `Folder: ${folder.length} ${folder.length === 1 ? 'file' : 'files'}, no manifest.csv`
          : `${manifest ? manifest.name : 'No manifest'} · ${documents.length} ${documents.length === 1 ? 'document' : 'documents'} selected`}
      </p>
      {problem && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>
            <MessageBarTitle>{problem.title}</MessageBarTitle>
            {problem.detail}
          </MessageBarBody>
        </MessageBar>
      )}
      {busy && (
        <Field
          label={busy.step === 'hashing' ? 'Checking files' : 'Uploading documents'}
          validationState="none"
          hint={`${percent}%`}
        >
          <ProgressBar value={busy.fraction} max={1} />
        </Field>
      )}
      {!dry && !results && (
        <div className={styles.buttons}>
          <Button appearance="primary" disabledFocusable={busy !== null} onClick={() => void preview()}>
            {busy?.step === 'hashing' ? 'Checking...' : 'Preview Upload'}
          </Button>
        </div>
      )}
      {dry && (
        <BulkPreview
          ref={previewHeading}
          plan={dry.plan}
          csvText={dry.csvText}
          refused={dry.refused}
          sending={upload.isPending}
          onConfirm={confirm}
          onCancel={cancel}
        />
      )}
      {results && <BulkResults ref={resultsHeading} results={results} onClose={closeResults} />}
    </section>
  );
}
