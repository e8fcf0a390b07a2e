// The one toaster of the app (mounted in the providers); spec section 9: at most one toast
// at a time, 5000 ms by default, F8 focuses the toast region.
export const toasterId = 'everest-toaster';
export const toastLimit = 1;
export const toastTimeoutMs = 5000;

export function isToastFocusShortcut(event: KeyboardEvent): boolean {
  return event.key === 'F8' && !event.altKey && !event.ctrlKey && !event.metaKey;
}
