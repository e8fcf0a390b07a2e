import { useSyncExternalStore } from 'react';

// The reader's first scroll, touch, key, press or mouse movement on the page: from then on,
// content further down (and what only matters once the page moves) is worth fetching ahead.
const signals = ['scroll', 'wheel', 'touchstart', 'keydown', 'pointerdown', 'pointermove'] as const;
let engaged = false;
const listeners = new Set<() => void>();

function onSignal() {
  engaged = true;
  for (const type of signals) window.removeEventListener(type, onSignal, { capture: true });
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  if (!engaged && listeners.size === 0) {
    for (const type of signals) window.addEventListener(type, onSignal, { capture: true, passive: true });
  }
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the reader has started to use the page (scrolled, touched, typed, clicked, moved the mouse). */
export function useReaderEngaged(): boolean {
  return useSyncExternalStore(subscribe, () => engaged, () => false);
}
