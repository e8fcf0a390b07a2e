import { forwardRef, useMemo } from 'react';
import { Badge, Button, type BadgeProps } from '@fluentui/react-components';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import type { BulkManifestPlan, ManifestOutcome } from '@everest/core/domain';
import { documentCategoryLabels } from '@everest/core/domain';
import { manifestCells, outcomeCounts, outcomeLabels, rowMessage, type RefusedFile } from '../lib/bulk-plan';
import { AdminTable } from './admin-table';
import { useAdminStyles } from './admin-styles';
import { useBulkStyles } from './bulk-styles';

export interface BulkPreviewProps {
  plan: BulkManifestPlan;
  csvText: string;
  refused: readonly RefusedFile[];
  /** Set while the batch is being sent: Confirm and Cancel wait. */
  sending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

interface PreviewRow {
  row: number;
  email: string;
  filename: string;
  title: string;
  category: string;
  outcome: ManifestOutcome;
  message: string;
}

const badgeColor: Record<ManifestOutcome, BadgeProps['color']> = {
  publish: 'success',
  'already-published': 'informative',
  'title-used': 'warning',
  'user-not-found': 'danger',
  'missing-fields': 'danger',
  'file-missing': 'danger',
  'bad-category': 'danger',
  'bad-field': 'danger',
  'duplicate-row': 'warning',
};

const column = createColumnHelper<PreviewRow>();

/**
 * The dry run's verdict before anything is sent (issue 16): counts per outcome, a row per
 * manifest line with what will happen to it, the selected files no row names, and Confirm,
 * offered only when at least one row would be published.
 */
export const BulkPreview = forwardRef<HTMLHeadingElement, BulkPreviewProps>(function BulkPreview(
  { plan, csvText, refused, sending, onConfirm, onCancel },
  headingRef,
) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const rows = useMemo<PreviewRow[]>(() => {
    const cells = manifestCells(csvText);
    return plan.rows.map((row) => {
      const written = cells.get(row.row);
      const published = row.outcome === 'publish' || row.outcome === 'already-published';
      return {
        row: row.row,
        email: published ? row.email : (written?.email ?? ''),
        filename: row.filename,
        title: published ? row.title : (written?.title ?? ''),
        category: published ? documentCategoryLabels[row.documentCategory] : '',
        outcome: row.outcome,
        message: rowMessage(row, refused),
      };
    });
  }, [plan, csvText, refused]);

  const columns = useMemo(
    () => [
      column.accessor('row', { header: 'Row', meta: { className: styles.nowrap } }),
      column.accessor('outcome', {
        header: 'Outcome',
        cell: (info) => (
          <div className={styles.cellStack}>
            <span>
              <Badge appearance="tint" color={badgeColor[info.getValue()]}>
                {outcomeLabels[info.getValue()]}
              </Badge>
            </span>
            {/* 'User not found' under 'User not found' says nothing twice. */}
            {info.row.original.message && info.row.original.message.toLowerCase() !== outcomeLabels[info.getValue()].toLowerCase() && (
              <span className={styles.muted}>{info.row.original.message}</span>
            )}
          </div>
        ),
      }),
      column.accessor('email', {
        header: 'E-mail',
        cell: (info) => <span className={styles.breakAnywhere}>{info.getValue() || '—'}</span>,
      }),
      column.accessor('filename', { header: 'File', cell: (info) => <span className={bulk.filename}>{info.getValue() || '—'}</span> }),
      column.accessor('title', {
        header: 'Title',
        cell: (info) => (
          <div className={styles.cellStack}>
            <span>{info.getValue() || '—'}</span>
            {info.row.original.category && <span className={styles.muted}>{info.row.original.category}</span>}
          </div>
        ),
      }),
    ],
    [styles, bulk],
  );
  const table = useReactTable({ data: rows, columns, getRowId: (r) => String(r.row), getCoreRowModel: getCoreRowModel() });

  const counts = outcomeCounts(plan);
  const publishing = plan.counts.publish;

  return (
    <section className={bulk.panel} aria-labelledby="bulk-preview-title">
      <h4 id="bulk-preview-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Upload Preview
      </h4>
      <ul className={bulk.counts} aria-label="Rows per outcome">
        {counts.map(({ outcome, label, count }) => (
          <li key={outcome}>
            <Badge appearance="tint" color={badgeColor[outcome]}>
              {`${label}: ${count}`}
            </Badge>
          </li>
        ))}
        {plan.corrections > 0 && (
          <li>
            <Badge appearance="tint" color="warning">{`Corrections of published documents: ${plan.corrections}`}</Badge>
          </li>
        )}
        <li>
          <Badge appearance="tint" color="subtle">{`Unprocessed files: ${plan.unprocessed.length}`}</Badge>
        </li>
      </ul>
      <div className={bulk.scroll}>
        <AdminTable table={table} label="Upload preview" empty="The manifest has no rows." />
      </div>
      {plan.unprocessed.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Unprocessed files (${plan.unprocessed.length}): selected, but named by no row; they are not published`}</p>
          <ul className={bulk.list}>
            {plan.unprocessed.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
        </div>
      )}
      {refused.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Not sent (${refused.length}): PDF, DOC, DOCX, XLS or XLSX up to 10 MB only`}</p>
          <ul className={bulk.list}>
            {refused.map((file) => (
              <li key={file.name}>{file.reason}</li>
            ))}
          </ul>
        </div>
      )}
      <p role="status" className={publishing === 0 ? styles.alert : undefined}>
        {publishing === 0
          ? 'Nothing new would be published: no row can be published as it stands.'
          : `${publishing} ${publishing === 1 ? 'document' : 'documents'} will be published. Nothing is sent until you confirm.`}
      </p>
      <div className={styles.buttons}>
        <Button appearance="primary" disabled={publishing === 0} disabledFocusable={sending} onClick={onConfirm}>
          {sending ? 'Uploading...' : `Confirm & Upload ${publishing} ${publishing === 1 ? 'Document' : 'Documents'}`}
        </Button>
        <Button disabledFocusable={sending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
});
