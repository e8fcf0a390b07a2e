import { useEffect } from 'react';
import type { UseEmblaCarouselType } from 'embla-carousel-react';
import { nextCarouselInterval } from '../utils/carousel-interval';

type CarouselApi = NonNullable<UseEmblaCarouselType[1]>;

/**
 * Advances the carousel after a random 3-5 s (spec section 4), a new wait after every change of
 * slide, whoever made it. Nothing runs while `active` is false (hover, focus, reduced motion,
 * paused by the reader), and a drag holds the timer until the pointer lets go.
 */
export function useCarouselAutoplay(api: CarouselApi | undefined, active: boolean) {
  useEffect(() => {
    if (!api || !active) return;
    let timer: number | undefined;
    const hold = () => window.clearTimeout(timer);
    const schedule = () => {
      hold();
      timer = window.setTimeout(() => api.scrollNext(), nextCarouselInterval());
    };
    schedule();
    api.on('select', schedule);
    api.on('pointerDown', hold);
    api.on('pointerUp', schedule);
    return () => {
      hold();
      api.off('select', schedule);
      api.off('pointerDown', hold);
      api.off('pointerUp', schedule);
    };
  }, [api, active]);
}
