import { toastDurationMs, toastHotkey, toastLimit, toastSwipeThresholdPx } from '@everest/core/domain';

// Spec section 9: at most one toast at a time, 5000 ms by default, swipe right 50 px to dismiss,
// F8 focuses the toast region. Read by the toaster's lazy chunk only.
export const toastSettings = {
  limit: toastLimit,
  timeoutMs: toastDurationMs,
  swipeThresholdPx: toastSwipeThresholdPx,
} as const;

export function isToastFocusShortcut(event: KeyboardEvent): boolean {
  return event.key === toastHotkey && !event.altKey && !event.ctrlKey && !event.metaKey;
}
