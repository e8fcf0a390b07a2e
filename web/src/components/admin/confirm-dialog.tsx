import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
} from '@fluentui/react-components';

// A label like 'Publish and Send E-mails' broke at its hyphen in a 1280 px window: the buttons
// keep their words on one line (on a phone they take the whole width, one under the other).
const useStyles = makeStyles({ action: { whiteSpace: 'nowrap' } });

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  /** Escape, Cancel or the backdrop; ignored while the action is on its way. */
  onCancel: () => void;
  /**
   * Once the dialog has finished closing (its exit animation over): from then on the focus may be
   * moved outside it, which its focus trap would undo before.
   */
  onClosed?: () => void;
}

/**
 * A destructive action's confirmation (spec: "Delete actions ask for confirmation"). An alert
 * dialog: the backdrop does not close it, Escape and Cancel do, and Cancel has the focus first
 * so that Enter never deletes by accident. Fluent returns the focus to the element that opened
 * it (marked with useRestoreFocusTarget), when that element still exists; the caller moves it
 * when it does not. The e-mail confirmations are the same dialog (email-confirm-dialog).
 */
export function ConfirmDialog({ open, title, children, confirmLabel, pendingLabel, pending, onConfirm, onCancel, onClosed }: ConfirmDialogProps) {
  const styles = useStyles();
  return (
    <Dialog
      modalType="alert"
      open={open}
      onOpenChange={(_, data) => !data.open && !pending && onCancel()}
      surfaceMotion={{ onMotionFinish: (_, { direction }) => direction === 'exit' && onClosed?.() }}
    >
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            <Button className={styles.action} onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button className={styles.action} appearance="primary" onClick={onConfirm} disabledFocusable={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
