import { forwardRef, useMemo } from 'react';
import { Badge, Button, Link, useRestoreFocusTarget, type BadgeProps } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { ManifestOutcome } from '@everest/core/domain';
import { csvEncodingLabels, documentCategoryLabels, folderPlanMessages, publishingMessages } from '@everest/core/domain';
import type { BatchDryRun, PlannedManifest, PlannedProperty } from '../lib/bulk-dry-run';
import { manifestCells, outcomeLabels, outcomeOrder, rowMessage } from '../lib/bulk-plan';
import { AdminTable, useAdminTable } from '../../../components/admin/admin-table';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { useBulkStyles } from './bulk-styles';

export interface BulkPreviewProps {
  run: BatchDryRun;
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
  period: string;
  outcome: ManifestOutcome;
  message: string;
}

const badgeColor: Record<ManifestOutcome, BadgeProps['color']> = {
  publish: 'success',
  'already-published': 'informative',
  'title-used': 'warning',
  'user-not-found': 'danger',
  'user-deactivated': 'danger',
  'missing-fields': 'danger',
  'file-missing': 'danger',
  'file-refused': 'danger',
  'bad-category': 'danger',
  'bad-field': 'danger',
  'duplicate-row': 'warning',
};


export const bulkPreviewTexts = {
  needsManifest:
    "personal documents need a manifest.csv in their investors folder, naming each file's investor, category and title.",
} as const;

const periodText = (p: { year: number; quarter: string } | null | undefined) => (p ? `${p.quarter} ${p.year}` : '—');

function OutcomeCell({ label, color, message }: { label: string; color: BadgeProps['color']; message: string }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>
        <Badge appearance="tint" color={color}>
          {label}
        </Badge>
      </span>
      {/* 'User not found' under 'User not found' says nothing twice. */}
      {message && message.toLowerCase() !== label.toLowerCase() && <span className={styles.muted}>{message}</span>}
    </div>
  );
}

const manifestColumn = createColumnHelper<PreviewRow>();

/** One manifest's rows: Row, Outcome, E-mail, Title, Period, File (case 4: the period is seen before Confirm). */
function ManifestTable({ manifest, label }: { manifest: PlannedManifest; label: string }) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const rows = useMemo<PreviewRow[]>(() => {
    const cells = manifestCells(manifest.csvText);
    return manifest.plan.rows.map((row) => {
      const written = cells.get(row.row);
      const published = row.outcome === 'publish' || row.outcome === 'already-published';
      return {
        row: row.row,
        email: published ? row.email : (written?.email ?? ''),
        filename: row.filename,
        title: published ? row.title : (written?.title ?? ''),
        category: published ? documentCategoryLabels[row.documentCategory] : '',
        period: published ? periodText(row) : '—',
        outcome: row.outcome,
        message: rowMessage(row, manifest.refused),
      };
    });
  }, [manifest]);
  const columns = useMemo(
    () => [
      manifestColumn.accessor('row', { header: 'Row', meta: { className: styles.nowrap } }),
      manifestColumn.accessor('outcome', {
        header: 'Outcome',
        cell: (info) => <OutcomeCell label={outcomeLabels[info.getValue()]} color={badgeColor[info.getValue()]} message={info.row.original.message} />,
      }),
      manifestColumn.accessor('email', {
        header: 'E-mail',
        cell: (info) => <span className={styles.breakAnywhere}>{info.getValue() || '—'}</span>,
      }),
      manifestColumn.accessor('title', {
        header: 'Title',
        cell: (info) => (
          <div className={styles.cellStack}>
            <span>{info.getValue() || '—'}</span>
            {info.row.original.category && <span className={styles.muted}>{info.row.original.category}</span>}
          </div>
        ),
      }),
      manifestColumn.accessor('period', { header: 'Period', meta: { className: styles.nowrap } }),
      manifestColumn.accessor('filename', { header: 'File', cell: (info) => <span className={bulk.filename}>{info.getValue() || '—'}</span> }),
    ],
    [styles, bulk],
  );
  const table = useAdminTable({ data: rows, columns, getRowId: (r) => String(r.row) });
  return (
    <div className={bulk.scroll}>
      <AdminTable table={table} label={label} empty="The manifest has no rows." />
    </div>
  );
}

