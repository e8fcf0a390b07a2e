import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from '../../lib/router';
import {
  scrollDelayMs,
  scrollIntentFor,
  scrollToSectionWhenReady,
  scrollToTop,
} from '../../lib/scroll';

// Scroll positions by history entry, so that back and forward return to where the reader was.
const savedPositions = new Map<string, number>();

export const mainContentId = 'main-content';

function focusMainContent() {
  document.getElementById(mainContentId)?.focus({ preventScroll: true });
}

/**
 * The app's scroll behaviour (spec: public site, navigation bar). A new page scrolls to the
 * top `scrollDelayMs` after navigation and moves focus to the main region, so that keyboard
 * and screen-reader users start on the new content; arriving at / for a section
 * smooth-scrolls to it after the same delay; back and forward restore the saved position.
 */
export function useScrollManagement() {
  const location = useLocation();
  const navigationType = useNavigationType();
  // The first entry is "initial" (a page load) only until the reader leaves it: coming back
  // to it is a back navigation like any other.
  const firstKey = useRef(location.key);
  const leftFirstEntry = useRef(false);

  useEffect(() => {
    if (!('scrollRestoration' in window.history)) return;
    const previous = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    return () => {
      window.history.scrollRestoration = previous;
    };
  }, []);

  // A layout effect, so that the listener moves to the new entry while React commits it: the
  // scroll the browser makes when the new, shorter page replaces the old one must not
  // overwrite the old entry's position.
  useLayoutEffect(() => {
    const key = location.key;
    const remember = () => savedPositions.set(key, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, [location.key]);

  useEffect(() => {
    if (location.key !== firstKey.current) leftFirstEntry.current = true;
    const saved = savedPositions.get(location.key);
    const intent = scrollIntentFor({
      hash: location.hash,
      state: location.state,
      navigationType,
      initial: !leftFirstEntry.current,
      hasSavedPosition: saved !== undefined,
    });
    switch (intent.kind) {
      case 'section': {
        let cancel = () => {};
        let release = () => {};
        let left = false;
        const timer = window.setTimeout(() => {
          // A small chunk: only section scrolls need it. Asked for now, used once the section
          // is there (on a page that renders late, that is after the section's own code).
          const keeper = import('../navigation/keep-section-in-view');
          cancel = scrollToSectionWhenReady(intent.id, (aimed) => {
            void keeper.then(({ keepSectionInView }) => {
              if (!left) release = keepSectionInView(intent.id, aimed);
            });
          });
        }, scrollDelayMs);
        return () => {
          left = true;
          window.clearTimeout(timer);
          cancel();
          release();
        };
      }
      case 'top': {
        const timer = window.setTimeout(() => {
          scrollToTop();
          focusMainContent();
        }, scrollDelayMs);
        return () => window.clearTimeout(timer);
      }
      case 'restore': {
        const frame = requestAnimationFrame(() => window.scrollTo(0, saved ?? 0));
        return () => cancelAnimationFrame(frame);
      }
      case 'none':
        return undefined;
    }
    // Only a new history entry (a new key) asks for a scroll; state and hash belong to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.key]);
}
