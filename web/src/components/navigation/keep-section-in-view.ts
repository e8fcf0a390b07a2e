import { readerInput, scrollDestination, scrollToElement } from '../../lib/scroll';

// How long after the last change a section is held in place: long enough for the home page's
// later chunks on a slow phone (under load one came over 3 s after the one before it, and the
// section was left below the fold); the reader's own scroll ends the hold at once.
const settleMs = 10_000;

// How often the hold checks that the window is where the scroll was aimed, and how many aims in a
// row may fail to bring it there before the hold stops trying until the page changes again (a
// destination the window cannot reach must not be aimed at forever).
const arrivalCheckMs = 300;
const maxFruitlessAims = 3;

/**
 * Holds a section where a section scroll aimed it while the page settles. The home page's
 * section bodies, its carousel and its map arrive in lazy chunks: one that lands above the
 * target moves it, and one that lands below it can make the page long enough to go further than
 * the scroll could when it started (it stopped at the page's end). Either changes the scroll's
 * destination, and the scroll is aimed again. `aimed` is where the first scroll was aimed: this
 * module loads on its own, and the page may have changed meanwhile. Ends after a quiet spell or
 * on the reader's first own scroll; returns a stop function.
 *
 * A smooth scroll can also end short of a destination that did not move: the browser drops it
 * when something else scrolls the window (under load it was seen not to move at all, the page
 * left at its top with the section focused). So the hold also checks, while it lasts,
 * that the window came to rest at the destination, and aims again when it did not.
 */
export function keepSectionInView(id: string, aimed: number): () => void {
  const initial = document.getElementById(id);
  const content = initial?.closest('main') ?? initial?.parentElement;
  if (!initial || !content || typeof ResizeObserver === 'undefined') return () => {};
  // The section by its id each time: a render that made it anew must not leave the hold aiming
  // at a detached element.
  const target = () => {
    const current = document.getElementById(id);
    return current?.isConnected ? current : null;
  };

  let timer = window.setTimeout(stop, settleMs);
  let lastY = window.scrollY;
  let fruitlessAims = 0;
  const aim = (element: Element) => {
    lastY = window.scrollY;
    scrollToElement(element);
  };
  const aimAgainIfMoved = () => {
    const element = target();
    if (!element) return;
    const destination = scrollDestination(element);
    if (Math.abs(destination - aimed) < 1) return;
    aimed = destination;
    fruitlessAims = 0;
    aim(element);
    window.clearTimeout(timer);
    timer = window.setTimeout(stop, settleMs);
  };
  // The window at rest (it did not move since the last check) away from the destination: aim
  // again. A scroll under way moves the window between two checks and is left alone.
  const aimAgainIfStopped = () => {
    const element = target();
    const y = window.scrollY;
    const moving = Math.abs(y - lastY) >= 1;
    lastY = y;
    if (!element || moving || fruitlessAims >= maxFruitlessAims) return;
    const destination = scrollDestination(element);
    if (Math.abs(destination - y) < 1) {
      fruitlessAims = 0;
      return;
    }
    aimed = destination;
    fruitlessAims += 1;
    aim(element);
  };
  const arrivalCheck = window.setInterval(aimAgainIfStopped, arrivalCheckMs);
  const observer = new ResizeObserver(aimAgainIfMoved);
  // The content (what moves the section) and the whole page (what lets the scroll go further).
  observer.observe(content);
  observer.observe(document.documentElement);
  for (const type of readerInput) window.addEventListener(type, stop, { passive: true, capture: true });
  aimAgainIfMoved();

  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    window.clearInterval(arrivalCheck);
    for (const type of readerInput) window.removeEventListener(type, stop, { capture: true });
  }
  return stop;
}
