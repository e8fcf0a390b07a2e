import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { InvestorDocument } from '@everest/core/contract';
import { documentUrl } from './documents-query';

const useStyles = makeStyles({
  surface: {
    width: '100vw',
    maxWidth: '100vw',
    height: '100dvh',
    maxHeight: '100dvh',
    borderRadius: 0,
    padding: tokens.spacingHorizontalL,
  },
  body: { height: '100%', gridTemplateRows: 'auto 1fr auto' },
  content: { display: 'flex', minHeight: 0 },
  frame: { flexGrow: 1, width: '100%', border: `1px solid ${tokens.colorNeutralStroke1}`, minHeight: '60vh' },
});

export interface DocumentPreviewDialogProps {
  document: InvestorDocument | null;
  onClose: () => void;
}

/** The full-screen preview: the file in an embedded frame, with Download and Close. */
export function DocumentPreviewDialog({ document, onClose }: DocumentPreviewDialogProps) {
  const styles = useStyles();
  return (
    <Dialog open={document !== null} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface} aria-describedby={undefined}>
        {document && (
          <DialogBody className={styles.body}>
            <DialogTitle>{document.title}</DialogTitle>
            <DialogContent className={styles.content}>
              <iframe className={styles.frame} title={`Preview of ${document.title}`} src={documentUrl(document, 'preview')} />
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => window.open(documentUrl(document, 'download'), '_blank', 'noopener')}>
                Download
              </Button>
              <Button onClick={onClose}>Close</Button>
            </DialogActions>
          </DialogBody>
        )}
      </DialogSurface>
    </Dialog>
  );
}
