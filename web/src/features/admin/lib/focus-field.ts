/**
 * Moves the focus to a form's control by its name (the first invalid field after a refused
 * save), so that forms need no ref per field.
 */
export function focusField(form: HTMLFormElement | null, name: string): void {
  const control = form?.elements.namedItem(name);
  if (control instanceof HTMLElement) control.focus();
  else if (control instanceof RadioNodeList) (control[0] as HTMLElement | undefined)?.focus();
}
