import { useEffect, useState, type ComponentType } from 'react';

// The components of the chunks loaded so far: a part shown again renders at once.
const loaded = new Map<() => Promise<unknown>, unknown>();

export interface OnDemandProps<P extends object> {
  /** Loads the chunk and gives its component; the same function on every render (module scope). */
  load: () => Promise<ComponentType<P>>;
  props: P;
}

/**
 * A component of a chunk of its own, rendered once the chunk is in (nothing until then), for what
 * appears at a click: a menu, the slide-out panel, the toaster. Not React.lazy: a lazy component
 * suspends on its first render even when its chunk is already in, and React holds the reveal of
 * a Suspense boundary's content for 300 ms, so the About menu opened 0.3 s after the click
 * (measured), the contact form's first toast as late. A chunk that failed to load is asked for
 * again the next time the part is shown.
 */
export function OnDemand<P extends object>({ load, props }: OnDemandProps<P>) {
  const [Component, setComponent] = useState(() => loaded.get(load) as ComponentType<P> | undefined);
  useEffect(() => {
    if (Component) return;
    let live = true;
    load().then(
      (component) => {
        loaded.set(load, component);
        if (live) setComponent(() => component);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [Component, load]);
  // A chunk's export: the same component on every render.
  return Component ? <Component {...props} /> : null;
}
