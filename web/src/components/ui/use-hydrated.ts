import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's render and in the browser's hydration of it, true from the render after:
 * for what only a browser can draw (a Leaflet map), which the HTML leaves to a placeholder.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
