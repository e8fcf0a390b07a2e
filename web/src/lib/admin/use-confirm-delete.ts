import { useState } from 'react';
import { notifyFailure, notifySuccess } from './notify';

export interface ConfirmDeleteOptions<T, A> {
  /** Sends the deletion; the hook passes the outcome's callbacks. */
  remove: (item: T, outcome: { onSuccess: (answer: A) => void; onError: (error: Error) => void }) => void;
  /** Whether the deletion is on its way (the dialog's button says so and Cancel waits). */
  pending: boolean;
  /** The success toast: its title and sentence. */
  deleted: (item: T, answer: A) => [title: string, message: string];
  /** The failure toast's title, and the sentence when the server sent none. */
  failure: string;
  failureFallback?: string;
  /** After the deletion: the row and its buttons are gone, so the caller moves the focus. */
  onDeleted: (item: T) => void;
}

/**
 * A list's delete flow: the row's Delete opens the confirmation for its item, Confirm sends the
 * deletion, and either outcome closes the dialog with its toast. The caller draws `ConfirmDialog`
 * with `dialog` and its own title and sentence.
 */
export function useConfirmDelete<T, A = unknown>(options: ConfirmDeleteOptions<T, A>) {
  const [deleting, setDeleting] = useState<T | null>(null);
  const confirm = () => {
    if (deleting === null) return;
    const item = deleting;
    options.remove(item, {
      onSuccess: (answer) => {
        notifySuccess(...options.deleted(item, answer));
        setDeleting(null);
        options.onDeleted(item);
      },
      onError: (error) => {
        setDeleting(null);
        notifyFailure(options.failure, error, options.failureFallback);
      },
    });
  };
  return {
    deleting,
    ask: (item: T) => setDeleting(item),
    dialog: { open: deleting !== null, pending: options.pending, onConfirm: confirm, onCancel: () => setDeleting(null) },
  };
}
