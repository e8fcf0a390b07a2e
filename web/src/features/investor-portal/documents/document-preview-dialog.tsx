import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import type { InvestorDocument } from '@everest/core/contract';
import { previewAddressQueryOptions, useOpenDocument } from './documents-query';

const useStyles = makeStyles({
  surface: {
    width: '100vw',
    maxWidth: '100vw',
    height: '100dvh',
    maxHeight: '100dvh',
    borderRadius: 0,
    padding: tokens.spacingHorizontalL,
  },
  body: { height: '100%', display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM },
  header: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  title: { flex: '1 1 16rem', minWidth: 0, overflowWrap: 'anywhere' },
  actions: { flexDirection: 'row', justifySelf: 'auto' },
  content: { display: 'flex', flexGrow: 1, minHeight: 0 },
  frame: { flexGrow: 1, width: '100%', border: `1px solid ${tokens.colorNeutralStroke1}`, minHeight: '60vh' },
});

export interface DocumentPreviewDialogProps {
  document: InvestorDocument | null;
  onClose: () => void;
  /** The investor whose share the document is read through. */
  onBehalfOf?: number;
}

/**
 * The full-screen preview: the file in an embedded frame, with Download and Close.
 *
 * The buttons sit above the frame, first in the tab order: the dialog focuses its first
 * focusable element, and focus inside the frame belongs to the PDF viewer, where Escape does
 * not reach the dialog. Focus returns to the row's button on close (`useRestoreFocusTarget`
 * on that button, in `document-item.tsx`).
 */
export function DocumentPreviewDialog({ document, onClose, onBehalfOf }: DocumentPreviewDialogProps) {
  const styles = useStyles();
  const openDocument = useOpenDocument(onBehalfOf);
  return (
    <Dialog open={document !== null} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface} aria-describedby={undefined}>
        {document && (
          <DialogBody className={styles.body}>
            <div className={styles.header}>
              <DialogTitle className={styles.title}>{document.title}</DialogTitle>
              <DialogActions className={styles.actions}>
                <Button appearance="primary" onClick={() => openDocument.mutate(document)}>
                  Download
                </Button>
                <Button onClick={onClose}>Close</Button>
              </DialogActions>
            </div>
            <DialogContent className={styles.content}>
              <PreviewFrame document={document} onBehalfOf={onBehalfOf} className={styles.frame} />
            </DialogContent>
          </DialogBody>
        )}
      </DialogSurface>
    </Dialog>
  );
}

/** The file in a frame, once its short-lived address has come. */
function PreviewFrame({ document, onBehalfOf, className }: { document: InvestorDocument; onBehalfOf?: number; className: string }) {
  const address = useQuery(previewAddressQueryOptions(document, onBehalfOf));
  if (address.data) return <iframe className={className} title={`Preview of ${document.title}`} src={address.data} />;
  if (address.isError) return <Text role="alert">The preview could not be opened. Please try again, or download the file.</Text>;
  return <Spinner label="Loading preview..." />;
}
