import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether the element has come within `margin` of the viewport (it stays true from then on).
 * Heavy parts of a long page (the carousel, the map, the contact form) mount when this turns
 * true, so that the page's first load does not fetch them. The change is a transition: React
 * renders what it reveals in slices that leave the main thread free for the reader's input.
 * False at first everywhere, the server's render included, so that hydration finds the markup
 * it renders.
 */
export function useNearViewport<T extends Element>(margin = '600px'): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          startTransition(() => setNear(true));
        }
      },
      { rootMargin: `${margin} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);

  return [ref, near];
}
