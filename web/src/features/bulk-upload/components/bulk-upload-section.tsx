import { useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Link, MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { PropertyDocument } from '@everest/core/contract';
import { contentReviewMessages, portalMessages, type Period, type Quarter } from '@everest/core/domain';
import { allPropertiesQueryOptions, useAllProperties } from '../../../lib/admin/api/all-properties';
import { bulkUploadPreview } from '../api/bulk-upload-preview';
import { bulkUploadPersonalDocuments } from '../api/bulk-upload-personal-documents';
import { correctDocument } from '../../../lib/admin/api/correct-document';
import { documentRecipientsQueryOptions } from '../../../lib/admin/api/document-recipients';
import { documentSha256 } from '../api/document-sha256';
import { documentsQueryOptions } from '../../../lib/admin/api/documents';
import { notifyDocuments } from '../api/notify-documents';
import { invalidatePublished } from '../../../lib/admin/api/query-keys';
import { uploadDocument } from '../../../lib/admin/api/upload-document';
import { emailingTexts } from '../../../lib/admin/admin-messages';
import { splitFolder } from '../lib/bulk-batch';
import { countRecipients, dryRunManifest, dryRunQuarterFolder, type BatchDryRun, type DryRunServer } from '../lib/bulk-dry-run';
import { pendingAnnouncements, publishBatch, type PublishServer } from '../lib/bulk-publish';
import { resultSentence, type BatchResults } from '../lib/bulk-results';
import { chosenFolder, isLeftOut, quarterLayout, readFiles } from '../lib/bulk-selection';
import { useBulkSelection } from '../lib/use-bulk-selection';
import { confirmedBatch, matchByContent, type ContentReview } from '../lib/match-by-content';
import { contentMatchingInvestors } from '../api/content-matching-investors';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { showToast } from '../../../lib/toast';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { BulkPreview } from './bulk-preview';
import { BulkProgress } from './bulk-progress';
import { BulkUploadPicker } from './bulk-upload-picker';
import { BulkResults } from './bulk-results';
import { BulkSelectionSummary } from './bulk-selection-summary';
import { ContentReviewStep } from './content-review-step';
import { useBulkStyles } from './bulk-styles';
import { BatchEmailSummary, EmailConfirmDialog, recipientsTitle, type RecipientCount } from '../../../components/admin/email-confirm-dialog';

/** decided: the spec names 'Missing Files' only; this says what is missing. */
export const bulkNotices = {
  missingFilesDetail:
    'Please select the CSV manifest and the documents it names, or a quarter folder (properties/ and investors/), or a folder holding manifest.csv and them.',
  folderWithoutManifest: 'The chosen folder holds no manifest.csv and nothing in the quarter layout (properties/<Property name>/ or investors/).',
  halfPeriod: 'Choose both a year and a quarter for the batch, or neither.',
  completeTitle: 'Bulk Upload Complete',
} as const;

type Busy = { step: 'reading' | 'hashing' | 'uploading'; fraction: number } | null;

const dryRunServer = (
  fetchDocuments: () => Promise<readonly PropertyDocument[]>,
  recipients: DryRunServer['recipients'],
): DryRunServer => ({
  preview: (emails, sha256) => bulkUploadPreview({ emails, sha256 }),
  documents: fetchDocuments,
  documentSha256,
  recipients,
});

const publishServer: PublishServer = {
  uploadDocument,
  correctDocument,
  bulkUpload: bulkUploadPersonalDocuments,
  notify: notifyDocuments,
};

/**
 * The bulk upload (spec: user-documents; section 4 "Bulk document upload"): select,
 * preview, confirm, results. A quarter folder publishes both halves, its property documents
 * and its investors' manifest, with one preview, one confirmation and one digest per reader; a
 * manifest and its documents publish the personal half alone, under the period chosen here. The
 * preview is the browser's dry run with core's rules and nothing is sent before Confirm; with
 * e-mail on, Confirm first says how many people it will e-mail. Changing the selection clears
 * the preview and the results.
 */
export function BulkUploadSection() {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const queryClient = useQueryClient();
  const properties = useAllProperties();
  const [emailNotification, setEmailNotification] = useState(false);
  const [periodYear, setPeriodYear] = useState<number | null>(null);
  const [periodQuarter, setPeriodQuarter] = useState<Quarter | null>(null);
  const [problem, setProblem] = useState<{ title: string; detail?: string } | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [dry, setDry] = useState<BatchDryRun | null>(null);
  const [matchContent, setMatchContent] = useState(false);
  const [review, setReview] = useState<ContentReview | null>(null);
  const [results, setResults] = useState<BatchResults | null>(null);
  const [confirming, setConfirming] = useState<RecipientCount | null>(null);
  const [counting, setCounting] = useState(false);
  const [sending, setSending] = useState(false);
  const [renotifying, setRenotifying] = useState(false);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const reviewHeading = useRef<HTMLHeadingElement>(null);
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
  const reviewShown = review !== null && dry === null;
  useEffect(() => {
    if (reviewShown) reviewHeading.current?.focus();
  }, [reviewShown]);

  const selectionChanged = () => {
    run.current += 1;
    setDry(null);
    setReview(null);
    setResults(null);
    setProblem(null);
    setBusy(null);
  };
  const propertyNames = useMemo(() => (properties.data?.properties ?? []).map((p) => p.name), [properties.data]);
  const selection = useBulkSelection(propertyNames, selectionChanged);
  const { manifest, documents, folder, quarterFolder } = selection;

  const say = (title: string, detail?: string) => {
    setProblem({ title, ...(detail ? { detail } : {}) });
    showToast({ title, description: detail, variant: 'destructive' });
  };

  const formPeriod = (): Period | null | 'half' => {
    if (periodYear === null && periodQuarter === null) return null;
    if (periodYear === null || periodQuarter === null) return 'half';
    return { year: periodYear, quarter: periodQuarter };
  };

  /** The server as the dry run asks it: fresh documents and recipients each time. */
  const serverNow = () =>
    dryRunServer(
      async () => (await queryClient.fetchQuery({ ...documentsQueryOptions, staleTime: 0 })).documents,
      (property) => queryClient.fetchQuery({ ...documentRecipientsQueryOptions(property), staleTime: 0 }),
    );

  const preview = async () => {
    if (busy) return;
    setDry(null);
    setResults(null);
    setProblem(null);
    const mine = ++run.current;
    const stale = () => run.current !== mine;
    const onProgress = (fraction: number) => {
      if (!stale()) setBusy({ step: 'hashing', fraction });
    };
    if (matchContent) {
      await readByContent(stale);
      return;
    }
    try {
      let planned: BatchDryRun;
      // The layout again with the property names known for sure (the form's may not be loaded yet).
      const names = folder ? (await queryClient.fetchQuery(allPropertiesQueryOptions)).properties.map((p) => p.name) : [];
      const chosenQuarter = folder ? chosenFolder(folder) : null;
      if (stale()) return;
      if (chosenQuarter && quarterLayout(chosenQuarter, names)) {
        setBusy({ step: 'hashing', fraction: 0 });
        const read = await readFiles(
          chosenQuarter.files.filter((f) => !isLeftOut(f.path)),
          onProgress,
        );
        if (stale()) return;
        planned = await dryRunQuarterFolder(chosenQuarter, read, names, serverNow());
      } else {
        const chosen = folder ? splitFolder(folder) : { manifest, files: documents };
        if (!chosen.manifest || chosen.files.length === 0) {
          say(portalMessages.missingFiles, folder && !chosen.manifest ? bulkNotices.folderWithoutManifest : bulkNotices.missingFilesDetail);
          return;
        }
        const period = formPeriod();
        if (period === 'half') {
          say(bulkNotices.halfPeriod);
          return;
        }
        setBusy({ step: 'hashing', fraction: 0 });
        const read = await readFiles(
          chosen.files.map((file) => ({ file, path: file.name })),
          onProgress,
        );
        if (stale()) return;
        planned = await dryRunManifest(chosen.manifest, read, period, serverNow());
      }
      if (stale()) return;
      setBusy(null);
      if (planned.error) {
        // A manifest that cannot be read safely publishes nothing, and nothing is offered to confirm.
        say(planned.error);
        return;
      }
      setDry(planned);
    } catch (error) {
      if (stale()) return;
      setBusy(null);
      notifyFailure(portalMessages.bulkPreviewFailed, error);
      setProblem({ title: portalMessages.bulkPreviewFailed, detail: error instanceof Error ? error.message : undefined });
    }
  };

  /** Match by content, first step: read the chosen PDFs and put the rows before staff. */
  const readByContent = async (stale: () => boolean) => {
    const chosen = folder ? chosenFolder(folder).files : documents.map((file) => ({ file, path: file.name }));
    if (chosen.length === 0) {
      say(portalMessages.missingFiles, contentReviewMessages.noPdf);
      return;
    }
    if (formPeriod() === 'half') {
      say(bulkNotices.halfPeriod);
      return;
    }
    setReview(null);
    setBusy({ step: 'reading', fraction: 0 });
    try {
      const { investors } = await contentMatchingInvestors();
      const read = await matchByContent(chosen, investors, (fraction) => {
        if (!stale()) setBusy({ step: 'reading', fraction });
      });
      if (stale()) return;
      setBusy(null);
      if ('error' in read) say(read.error);
      else setReview(read);
    } catch (error) {
      if (stale()) return;
      setBusy(null);
      notifyFailure(portalMessages.bulkPreviewFailed, error);
      setProblem({ title: portalMessages.bulkPreviewFailed, detail: error instanceof Error ? error.message : undefined });
    }
  };

  /** Match by content, second step: what staff confirmed becomes a manifest, previewed as any other. */
  const previewReview = async () => {
    if (!review || busy) return;
    const period = formPeriod();
    if (period === 'half') {
      say(bulkNotices.halfPeriod);
      return;
    }
    const mine = ++run.current;
    const stale = () => run.current !== mine;
    setProblem(null);
    setBusy({ step: 'hashing', fraction: 0 });
    try {
      const batch = await confirmedBatch(review);
      if (stale()) return;
      const read = await readFiles(
        batch.documents.map((file) => ({ file, path: file.name })),
        (fraction) => !stale() && setBusy({ step: 'hashing', fraction }),
      );
      if (stale()) return;
      const planned = await dryRunManifest(batch.manifest, read, period, serverNow());
      if (stale()) return;
      setBusy(null);
      if (planned.error) say(planned.error);
      else setDry(planned);
    } catch (error) {
      if (stale()) return;
      setBusy(null);
      notifyFailure(portalMessages.bulkPreviewFailed, error);
      setProblem({ title: portalMessages.bulkPreviewFailed, detail: error instanceof Error ? error.message : undefined });
    }
  };

  const publish = (planned: BatchDryRun) => {
    setSending(true);
    setBusy({ step: 'uploading', fraction: 0 });
    publishBatch(planned, { emailNotification, onProgress: (fraction) => setBusy({ step: 'uploading', fraction }) }, publishServer)
      .then((answer) => {
        setConfirming(null);
        setDry(null);
        setReview(null);
        setResults(answer);
        notifySuccess(bulkNotices.completeTitle, resultSentence(answer));
        return invalidatePublished(queryClient, { property: true, personal: true });
      })
      .catch((error: unknown) => {
        setConfirming(null);
        notifyFailure(portalMessages.bulkUploadFailed, error);
      })
      .finally(() => {
        setSending(false);
        setBusy(null);
      });
  };

  const confirm = () => {
    if (!dry || sending || counting || dry.publishing === 0) return;
    if (!emailNotification) {
      publish(dry);
      return;
    }
    // Before the e-mails, how many people they reach, so that nobody is e-mailed unawares.
    setCounting(true);
    countRecipients(dry, (property) => queryClient.fetchQuery({ ...documentRecipientsQueryOptions(property), staleTime: 0 }))
      .then((count) => {
        if (count.people === 0) publish(dry);
        else setConfirming(count);
      })
      .catch((error: unknown) => notifyFailure(emailingTexts.countFailed, error))
      .finally(() => setCounting(false));
  };

  const notifyAgain = () => {
    if (!results || renotifying) return;
    setRenotifying(true);
    notifyDocuments(pendingAnnouncements(results))
      .then((answer) => setResults({ ...results, notified: answer.notified, notifyError: null }))
      .catch((error: unknown) => notifyFailure(portalMessages.bulkUploadFailed, error))
      .finally(() => setRenotifying(false));
  };

  // Match by content's preview goes back to its review, which focuses its heading.
  const cancel = () => {
    setDry(null);
    if (!review) sectionHeading.current?.focus();
  };

  const cancelReview = () => {
    run.current += 1;
    setReview(null);
    setBusy(null);
    sectionHeading.current?.focus();
  };

  const closeResults = () => {
    setResults(null);
    selection.clear();
    sectionHeading.current?.focus();
  };

  return (
    <section className={styles.section} aria-labelledby="bulk-upload-title">
      <h3 id="bulk-upload-title" ref={sectionHeading} tabIndex={-1} className={styles.sectionTitle}>
        Bulk Upload User Documents
      </h3>
      <p className={bulk.or}>
        {"Publish many investors' documents at once: a CSV manifest and the documents it names, or a whole quarter folder with its property documents too. "}
        <Link href="/instructions" target="_blank" rel="noopener">
          View Instructions
        </Link>
        <span className={styles.muted}> (opens in a new tab)</span>
      </p>
      <BulkUploadPicker
        inputsKey={selection.inputsKey}
        pickerKeys={selection.pickerKeys}
        disabled={sending}
        onManifest={selection.chooseManifest}
        onDocuments={selection.chooseDocuments}
        onFolder={selection.chooseFolder}
        folderPeriods={quarterFolder ? selection.folderPeriods : null}
        periodYear={periodYear}
        periodQuarter={periodQuarter}
        onPeriodYear={(year) => {
          setPeriodYear(year);
          selectionChanged();
        }}
        onPeriodQuarter={(quarter) => {
          setPeriodQuarter(quarter);
          selectionChanged();
        }}
        emailNotification={emailNotification}
        onEmailNotification={setEmailNotification}
        matchContent={matchContent}
        onMatchContent={(checked) => {
          setMatchContent(checked);
          selectionChanged();
        }}
      />
      <BulkSelectionSummary selection={selection} />
      {problem && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>
            <MessageBarTitle>{problem.title}</MessageBarTitle>
            {problem.detail}
          </MessageBarBody>
        </MessageBar>
      )}
      {busy && <BulkProgress step={busy.step} fraction={busy.fraction} />}
      {!dry && !results && !review && (
        <div className={styles.buttons}>
          <Button appearance="primary" disabledFocusable={busy !== null} onClick={() => void preview()}>
            {busy?.step === 'reading' ? 'Reading...' : busy?.step === 'hashing' ? 'Checking...' : 'Preview Upload'}
          </Button>
        </div>
      )}
      {review && !dry && !results && (
        <ContentReviewStep
          ref={reviewHeading}
          review={review}
          onRows={(rows) => setReview({ ...review, rows })}
          busy={busy !== null}
          onContinue={() => void previewReview()}
          onCancel={cancelReview}
        />
      )}
      {dry && <BulkPreview ref={previewHeading} run={dry} sending={sending || counting} onConfirm={confirm} onCancel={cancel} />}
      {results && (
        <>
          <BulkResults ref={resultsHeading} results={results} onClose={closeResults} />
          {results.notifyError && (
            <div className={styles.buttons}>
              <Button onClick={notifyAgain} disabledFocusable={renotifying}>
                {renotifying ? 'Sending...' : 'Send the e-mail again'}
              </Button>
            </div>
          )}
        </>
      )}
      <EmailConfirmDialog
        title={confirming ? recipientsTitle(confirming) : null}
        confirmLabel={`Publish and Send E-mails`}
        pendingLabel="Uploading..."
        pending={sending}
        onConfirm={() => dry && publish(dry)}
        onCancel={() => setConfirming(null)}
      >
        {confirming && dry && <BatchEmailSummary documents={dry.publishing} recipients={confirming} />}
      </EmailConfirmDialog>
    </section>
  );
}
