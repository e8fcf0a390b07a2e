// Mirrors the spec's "anchor and page scroll delay 100 ms" (public site, section 9): after a
// navigation the new page is given this long to render before the window scrolls.
export const scrollDelayMs = 100;

// How long a section scroll keeps looking for its target when the page renders late: the home
// page's code may still be arriving on a slow phone (under load its chunk took over 1.5 s here,
// and the scroll was dropped). The reader's own scrolling or typing ends the wait sooner.
const sectionLookupMs = 10_000;
/** What the reader does to scroll or type: it hands the page back to them at once. */
export const readerInput = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

export const homeSectionIds = ['home', 'about', 'portfolio', 'advantage', 'investor', 'contact'] as const;
export type HomeSectionId = (typeof homeSectionIds)[number];

// Carried in the history entry's state: which home section to scroll to after arriving at /,
// or that a navigation (a filter change, say) must leave the scroll position alone.
export interface ScrollState {
  section?: string;
  keepScroll?: boolean;
}

export type NavigationKind = 'POP' | 'PUSH' | 'REPLACE';

export type ScrollIntent =
  | { kind: 'section'; id: string }
  | { kind: 'top' }
  | { kind: 'restore' }
  | { kind: 'none' };

function readState(state: unknown): ScrollState {
  if (typeof state !== 'object' || state === null) return {};
  const { section, keepScroll } = state as Record<string, unknown>;
  return {
    ...(typeof section === 'string' && section !== '' ? { section } : {}),
    ...(keepScroll === true ? { keepScroll } : {}),
  };
}

function sectionFromHash(hash: string): string | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw === '') return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * What the window should do after the location changed. `initial` is the first location the
 * app renders (a page load or reload): it keeps the browser's position unless it names a
 * section. Back and forward return to where the reader was on that entry.
 */
export function scrollIntentFor(input: {
  hash: string;
  state: unknown;
  navigationType: NavigationKind;
  initial: boolean;
  hasSavedPosition: boolean;
}): ScrollIntent {
  if (!input.initial && input.navigationType === 'POP' && input.hasSavedPosition) {
    return { kind: 'restore' };
  }
  const state = readState(input.state);
  const section = state.section ?? sectionFromHash(input.hash);
  if (section) return { kind: 'section', id: section };
  if (input.initial || state.keepScroll) return { kind: 'none' };
  return { kind: 'top' };
}

export function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

function focusWithoutScrolling(element: HTMLElement) {
  if (element.hasAttribute('tabindex')) element.focus({ preventScroll: true });
}

/**
 * Where the window's scroll ends when it brings this element to the top: the page's end when
 * the page is too short to go that far. A section scroll is aimed at this place; when it
 * changes (content above the section arrived, or content below it made the page long enough),
 * the scroll must be aimed again.
 */
export function scrollDestination(element: Element): number {
  const margin = parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
  const wanted = element.getBoundingClientRect().top + window.scrollY - margin;
  const end = document.documentElement.scrollHeight - window.innerHeight;
  return Math.round(Math.max(0, Math.min(wanted, end)));
}

/** Scrolls to the element so its top sits at the window's top, smoothly unless the reader asks for less motion. */
export function scrollToElement(element: Element) {
  element.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
}

/**
 * Smooth-scrolls to the element with this id (instantly when the user asks for less motion).
 * Returns where the scroll was aimed (`scrollDestination`), or null when there is no such element.
 */
export function scrollToSection(id: string): number | null {
  const element = document.getElementById(id);
  if (!element) return null;
  const destination = scrollDestination(element);
  scrollToElement(element);
  focusWithoutScrolling(element);
  return destination;
}

/**
 * Scrolls to the section once it exists: right away if it is rendered, otherwise on the
 * following frames until it appears, `sectionLookupMs` has passed or the reader scrolls or types
 * on their own. Then `onScrolled` runs with where the scroll was aimed. Returns a cancel function.
 */
export function scrollToSectionWhenReady(
  id: string,
  onScrolled?: (destination: number) => void,
): () => void {
  let frame = 0;
  const deadline = performance.now() + sectionLookupMs;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of readerInput) window.removeEventListener(type, stop, { capture: true });
  };
  const attempt = () => {
    const destination = scrollToSection(id);
    if (destination !== null) {
      stop();
      onScrolled?.(destination);
    } else if (performance.now() > deadline) {
      stop();
    } else {
      frame = requestAnimationFrame(attempt);
    }
  };
  for (const type of readerInput) window.addEventListener(type, stop, { passive: true, capture: true });
  attempt();
  return stop;
}

export function scrollToTop() {
  window.scrollTo({ top: 0, left: 0, behavior: 'auto' });
}
