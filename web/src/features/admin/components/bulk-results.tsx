import { forwardRef } from 'react';
import { Button } from '@fluentui/react-components';
import type { BulkUploadUserDocumentsAnswer } from '@everest/core/contract';
import { useAdminStyles } from './admin-styles';
import { useBulkStyles } from './bulk-styles';

export interface BulkResultsProps {
  results: BulkUploadUserDocumentsAnswer;
  onClose: () => void;
}

/** The spec's Bulk document upload results: successful, failed (filename, error), unprocessed, totalProcessed. */
export const BulkResults = forwardRef<HTMLHeadingElement, BulkResultsProps>(function BulkResults({ results, onClose }, headingRef) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const published = results.successful.length;
  return (
    <section className={bulk.panel} aria-labelledby="bulk-results-title">
      <h4 id="bulk-results-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Upload Results
      </h4>
      <p role="status">
        {published === 0
          ? `Nothing new was published. ${results.totalProcessed} ${results.totalProcessed === 1 ? 'row' : 'rows'} processed.`
          : `${published} ${published === 1 ? 'document' : 'documents'} published. ${results.totalProcessed} ${results.totalProcessed === 1 ? 'row' : 'rows'} processed.`}
      </p>
      <dl className={bulk.totals} aria-label="Totals">
        {(
          [
            ['Successful', published],
            ['Failed', results.failed.length],
            ['Unprocessed', results.unprocessed.length],
            ['Total processed', results.totalProcessed],
          ] as const
        ).map(([label, value]) => (
          <div key={label}>
            <dt className={styles.muted}>{label}</dt>
            <dd className={bulk.total}>{value}</dd>
          </div>
        ))}
      </dl>
      {published > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Successful (${published})`}</p>
          <ul className={bulk.list} aria-label="Successful">
            {results.successful.map((s) => (
              <li key={s.documentId}>{`${s.filename}: "${s.title}" for ${s.userEmail}`}</li>
            ))}
          </ul>
        </div>
      )}
      {results.failed.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Failed (${results.failed.length})`}</p>
          <ul className={bulk.list} aria-label="Failed">
            {results.failed.map((f, index) => (
              <li key={`${index}-${f.filename}`}>{`${f.filename || '(no file name)'}: ${f.error}`}</li>
            ))}
          </ul>
        </div>
      )}
      {results.unprocessed.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Unprocessed (${results.unprocessed.length})`}</p>
          <ul className={bulk.list} aria-label="Unprocessed">
            {results.unprocessed.map((name, index) => (
              <li key={`${index}-${name}`}>{name}</li>
            ))}
          </ul>
        </div>
      )}
      <div className={styles.buttons}>
        <Button onClick={onClose}>Close Results</Button>
      </div>
    </section>
  );
});
