import { forwardRef } from 'react';
import { Button, mergeClasses } from '@fluentui/react-components';
import type { ImportResults } from '@everest/core/contract';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { RowErrorList, useImportStyles } from './bulk-import-lists';

const resultLines: { key: Exclude<keyof ImportResults, 'errors'>; label: string }[] = [
  { key: 'imported', label: 'Imported' },
  { key: 'updated', label: 'Updated' },
  { key: 'skipped', label: 'Skipped (existing emails)' },
  { key: 'failed', label: 'Failed (invalid data)' },
  { key: 'emailsSent', label: 'Welcome emails sent' },
  { key: 'propertyUpdateEmailsSent', label: 'Property update emails sent' },
];

export interface BulkImportResultsProps {
  results: ImportResults;
  onClose: () => void;
}

/** Spec: the results panel with its six counts and Close Results; the failed rows say why. */
export const BulkImportResults = forwardRef<HTMLHeadingElement, BulkImportResultsProps>(function BulkImportResults(
  { results, onClose },
  headingRef,
) {
  const admin = useAdminStyles();
  const styles = useImportStyles();
  return (
    <section className={styles.panel} aria-labelledby="bulk-import-results-title">
      <h4 id="bulk-import-results-title" ref={headingRef} tabIndex={-1} className={admin.sectionTitle}>
        Import Results
      </h4>
      <dl className={mergeClasses(styles.counts, styles.resultCounts)} aria-label="Import results">
        {resultLines.map(({ key, label }) => (
          <div key={key} className={styles.count}>
            <dt className={styles.countLabel}>{label}</dt>
            <dd className={styles.countValue}>{results[key].toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
      {results.errors.length > 0 && <RowErrorList id="bulk-import-result-errors" title="Rows not imported" errors={results.errors} />}
      <div className={admin.buttons}>
        <Button onClick={onClose}>Close Results</Button>
      </div>
    </section>
  );
});
