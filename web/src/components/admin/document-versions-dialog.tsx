import {
  Badge,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { DocumentVersionsParams } from '@everest/core/contract';
import { useMutation } from '@tanstack/react-query';
import { formatDateTime, formatFileSize, portalMessages } from '@everest/core/domain';
import { openVersion, useDocumentVersions } from '../../lib/admin/api/document-versions';
import { notifyFailure } from '../../lib/admin/notify';
import { useAdminStyles } from './admin-styles';

const useStyles = makeStyles({
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} 0`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 480px)': { flexDirection: 'column', alignItems: 'stretch' },
  },
  text: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXXS, flexGrow: 1, minWidth: 0 },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', fontWeight: tokens.fontWeightSemibold },
});

export interface VersionsTarget extends DocumentVersionsParams {
  title: string;
}

export interface DocumentVersionsDialogProps {
  /** The document whose history is shown; null closes the dialog. */
  target: VersionsTarget | null;
  onClose: () => void;
}

/**
 * A document's version history for administrators, newest first, each version with
 * when, by whom, why (the correction's note) and its own download; the current one is the one
 * investors read. Escape or Close close it; the focus returns to the row's Versions button.
 */
export function DocumentVersionsDialog({ target, onClose }: DocumentVersionsDialogProps) {
  const styles = useStyles();
  const admin = useAdminStyles();
  const versions = useDocumentVersions(target ? { documentType: target.documentType, documentId: target.documentId } : null);
  // A mutation, so that a 401 ends the session as any call's does.
  const download = useMutation({
    mutationFn: openVersion,
    onError: (error) => notifyFailure(portalMessages.documentOpenFailed, error),
  });
  return (
    <Dialog open={target !== null} modalType="modal" onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>{target ? `Versions of ${target.title}` : 'Versions'}</DialogTitle>
          <DialogContent>
            {versions.isPending && <Spinner size="tiny" label="Loading versions..." />}
            {versions.isError && (
              <p role="alert" className={admin.alert}>{`The versions could not be loaded: ${versions.error.message}`}</p>
            )}
            {versions.data && (
              <ol className={styles.list} aria-label="Versions, newest first">
                {versions.data.versions.map((version) => (
                  <li key={version.id} className={styles.item}>
                    <span className={styles.text}>
                      <span className={styles.heading}>
                        {`Version ${version.version}`}
                        {version.current && (
                          <Badge appearance="tint" color="success" size="small">
                            Current
                          </Badge>
                        )}
                        {!version.fileExists && (
                          <Badge appearance="filled" color="danger" size="small">
                            File Missing
                          </Badge>
                        )}
                      </span>
                      <span className={admin.breakAnywhere}>{`${version.filename} · ${formatFileSize(version.fileSize)}`}</span>
                      <span className={admin.muted}>
                        {`${version.version === 1 ? 'Published' : 'Corrected'} ${formatDateTime(version.uploadedAt)}${version.uploadedBy ? ` by ${version.uploadedBy}` : ''}`}
                      </span>
                      {version.note && <span>{`Why: ${version.note}`}</span>}
                    </span>
                    <Button
                      size="small"
                      onClick={() => download.mutate(version.id)}
                      disabled={!version.fileExists}
                      aria-label={`Download version ${version.version} of ${target?.title ?? 'the document'}`}
                    >
                      Download
                    </Button>
                  </li>
                ))}
              </ol>
            )}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