const propertyColumn = createColumnHelper<PlannedProperty>();

/** The property documents: Outcome, Title, Property, Period, File. */
function PropertyTable({ documents }: { documents: PlannedProperty[] }) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  const columns = useMemo(
    () => [
      propertyColumn.accessor('outcome', {
        header: 'Outcome',
        cell: (info) => {
          const { existing, corrects, noReader } = info.row.original;
          const correction = corrects ? publishingMessages.corrects({ ...corrects, category: null, firstPublishedAt: corrects.uploadedAt }) : '';
          return info.getValue() === 'publish' ? (
            <OutcomeCell
              label={outcomeLabels.publish}
              color={noReader ? 'warning' : badgeColor.publish}
              message={[correction, noReader ? `${publishingMessages.noReader}.` : ''].filter(Boolean).join(' · ')}
            />
          ) : (
            <OutcomeCell
              label={outcomeLabels['already-published']}
              color={badgeColor['already-published']}
              message={existing ? `as "${existing.title}" (${existing.quarter} ${existing.year})` : ''}
            />
          );
        },
      }),
      propertyColumn.accessor('title', { header: 'Title', cell: (info) => <span className={bulk.filename}>{info.getValue()}</span> }),
      propertyColumn.accessor('property', { header: 'Property', cell: (info) => <span className={bulk.filename}>{info.getValue()}</span> }),
      propertyColumn.display({ id: 'period', header: 'Period', cell: ({ row }) => periodText(row.original), meta: { className: styles.nowrap } }),
      propertyColumn.accessor('filename', { header: 'File', cell: (info) => <span className={bulk.filename}>{info.getValue()}</span> }),
    ],
    [styles, bulk],
  );
  const table = useAdminTable({ data: documents, columns, getRowId: (d) => d.path });
  return (
    <div className={bulk.scroll}>
      <AdminTable table={table} label="Property documents" empty="No property documents." />
    </div>
  );
}

/**
 * The dry run's verdict before anything is sent: counts per outcome, the
 * property documents of a quarter folder (Title, Property, Period, outcome), each manifest's rows
 * (Investor, Title, Period, outcome) with the encoding it was read in, the files not sent with
 * their reasons, and Confirm, offered only when at least one document would be published.
 */
