import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';

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
}

/**
 * A destructive action's confirmation (spec: "Delete actions ask for confirmation"). An alert
 * dialog: the backdrop does not close it, Escape and Cancel do, and Cancel has the focus first
 * so that Enter never deletes by accident. Fluent returns the focus to the element that
 * opened it, when that element still exists; the caller moves it when it does not.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, pendingLabel, pending, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog modalType="alert" open={open} onOpenChange={(_, data) => !data.open && !pending && onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{title}</DialogTitle>
          <DialogContent>{children}</DialogContent>
          <DialogActions>
            <Button onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button appearance="primary" onClick={onConfirm} disabledFocusable={pending}>
              {pending ? pendingLabel : confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
