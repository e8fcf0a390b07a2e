import { readerInput, scrollDestination, scrollToElement } from '../../lib/scroll';

// How long after the last change a section is held in place: long enough for the home page's
// later chunks on a slow phone (under load one came over 3 s after the one before it, and the
// section was left below the fold); the reader's own scroll ends the hold at once.
const settleMs = 10_000;

/**
 * Holds a section where a section scroll aimed it while the page settles. The home page's
 * section bodies, its carousel and its map arrive in lazy chunks: one that lands above the
 * target moves it, and one that lands below it can make the page long enough to go further than
 * the scroll could when it started (it stopped at the page's end). Either changes the scroll's
 * destination, and the scroll is aimed again. `aimed` is where the first scroll was aimed: this
 * module loads on its own, and the page may have changed meanwhile. Ends after a quiet spell or
 * on the reader's first own scroll; returns a stop function.
 */
export function keepSectionInView(id: string, aimed: number): () => void {
  const target = document.getElementById(id);
  const content = target?.closest('main') ?? target?.parentElement;
  if (!target || !content || typeof ResizeObserver === 'undefined') return () => {};

  let timer = window.setTimeout(stop, settleMs);
  const aimAgainIfMoved = () => {
    const destination = scrollDestination(target);
    if (Math.abs(destination - aimed) < 1) return;
    aimed = destination;
    scrollToElement(target);
    window.clearTimeout(timer);
    timer = window.setTimeout(stop, settleMs);
  };
  const observer = new ResizeObserver(aimAgainIfMoved);
  // The content (what moves the section) and the whole page (what lets the scroll go further).
  observer.observe(content);
  observer.observe(document.documentElement);
  for (const type of readerInput) window.addEventListener(type, stop, { passive: true, capture: true });
  aimAgainIfMoved();

  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of readerInput) window.removeEventListener(type, stop, { capture: true });
  }
  return stop;
}
