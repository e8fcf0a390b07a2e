/**
 * Moves the focus to a form's control by its name (the first invalid field after a refused
 * save), so that forms need no ref per field.
 */
export function focusField(form: HTMLFormElement | null, name: string): void {
  const control = form?.elements.namedItem(name);
  if (control instanceof HTMLElement) control.focus();
  else if (control instanceof RadioNodeList) (control[0] as HTMLElement | undefined)?.focus();
}

/** Focuses `element` if it is in the document; answers whether it did. */
export function focusOn(element: HTMLElement | null | undefined): boolean {
  if (!element?.isConnected) return false;
  element.focus();
  return true;
}

/** A focus move waiting for its element; it gives up after a second rather than jump later. */
export interface PendingFocus {
  run: () => boolean;
  until: number;
}

export function pendingFocus(run: () => boolean, waitMs = 1000): PendingFocus {
  return { run, until: Date.now() + waitMs };
}

/** Tries the pending move; answers whether it is settled (done, given up, or none). */
export function settlePendingFocus(pending: PendingFocus | null): boolean {
  return !pending || pending.run() || Date.now() > pending.until;
}
