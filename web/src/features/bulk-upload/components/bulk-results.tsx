import { forwardRef, type ReactNode } from 'react';
import { Button } from '@fluentui/react-components';
import type { BulkUploadPersonalDocumentsAnswer } from '@everest/core/contract';
import { publishingMessages } from '@everest/core/domain';
import { notifiedSentence, resultSentence, resultTotals, type BatchResults } from '../lib/bulk-results';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { useBulkStyles } from './bulk-styles';

export interface BulkResultsProps {
  results: BatchResults;
  onClose: () => void;
}

const period = (p: { year?: number | undefined; quarter?: string | undefined }) => (p.year && p.quarter ? `, ${p.quarter} ${p.year}` : '');

/** ', corrects 2025 K-1 (Q1 2026, first published Mar 2, 2026)' for a row that corrected a document, as the preview named it. */
function correctsOf(s: BulkUploadPersonalDocumentsAnswer['successful'][number]): string {
  if (!s.corrected || !s.year || !s.quarter) return '';
  return `, ${publishingMessages.corrects({ title: s.title, category: null, year: s.year, quarter: s.quarter, firstPublishedAt: s.firstPublishedAt ?? '' })}`;
}

function ResultList({ label, items }: { label: string; items: { key: string; text: ReactNode }[] }) {
  const bulk = useBulkStyles();
  if (items.length === 0) return null;
  return (
    <div>
      <p className={bulk.listTitle}>{`${label} (${items.length})`}</p>
      <ul className={bulk.list} aria-label={label}>
        {items.map((item) => (
          <li key={item.key}>{item.text}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The spec's Bulk document upload results (successful, failed with filename and error,
 * unprocessed, totalProcessed), for both halves of a quarter folder. What
 * already was published is listed apart from the failures, a refused file gives its own reason,
 * a batch confirmed again says that nothing new was published, and the e-mail says how many
 * people it reached.
 */
export const BulkResults = forwardRef<HTMLHeadingElement, BulkResultsProps>(function BulkResults({ results, onClose }, headingRef) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const totals = resultTotals(results);
  const mail = notifiedSentence(results);
  const personal = results.personal;
  return (
    <section className={bulk.panel} aria-labelledby="bulk-results-title">
      <h4 id="bulk-results-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Upload Results
      </h4>
      <p role="status" data-testid="bulk-results-summary">
        {resultSentence(results)}
        {mail && ` ${mail}`}
      </p>
      <dl className={bulk.totals} aria-label="Totals">
        {(
          [
            ['Successful', totals.published],
            ['Already published', totals.alreadyPublished],
            ['Failed', totals.failed],
            ['Not sent', totals.notSent],
            ['Unprocessed', totals.unprocessed],
            ['Total processed', totals.totalProcessed],
          ] as const
        ).map(([label, value]) => (
          <div key={label}>
            <dt className={styles.muted}>{label}</dt>
            <dd className={bulk.total}>{value}</dd>
          </div>
        ))}
      </dl>
      <ResultList
        label="Successful"
        items={[
          ...results.property.published.map((d) => ({
            key: `p-${d.documentId}`,
            text: `${d.filename}: "${d.title}" for ${d.property}${period(d)}${d.corrects ? `, ${d.corrects}` : ''}`,
          })),
          ...personal.flatMap((a) =>
            a.successful.map((s) => ({ key: `u-${s.documentId}`, text: `${s.filename}: "${s.title}" for ${s.userEmail}${period(s)}${correctsOf(s)}` })),
          ),
        ]}
      />
      <ResultList
        label="Already published"
        items={[
          ...results.property.alreadyPublished.map((d, index) => ({
            key: `p-${index}-${d.filename}`,
            text: `${d.filename}: ${d.property} already has it as "${d.existing.title}"${period(d.existing)}`,
          })),
          ...personal.flatMap((a, m) =>
            a.alreadyPublished.map((s, index) => ({ key: `u-${m}-${index}`, text: `${s.filename}: ${s.userEmail} already has it as "${s.title}"` })),
          ),
        ]}
      />
      <ResultList
        label="Failed"
        items={[
          ...results.property.failed.map((f, index) => ({ key: `p-${index}`, text: `${f.filename}: ${f.error}` })),
          ...results.personalFailed.map((f, index) => ({ key: `m-${index}`, text: `${f.filename}: ${f.error}` })),
          ...personal.flatMap((a, m) =>
            a.failed.map((f, index) => ({ key: `u-${m}-${index}`, text: `${f.filename || '(no file name)'}: ${f.error}` })),
          ),
        ]}
      />
      <ResultList label="Not sent" items={results.notSent.map((f, index) => ({ key: `n-${index}`, text: `${f.path}: ${f.reason}` }))} />
      <ResultList
        label="Unprocessed"
        items={personal.flatMap((a, m) => a.unprocessed.map((name, index) => ({ key: `x-${m}-${index}`, text: name })))}
      />
      <div className={styles.buttons}>
        <Button onClick={onClose}>Close Results</Button>
      </div>
    </section>
  );
});
