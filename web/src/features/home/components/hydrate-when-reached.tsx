import { use, useSyncExternalStore, type ReactNode } from 'react';

/**
 * How far ahead of the screen a section's code is fetched and its markup hydrated: about a phone
 * screen, so that a reader scrolling at a normal pace finds it working (its links, its counters)
 * by the time it shows.
 */
export const hydrationMargin = '800px';

/** What a reader does inside a section that is not yet hydrated: it is hydrated at once. */
const readerActions = ['pointerdown', 'focusin', 'keydown'] as const;

const reached = new Map<string, Promise<void>>();

/**
 * Settles once the element with this id has come within `hydrationMargin` of the viewport, or the
 * reader has pressed, focused or typed inside it; at once when there is no such element (nothing
 * to wait for) or no IntersectionObserver. One promise per id for the page's life: `use` needs
 * the same promise on every render, and a section once reached stays reached.
 */
function whenReached(id: string): Promise<void> {
  const known = reached.get(id);
  if (known) return known;
  const promise = new Promise<void>((resolve) => {
    const element = document.getElementById(id);
    if (!element || typeof IntersectionObserver === 'undefined') {
      resolve();
      return;
    }
    const settle = () => {
      observer.disconnect();
      for (const type of readerActions) element.removeEventListener(type, settle, { capture: true });
      resolve();
    };
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && settle(), {
      rootMargin: `${hydrationMargin} 0px`,
    });
    observer.observe(element);
    for (const type of readerActions) element.addEventListener(type, settle, { capture: true, passive: true });
  });
  reached.set(id, promise);
  return promise;
}

const subscribe = () => () => {};

/**
 * Keeps the server's markup of a section (element `id`) as it is, without its code, until a
 * reader comes near it: while React hydrates the page, this suspends, so that the browser neither
 * fetches the section's chunks nor runs its components at load (most of the home page
 * is below the fold). The markup stays on screen meanwhile, readable, findable and with working
 * links (plain hrefs). It must sit inside a Suspense boundary, whose dehydrated markup React
 * leaves alone until the promise settles.
 *
 * Only hydration waits: a page rendered in the browser (arriving at / from another page) renders
 * its sections at once, as before, since there is no markup to show meanwhile. The server never
 * waits (it has no document).
 */
export function HydrateWhenReached({ id, children }: { id: string; children: ReactNode }) {
  // The server snapshot is read by the server's render and by hydration only: hydration is the
  // one case with a document.
  const hydrating = useSyncExternalStore(
    subscribe,
    () => false,
    () => typeof document !== 'undefined',
  );
  if (hydrating) use(whenReached(id));
  return children;
}
