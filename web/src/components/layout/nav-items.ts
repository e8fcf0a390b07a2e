import { normalizePath } from '../../lib/paths';
import type { HomeSectionId } from '../../lib/scroll';
import type { NavTarget } from '../navigation/nav-target';

export interface NavItem {
  label: string;
  target: NavTarget;
}

export type NavGroupId = 'home' | 'about' | 'portfolio' | 'investor';

export interface NavMenu {
  group: NavGroupId;
  label: string;
  items: readonly NavItem[];
}

export const pageItem = (label: string, to: string): NavItem => ({ label, target: { kind: 'page', to } });
export const sectionItem = (label: string, id: HomeSectionId): NavItem => ({
  label,
  target: { kind: 'section', section: id },
});

export const homeItem = sectionItem('Home', 'home');
export const investorServicesItem = pageItem('Investor Services', '/investor-services');
export const contactItem = sectionItem('Contact', 'contact');

export const aboutMenu: NavMenu = {
  group: 'about',
  label: 'About',
  items: [
    sectionItem('About Us', 'about'),
    pageItem('Management Team', '/management-team'),
    pageItem('Significant Transactions', '/significant-transactions'),
    pageItem('Competitive Advantage', '/competitive-advantage'),
  ],
};

export const portfolioMenu: NavMenu = {
  group: 'portfolio',
  label: 'Portfolio',
  items: [
    sectionItem('Portfolio Overview', 'portfolio'),
    pageItem('All Properties', '/properties'),
    pageItem('Property Map', '/property-map'),
    pageItem('Residential', '/properties?filter=residential'),
    pageItem('Self Storage', '/properties?filter=self-storage'),
  ],
};

const groupPaths: Record<NavGroupId, readonly string[]> = {
  home: ['/'],
  about: ['/management-team', '/significant-transactions', '/competitive-advantage'],
  portfolio: ['/properties', '/portfolio', '/property-map'],
  investor: ['/investor-services', '/instructions', '/bulk-user-import-instructions'],
};

/** The navigation group the current route belongs to, or null (the 404 page belongs to none). */
export function navGroupFor(pathname: string): NavGroupId | null {
  const path = normalizePath(pathname);
  for (const [group, paths] of Object.entries(groupPaths) as [NavGroupId, readonly string[]][]) {
    if (paths.includes(path)) return group;
  }
  return null;
}

const propertyFilters = ['all', 'residential', 'self-storage', 'retail'] as const;

// /portfolio is the same page as /properties; a missing or unknown filter means 'all', as
// the properties page reads it.
function pageKey(pathname: string, search: string): string {
  const path = normalizePath(pathname);
  if (path !== '/properties' && path !== '/portfolio') return path;
  const filter = new URLSearchParams(search).get('filter') ?? 'all';
  const known = propertyFilters.find((f) => f === filter) ?? 'all';
  return `/properties?filter=${known}`;
}

/** Whether a navigation item points at the page now shown (it then carries aria-current="page"). */
export function isCurrentItem(
  target: NavTarget,
  location: { pathname: string; search: string },
): boolean {
  if (target.kind === 'section') {
    return target.section === 'home' && normalizePath(location.pathname) === '/';
  }
  const url = new URL(target.to, 'http://localhost');
  return pageKey(url.pathname, url.search) === pageKey(location.pathname, location.search);
}
