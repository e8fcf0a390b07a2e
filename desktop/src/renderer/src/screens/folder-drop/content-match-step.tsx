import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Field, ProgressBar, Text } from '@fluentui/react-components';
import type { ReviewRow } from '@everest/core/domain';
import { ContentReviewStep, confirmedBatch, matchByContent, type ContentReview, type FolderFile } from '@everest/web/admin';
import { api } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { useScreenStyles } from '../styles';
import { contentMatchTexts, type ContentToMatch } from './content-match-offer';

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Match by content for one investors folder of a drop: its PDFs read and matched in the
 * renderer by the browser's own code (workers, core's rule), the browser's review, and on
 * Continue what staff confirmed written by main as a quarter folder (`onStaged`), which the Folder
 * Drop then plans and publishes as any dropped folder. Nothing is sent from here.
 */
// The default export, so that the Folder Drop loads it (and PDF.js with it) only when staff match by content.
export default function ContentMatchStep({
  folder,
  content,
  onStaged,
  onCancel,
  onFailure,
  failureBar,
}: {
  /** The dropped folder's absolute path. */
  folder: string;
  content: ContentToMatch;
  onStaged: (stagedFolder: string) => void;
  onCancel: () => void;
  onFailure: (message: string | null) => void;
  failureBar: ReactNode;
}) {
  const screen = useScreenStyles();
  const [progress, setProgress] = useState(0);
  const [review, setReview] = useState<ContentReview | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const pdfPaths = content.files.filter((path) => path.toLowerCase().endsWith('.pdf'));

  useEffect(() => {
    let current = true;
    void (async () => {
      onFailure(null);
      try {
        const [{ investors }, dropped] = await Promise.all([
          api.call('contentMatchingInvestors', {}, { cache: 'no-store' }),
          window.desktop.readDroppedPdfs(folder, pdfPaths),
        ]);
        const files: FolderFile[] = dropped.map(({ path, bytes }) => ({
          path,
          file: new File([bytes as BlobPart], baseName(path), { type: 'application/pdf' }),
        }));
        const matched = await matchByContent(files, investors, (fraction) => current && setProgress(fraction));
        if (!current) return;
        if ('error' in matched) {
          onFailure(matched.error);
          onCancel();
        } else setReview(matched);
      } catch (error) {
        if (!current) return;
        onFailure(errorMessage(error));
        onCancel();
      }
    })();
    return () => {
      current = false;
    };
    // Read once per folder shown, whatever the callbacks' identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [folder, content]);

  const reviewShown = review !== null;
  useEffect(() => {
    if (reviewShown) headingRef.current?.focus();
  }, [reviewShown]);

  async function confirm(confirmed: ContentReview) {
    onFailure(null);
    setBusy(true);
    try {
      const { manifest, documents } = await confirmedBatch(confirmed);
      const staged = await window.desktop.stageContentMatch({
        year: content.year,
        quarter: content.quarter,
        manifest: await manifest.text(),
        documents: await Promise.all(documents.map(async (d) => ({ name: d.name, bytes: new Uint8Array(await d.arrayBuffer()) }))),
      });
      onStaged(staged);
    } catch (error) {
      onFailure(errorMessage(error));
      setBusy(false);
    }
  }

  return (
    <section className={screen.screen} aria-label="Match by content">
      <Text as="h2" size={500} weight="semibold">
        Match by content
      </Text>
      <Text className={screen.path}>
        {folder}
        {content.folder ? `/${content.folder}` : ''} ({content.year} {content.quarter})
      </Text>
      {review ? (
        <ContentReviewStep
          ref={headingRef}
          review={review}
          onRows={(rows: ReviewRow[]) => setReview({ ...review, rows })}
          busy={busy}
          onContinue={() => {
            if (!busy) void confirm(review);
          }}
          onCancel={onCancel}
        />
      ) : (
        <Field label={contentMatchTexts.reading(pdfPaths.length)} validationState="none">
          <ProgressBar value={progress} aria-label="Reading progress" />
        </Field>
      )}
      {failureBar}
    </section>
  );
}
