import { createContext, useContext } from 'react';
import { Badge, Button, type useRestoreFocusTarget } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import type { PropertyDocument } from '@everest/core/contract';
import { formatFileSize } from '@everest/core/domain';
import { CorrectedBadge } from '../../../components/admin/corrected-badge';
import { useAdminStyles } from '../../../components/admin/admin-styles';

/** The list's actions, for the rows' cells. */
export interface DocumentRowsContextValue {
  onEdit: (document: PropertyDocument) => void;
  onReplace: (document: PropertyDocument) => void;
  /** A corrected file for a document whose file exists. */
  onCorrect: (document: PropertyDocument) => void;
  onVersions: (document: PropertyDocument) => void;
  onDelete: (document: PropertyDocument) => void;
  /** The document whose file is being replaced, and how much of it is sent (0 to 1). */
  replacing: { id: number; progress: number } | null;
  /** Keeps each row's Edit button, so that the focus can return to it. */
  editButtonRef: (document: PropertyDocument) => (element: HTMLElement | null) => void;
  restoreFocusTarget: ReturnType<typeof useRestoreFocusTarget>;
}

export const DocumentRowsContext = createContext<DocumentRowsContextValue | null>(null);

function useRows(): DocumentRowsContextValue {
  const rows = useContext(DocumentRowsContext);
  if (!rows) throw new Error('The document columns are rendered outside DocumentRowsContext.');
  return rows;
}

function TitleCell({ document }: { document: PropertyDocument }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{document.title}</span>
      <CorrectedBadge document={document} />
      {!document.fileExists && (
        <span>
          <Badge appearance="filled" color="danger">
            File Missing
          </Badge>
        </span>
      )}
    </div>
  );
}

function FileCell({ document }: { document: PropertyDocument }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span className={styles.breakAnywhere}>{document.filename}</span>
      <span className={styles.muted}>{formatFileSize(document.fileSize)}</span>
    </div>
  );
}

const uploadedFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function DocumentActionsCell({ document }: { document: PropertyDocument }) {
  const styles = useAdminStyles();
  const rows = useRows();
  const replacing = rows.replacing?.id === document.id ? rows.replacing : null;
  return (
    <div className={styles.rowActions}>
      <Button size="small" ref={rows.editButtonRef(document)} aria-label={`Edit ${document.title}`} onClick={() => rows.onEdit(document)}>
        Edit
      </Button>
      {!document.fileExists && (
        <Button
          size="small"
          aria-label={`Replace File of ${document.title}`}
          disabledFocusable={rows.replacing !== null}
          onClick={() => rows.onReplace(document)}
        >
          {replacing ? `Replacing... ${Math.round(replacing.progress * 100)}%` : 'Replace File'}
        </Button>
      )}
      {document.fileExists && (
        <Button size="small" aria-label={`Correct ${document.title}`} {...rows.restoreFocusTarget} onClick={() => rows.onCorrect(document)}>
          Correct
        </Button>
      )}
      {document.version > 1 && (
        <Button size="small" aria-label={`Versions of ${document.title}`} {...rows.restoreFocusTarget} onClick={() => rows.onVersions(document)}>
          Versions
        </Button>
      )}
      <Button size="small" aria-label={`Delete ${document.title}`} {...rows.restoreFocusTarget} onClick={() => rows.onDelete(document)}>
        Delete
      </Button>
    </div>
  );
}

const column = createColumnHelper<PropertyDocument>();

/** Made once, like the user and property columns: a new cell function remounts its cells. */
export const documentColumns = [
  column.accessor('title', { header: 'Title', cell: ({ row }) => <TitleCell document={row.original} />, meta: { card: 'title' } }),
  column.accessor('property', { header: 'Property', cell: (info) => info.getValue() }),
  column.display({ id: 'period', header: 'Period', cell: ({ row }) => `${row.original.quarter} ${row.original.year}` }),
  column.accessor('filename', { header: 'File', cell: ({ row }) => <FileCell document={row.original} /> }),
  column.accessor('uploadedAt', { header: 'Uploaded', cell: (info) => uploadedFormat.format(new Date(info.getValue())) }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <DocumentActionsCell document={row.original} />, meta: { card: 'actions' } }),
];
