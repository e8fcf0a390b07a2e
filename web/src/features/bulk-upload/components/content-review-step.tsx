import { forwardRef } from 'react';
import { Badge, Button } from '@fluentui/react-components';
import { reviewProblem, rowProblem, type ReviewRow } from '@everest/core/domain';
import type { ContentReview } from '../lib/match-by-content';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { ContentReviewTable } from './content-review-table';
import { useBulkStyles } from './bulk-styles';

export interface ContentReviewStepProps {
  review: ContentReview;
  onRows: (rows: ReviewRow[]) => void;
  /** Set while the confirmed rows are being cut and checked: the buttons wait. */
  busy: boolean;
  onContinue: () => void;
  onCancel: () => void;
}

/**
 * Match by content's review, before the usual preview: how many rows matched and how many need
 * a person, the rows themselves, and Continue, offered once every row has an investor and a title
 * or is excluded. Nothing is sent from here: Continue makes the manifest and shows its preview.
 */
export const ContentReviewStep = forwardRef<HTMLHeadingElement, ContentReviewStepProps>(function ContentReviewStep(
  { review, onRows, busy, onContinue, onCancel },
  headingRef,
) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const { rows } = review;
  const excluded = rows.filter((row) => row.excluded).length;
  const open = rows.filter((row) => rowProblem(row) !== null).length;
  const ready = rows.length - excluded - open;
  const matched = rows.filter((row) => !row.excluded && row.matched).length;
  const problem = reviewProblem(rows);
  const change = (changed: ReviewRow) => onRows(rows.map((row) => (row.key === changed.key ? changed : row)));

  return (
    <section className={bulk.panel} aria-labelledby="content-review-title">
      <h4 id="content-review-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Match by content: review
      </h4>
      <p className={bulk.or}>
        Each K-1 goes to the one investor whose name, entity or identifier is in it, and no other&rsquo;s. Check every row, name the
        investor of each one that needs a person, or exclude it. Nothing is sent before the preview&rsquo;s Confirm.
      </p>
      <ul className={bulk.counts} aria-label="Rows">
        <li>
          <Badge appearance="tint" color="success">{`${ready} ready (${matched} matched by content)`}</Badge>
        </li>
        <li>
          <Badge appearance="tint" color={open > 0 ? 'danger' : 'subtle'}>{`${open} need${open === 1 ? 's' : ''} a person`}</Badge>
        </li>
        <li>
          <Badge appearance="tint" color="subtle">{`${excluded} excluded`}</Badge>
        </li>
      </ul>
      <ContentReviewTable rows={rows} investors={review.investors} onChange={change} disabled={busy} />
      {review.leftOut.length > 0 && (
        <div>
          <p className={bulk.listTitle}>Not read</p>
          <ul className={bulk.list}>
            {review.leftOut.map((file) => (
              <li key={file.path}>{`${file.path}: ${file.reason}`}</li>
            ))}
          </ul>
        </div>
      )}
      {problem && (
        <p role="status" className={styles.muted}>
          {problem}
        </p>
      )}
      <div className={styles.buttons}>
        <Button appearance="primary" disabledFocusable={busy || problem !== null} onClick={onContinue}>
          {busy ? 'Preparing...' : 'Continue to Preview'}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </section>
  );
});
