import { describe, expect, it } from 'vitest';
import {
  aboutMenu,
  contactItem,
  homeItem,
  investorServicesItem,
  isCurrentItem,
  navGroupFor,
  portfolioMenu,
} from './nav-items';

const at = (href: string) => {
  const url = new URL(href, 'http://localhost');
  return { pathname: url.pathname, search: url.search };
};
const itemTo = (menu: typeof aboutMenu, label: string) => {
  const item = menu.items.find((i) => i.label === label);
  if (!item) throw new Error(`no item ${label}`);
  return item.target;
};

describe('navGroupFor', () => {
  it.each([
    ['/', 'home'],
    ['/management-team', 'about'],
    ['/significant-transactions', 'about'],
    ['/competitive-advantage', 'about'],
    ['/properties', 'portfolio'],
    ['/portfolio', 'portfolio'],
    ['/property-map', 'portfolio'],
    ['/investor-services', 'investor'],
    ['/instructions', 'investor'],
    ['/bulk-user-import-instructions', 'investor'],
  ])('puts %s in the %s group', (path, group) => {
    expect(navGroupFor(path)).toBe(group);
  });

  it('ignores a trailing slash and letter case, as the router does', () => {
    expect(navGroupFor('/Properties/')).toBe('portfolio');
    expect(navGroupFor('/management-team//')).toBe('about');
  });

  it('highlights no group on an unknown path or a path below a page', () => {
    expect(navGroupFor('/nope')).toBeNull();
    expect(navGroupFor('/properties/12')).toBeNull();
    expect(navGroupFor('/about')).toBeNull();
  });
});

describe('isCurrentItem', () => {
  it('marks All Properties on /properties, /properties?filter=all and /portfolio', () => {
    const all = itemTo(portfolioMenu, 'All Properties');
    expect(isCurrentItem(all, at('/properties'))).toBe(true);
    expect(isCurrentItem(all, at('/properties?filter=all'))).toBe(true);
    expect(isCurrentItem(all, at('/portfolio'))).toBe(true);
    expect(isCurrentItem(all, at('/properties?filter=residential'))).toBe(false);
  });

  it('marks a filtered item only under its own filter', () => {
    const residential = itemTo(portfolioMenu, 'Residential');
    const storage = itemTo(portfolioMenu, 'Self Storage');
    expect(isCurrentItem(residential, at('/properties?filter=residential'))).toBe(true);
    expect(isCurrentItem(residential, at('/portfolio?filter=residential'))).toBe(true);
    expect(isCurrentItem(storage, at('/properties?filter=residential'))).toBe(false);
    expect(isCurrentItem(storage, at('/properties?filter=self-storage&x=1'))).toBe(true);
  });

  it('treats an unknown filter as all, as the properties page does', () => {
    expect(isCurrentItem(itemTo(portfolioMenu, 'All Properties'), at('/properties?filter=zzz'))).toBe(true);
  });

  it('marks the page links of the About menu', () => {
    expect(isCurrentItem(itemTo(aboutMenu, 'Management Team'), at('/management-team'))).toBe(true);
    expect(isCurrentItem(itemTo(aboutMenu, 'Management Team'), at('/competitive-advantage'))).toBe(false);
  });

  it('marks Home only on the home page and never the other section anchors', () => {
    expect(isCurrentItem(homeItem.target, at('/'))).toBe(true);
    expect(isCurrentItem(homeItem.target, at('/properties'))).toBe(false);
    expect(isCurrentItem(contactItem.target, at('/'))).toBe(false);
    expect(isCurrentItem(itemTo(aboutMenu, 'About Us'), at('/'))).toBe(false);
  });

  it('marks Investor Services on its page', () => {
    expect(isCurrentItem(investorServicesItem.target, at('/investor-services'))).toBe(true);
    expect(isCurrentItem(investorServicesItem.target, at('/instructions'))).toBe(false);
  });
});
