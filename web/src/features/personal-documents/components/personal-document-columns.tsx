import { createContext, useContext } from 'react';
import { Badge, Button, type useRestoreFocusTarget } from '@fluentui/react-components';
import { useMutation } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import type { PersonalDocument } from '@everest/core/contract';
import { documentCategoryLabels, formatFileSize, portalMessages } from '@everest/core/domain';
import { openPersonalDocument } from '../api/personal-document-download';
import { notifyFailure } from '../../../lib/admin/notify';
import { useAdminStyles } from '../../../components/admin/admin-styles';
import { CorrectedBadge } from '../../../components/admin/corrected-badge';

export interface PersonalDocumentRowsContextValue {
  onEdit: (document: PersonalDocument) => void;
  onDelete: (document: PersonalDocument) => void;
  /** A corrected file for a document whose file exists, and its version history. */
  onCorrect: (document: PersonalDocument) => void;
  onVersions: (document: PersonalDocument) => void;
  restoreFocusTarget: ReturnType<typeof useRestoreFocusTarget>;
}

export const PersonalDocumentRowsContext = createContext<PersonalDocumentRowsContextValue | null>(null);

function TitleCell({ document }: { document: PersonalDocument }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span>{document.title}</span>
      <CorrectedBadge document={document} />
      {document.tags && (
        <span className={styles.muted}>
          {document.tags
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean)
            .join(', ')}
        </span>
      )}
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

function FileCell({ document }: { document: PersonalDocument }) {
  const styles = useAdminStyles();
  return (
    <div className={styles.cellStack}>
      <span className={styles.breakAnywhere}>{document.filename}</span>
      <span className={styles.muted}>{formatFileSize(document.fileSize)}</span>
    </div>
  );
}

function PersonalDocumentActionsCell({ document }: { document: PersonalDocument }) {
  const styles = useAdminStyles();
  const rows = useContext(PersonalDocumentRowsContext);
  // A mutation, so that a 401 ends the session as any call's does (portal-session).
  const open = useMutation({
    mutationFn: openPersonalDocument,
    onError: (error) => notifyFailure(portalMessages.documentOpenFailed, error),
  });
  if (!rows) throw new Error('The user document columns are rendered outside PersonalDocumentRowsContext.');
  return (
    <div className={styles.rowActions}>
      <Button
        size="small"
        aria-label={`Download ${document.title}`}
        disabled={!document.fileExists}
        // A new window, as the portal does: the file answers as an attachment.
        onClick={() => open.mutate(document)}
      >
        Download
      </Button>
      <Button size="small" aria-label={`Edit ${document.title}`} {...rows.restoreFocusTarget} onClick={() => rows.onEdit(document)}>
        Edit
      </Button>
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

const column = createColumnHelper<PersonalDocument>();

/** Made once, like the other lists' columns: a new cell function remounts its cells. */
export const personalDocumentColumns = [
  column.accessor('title', { header: 'Title', cell: ({ row }) => <TitleCell document={row.original} />, meta: { card: 'title' } }),
  column.accessor('userEmail', {
    header: 'Investor',
    cell: (info) => <UserEmailCell email={info.getValue()} />,
  }),
  column.accessor('documentCategory', { header: 'Category', cell: (info) => documentCategoryLabels[info.getValue()] }),
  column.display({
    id: 'period',
    header: 'Date',
    cell: ({ row }) => <DateCell document={row.original} />,
  }),
  column.accessor('filename', { header: 'File', cell: ({ row }) => <FileCell document={row.original} /> }),
  column.display({ id: 'actions', header: 'Actions', cell: ({ row }) => <PersonalDocumentActionsCell document={row.original} />, meta: { card: 'actions' } }),
];

function UserEmailCell({ email }: { email: string }) {
  const styles = useAdminStyles();
  return <span className={styles.breakAnywhere}>{email}</span>;
}

/** The document's own date when it has one, else the quarter it is filed under; never wrapped. */
function DateCell({ document }: { document: PersonalDocument }) {
  const styles = useAdminStyles();
  return <span className={styles.nowrap}>{document.documentDate ?? `${document.quarter} ${document.year}`}</span>;
}
