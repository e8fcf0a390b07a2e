import { useEffect, type RefObject } from 'react';
import { useReaderEngaged } from '../../../components/ui/use-reader-engaged';
import { parallaxMedia } from '../utils/parallax-media';

/**
 * Parallax for the hero's picture. Its code is fetched once the reader starts to use the page
 * (a mouse moves long before the wheel turns): before any scroll there is nothing to move.
 */
export function useParallax(layer: RefObject<HTMLElement | null>) {
  const engaged = useReaderEngaged();
  useEffect(() => {
    const element = layer.current;
    // The same test as the effect's own: where it would never run, its code is not fetched.
    if (!engaged || !element || typeof window.matchMedia !== 'function' || !window.matchMedia(parallaxMedia).matches) {
      return;
    }
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('../utils/parallax').then(({ startParallax }) => {
      if (!cancelled) stop = startParallax(element);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [layer, engaged]);
}
