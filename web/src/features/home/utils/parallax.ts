// The background moves at this fraction of the scroll speed, so it seems farther away.
const parallaxFactor = 0.35;

import { parallaxMedia } from './parallax-media';

/**
 * Moves the element down by a fraction of the page's scroll while its section is on screen,
 * following the reader's motion settings as they change. Returns the stop function.
 */
export function startParallax(element: HTMLElement): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(parallaxMedia);
  let frame = 0;

  const apply = () => {
    frame = 0;
    const section = element.parentElement;
    const limit = section ? section.offsetTop + section.offsetHeight : Infinity;
    // Past the hero there is nothing to move; stop at its bottom edge.
    const offset = Math.min(window.scrollY, limit) * parallaxFactor;
    element.style.transform = `translate3d(0, ${offset.toFixed(1)}px, 0)`;
  };
  const onScroll = () => {
    if (frame === 0) frame = requestAnimationFrame(apply);
  };
  const start = () => {
    window.addEventListener('scroll', onScroll, { passive: true });
    apply();
  };
  const stop = () => {
    window.removeEventListener('scroll', onScroll);
    cancelAnimationFrame(frame);
    frame = 0;
    element.style.transform = '';
  };
  const onMediaChange = () => (media.matches ? start() : stop());

  if (media.matches) start();
  media.addEventListener('change', onMediaChange);
  return () => {
    media.removeEventListener('change', onMediaChange);
    stop();
  };
}
