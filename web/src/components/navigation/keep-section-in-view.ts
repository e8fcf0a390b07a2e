import { prefersReducedMotion, readerInput } from '../../lib/scroll';

// How long after the last change above it a section is held in place: long enough for the home
// page's later chunks on a slow phone (under load one came over 3 s after the one before it, and
// the section was left below the fold); the reader's own scroll ends the hold at once.
const settleMs = 10_000;

/**
 * Holds a section where a section scroll put it while the content above it settles. The home
 * page's section bodies, its carousel and its map arrive in lazy chunks, and one that lands
 * above the target (or while the smooth scroll passes it) moves the target: the scroll is then
 * aimed again. Ends after a quiet spell or on the reader's first own scroll; returns a stop
 * function.
 */
export function keepSectionInView(id: string): () => void {
  const target = document.getElementById(id);
  const content = target?.closest('main') ?? target?.parentElement;
  if (!target || !content || typeof ResizeObserver === 'undefined') return () => {};

  const offset = () => target.getBoundingClientRect().top + window.scrollY;
  let last = offset();
  let timer = window.setTimeout(stop, settleMs);
  const observer = new ResizeObserver(() => {
    const now = offset();
    if (Math.abs(now - last) < 1) return;
    last = now;
    target.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    window.clearTimeout(timer);
    timer = window.setTimeout(stop, settleMs);
  });
  observer.observe(content);
  for (const type of readerInput) window.addEventListener(type, stop, { passive: true, capture: true });

  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of readerInput) window.removeEventListener(type, stop, { capture: true });
  }
  return stop;
}