export const BulkPreview = forwardRef<HTMLHeadingElement, BulkPreviewProps>(function BulkPreview({ run, sending, onConfirm, onCancel }, headingRef) {
  const styles = useAdminStyles();
  const bulk = useBulkStyles();
  // Confirm may open the e-mail confirmation: Escape or Cancel there brings the focus back here.
  const restoreFocusTarget = useRestoreFocusTarget();

  const counts = useMemo(() => {
    const totals = new Map<ManifestOutcome, number>();
    const add = (outcome: ManifestOutcome, n: number) => totals.set(outcome, (totals.get(outcome) ?? 0) + n);
    for (const d of run.propertyDocuments) add(d.outcome, 1);
    for (const m of run.manifests) for (const outcome of outcomeOrder) add(outcome, m.plan.counts[outcome]);
    return outcomeOrder.flatMap((outcome) => ((totals.get(outcome) ?? 0) > 0 ? [{ outcome, label: outcomeLabels[outcome], count: totals.get(outcome) ?? 0 }] : []));
  }, [run]);
  const corrections = run.manifests.reduce((n, m) => n + m.plan.corrections, 0);
  // A file the browser refused is listed once, among those not sent, not again as unprocessed.
  const unprocessed = run.manifests.flatMap((m) => m.plan.unprocessed.filter((name) => !m.refused.some((r) => r.name === name)));
  const publishing = run.publishing;
  // Files of an investors folder without its manifest: say what is missing, not only that nothing can go.
  const needsManifest = run.notSent.some((file) => file.reason === folderPlanMessages.noManifest);
  const several = run.manifests.length > 1;

  return (
    <section className={bulk.panel} aria-labelledby="bulk-preview-title">
      <h4 id="bulk-preview-title" ref={headingRef} tabIndex={-1} className={styles.sectionTitle}>
        Upload Preview
      </h4>
      {run.layout === 'quarter' && (
        <p className={bulk.or}>
          {`Quarter folder ${run.folderName ?? ''}: its property documents and its investors' documents are published together, with one e-mail per reader.`}
        </p>
      )}
      <ul className={bulk.counts} aria-label="Rows per outcome">
        {counts.map(({ outcome, label, count }) => (
          <li key={outcome}>
            <Badge appearance="tint" color={badgeColor[outcome]}>
              {`${label}: ${count}`}
            </Badge>
          </li>
        ))}
        {corrections > 0 && (
          <li>
            <Badge appearance="tint" color="warning">{`Corrections of published documents: ${corrections}`}</Badge>
          </li>
        )}
        {run.notSent.length > 0 && (
          <li>
            <Badge appearance="tint" color="danger">{`Not sent: ${run.notSent.length}`}</Badge>
          </li>
        )}
        <li>
          <Badge appearance="tint" color="subtle">{`Unprocessed files: ${unprocessed.length}`}</Badge>
        </li>
      </ul>
      {run.propertyDocuments.length > 0 && (
        <section className={bulk.part} aria-labelledby="bulk-preview-property-title">
          <h5 id="bulk-preview-property-title" className={bulk.partTitle}>
            {`Property documents (${run.propertyDocuments.length})`}
          </h5>
          <PropertyTable documents={run.propertyDocuments} />
        </section>
      )}
      {run.manifests.map((m, index) => (
        <section key={m.path} className={bulk.part} aria-labelledby={`bulk-preview-manifest-${index}`}>
          <h5 id={`bulk-preview-manifest-${index}`} className={bulk.partTitle}>
            {`Investors' documents: ${m.path} (${m.plan.rows.length} ${m.plan.rows.length === 1 ? 'row' : 'rows'})`}
          </h5>
          <p className={bulk.or}>
            {`Read as ${csvEncodingLabels[m.encoding]}. ${
              m.period
                ? `Rows without a document_date are filed under ${periodText(m.period)}${run.layout === 'quarter' ? ', the folder’s quarter' : ''}.`
                : 'Rows without a document_date are filed under the quarter of the upload date.'
            }`}
          </p>
          <ManifestTable manifest={m} label={several ? `Upload preview of ${m.path}` : 'Upload preview'} />
        </section>
      ))}
      {unprocessed.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Unprocessed files (${unprocessed.length}): selected, but named by no row; they are not published`}</p>
          <ul className={bulk.list} aria-label="Unprocessed files">
            {unprocessed.map((name, index) => (
              <li key={`${index}-${name}`}>{name}</li>
            ))}
          </ul>
        </div>
      )}
      {run.notSent.length > 0 && (
        <div>
          <p className={bulk.listTitle}>{`Not sent (${run.notSent.length})`}</p>
          <ul className={bulk.list} aria-label="Not sent">
            {run.notSent.map((file) => (
              <li key={file.path}>{`${file.path}: ${file.reason}`}</li>
            ))}
          </ul>
        </div>
      )}
      <p role="status" className={publishing === 0 ? styles.alert : undefined}>
        {publishing > 0 ? (
          `${publishing} ${publishing === 1 ? 'document' : 'documents'} will be published. Nothing is sent until you confirm.`
        ) : needsManifest ? (
          <>
            {`Nothing would be published: ${bulkPreviewTexts.needsManifest} `}
            <Link href="/instructions" target="_blank" rel="noopener" aria-label="How to write a manifest (opens in a new tab)">
              How to write a manifest
            </Link>
          </>
        ) : (
          'Nothing new would be published: no row can be published as it stands.'
        )}
      </p>
      <div className={styles.buttons}>
        <Button {...restoreFocusTarget} appearance="primary" disabled={publishing === 0} disabledFocusable={sending} onClick={onConfirm}>
          {sending ? 'Uploading...' : `Confirm & Upload ${publishing} ${publishing === 1 ? 'Document' : 'Documents'}`}
        </Button>
        <Button disabledFocusable={sending} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
});
