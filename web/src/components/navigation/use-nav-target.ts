import { useCallback, type MouseEvent } from 'react';
import { isPlainLeftClick, useLinkClickHandler, useLocation, useNavigate } from '../../lib/router';
import { isHomePath } from '../../lib/paths';
import { scrollToSection, type ScrollState } from '../../lib/scroll';
import type { NavTarget } from './nav-target';

/**
 * Goes to a section of the home page: on the home page it smooth-scrolls there at once; from
 * another route it navigates to / and the scroll manager scrolls once the delay has passed.
 */
function useGoToSection(): (id: string) => void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return useCallback(
    (id: string) => {
      const aimed = isHomePath(pathname) ? scrollToSection(id) : null;
      if (aimed !== null) {
        void import('./keep-section-in-view').then((m) => m.keepSectionInView(id, aimed));
        return;
      }
      const state: ScrollState = { section: id };
      void navigate('/', { state });
    },
    [navigate, pathname],
  );
}

export interface NavTargetProps {
  href: string;
  onClick: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/**
 * The href and click handler of a navigation target, to spread on any anchor (a plain <a>, a
 * Fluent Link or a MenuItemLink). Real hrefs keep "open in new tab" working; a plain click is
 * handled in the app. `onNavigate` runs on every plain click (the mobile panel closes with it).
 */
export function useNavTarget(target: NavTarget, onNavigate?: () => void): NavTargetProps {
  const goToSection = useGoToSection();
  const pageTo = target.kind === 'page' ? target.to : '/';
  const handlePageClick = useLinkClickHandler<HTMLAnchorElement>(pageTo);

  if (target.kind === 'page') {
    return {
      href: pageTo,
      onClick: (event) => {
        if (!event.defaultPrevented && isPlainLeftClick(event)) onNavigate?.();
        handlePageClick(event);
      },
    };
  }
  return {
    href: `/#${target.section}`,
    onClick: (event) => {
      if (event.defaultPrevented || !isPlainLeftClick(event)) return;
      event.preventDefault();
      onNavigate?.();
      goToSection(target.section);
    },
  };
}
