import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publicMessages } from '@everest/core/domain';
import { disableWebAnimations, renderApp, setViewport } from '../../testing/render-app';

beforeAll(disableWebAnimations);
afterEach(() => {
  cleanup();
  setViewport(1280);
});

const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }));
const groupButton = (name: string) => mainNav().getByRole('button', { name });
const navLink = (name: string) => mainNav().getByRole('link', { name });

describe('navigation bar', () => {
  it('highlights the About group on an About page and marks no other', () => {
    renderApp('/management-team');
    expect(groupButton('About').dataset.active).toBe('true');
    expect(groupButton('Portfolio').dataset.active).toBeUndefined();
    expect(navLink('Home').getAttribute('aria-current')).toBeNull();
  });

  it('highlights the Portfolio group on /portfolio, the same page as /properties', () => {
    renderApp('/portfolio');
    expect(groupButton('Portfolio').dataset.active).toBe('true');
  });

  it('marks Investor Services as the current page on /investor-services', () => {
    renderApp('/investor-services');
    expect(navLink('Investor Services').getAttribute('aria-current')).toBe('page');
  });

  it('marks Home on the home page', () => {
    renderApp('/');
    expect(navLink('Home').getAttribute('aria-current')).toBe('page');
    expect(navLink('Contact').getAttribute('aria-current')).toBeNull();
  });

  it('highlights nothing on the 404 page', () => {
    renderApp('/no-such-page');
    expect(groupButton('About').dataset.active).toBeUndefined();
    expect(groupButton('Portfolio').dataset.active).toBeUndefined();
    expect(navLink('Investor Services').getAttribute('aria-current')).toBeNull();
    screen.getByRole('heading', { level: 1, name: publicMessages.pageNotFound });
  });

  it('opens the Portfolio menu with the filtered item marked as current', async () => {
    renderApp('/properties?filter=residential');
    fireEvent.click(groupButton('Portfolio'));
    // The open menu is a small lazy chunk.
    const residential = await screen.findByRole('menuitem', { name: 'Residential' }, { timeout: 5000 });
    expect(residential.getAttribute('aria-current')).toBe('page');
    expect(residential.getAttribute('href')).toBe('/properties?filter=residential');
    const all = screen.getByRole('menuitem', { name: 'All Properties' });
    expect(all.getAttribute('aria-current')).toBeNull();
  });

  it('navigates from a menu item, closes the menu and moves the highlight', async () => {
    const { router } = renderApp('/');
    fireEvent.click(groupButton('About'));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Management Team' }, { timeout: 5000 }));
    await waitFor(() => expect(router.location.pathname).toBe('/management-team'));
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(groupButton('About').dataset.active).toBe('true');
  });

  it('opens a menu from the keyboard, moves with the arrows and closes on Escape', async () => {
    renderApp('/');
    const about = groupButton('About');
    about.focus();
    fireEvent.keyDown(about, { key: 'ArrowDown' });
    const first = await screen.findByRole('menuitem', { name: 'About Us' }, { timeout: 5000 });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(about.getAttribute('aria-expanded')).toBe('true');

    fireEvent.keyDown(first, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Competitive Advantage' }));
    fireEvent.keyDown(document.activeElement ?? first, { key: 'Home' });
    expect(document.activeElement).toBe(first);

    fireEvent.keyDown(first, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(about);
    expect(about.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens the slide-out panel from the menu button and closes it on a page link', async () => {
    setViewport(375);
    const { router } = renderApp('/');
    fireEvent.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    // The panel is a lazy chunk, queued here behind the home page's own lazy sections.
    const panel = await screen.findByRole('dialog', { name: 'Site navigation' }, { timeout: 5000 });
    const mobile = within(within(panel).getByRole('navigation', { name: 'Mobile' }));
    expect(mobile.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    await act(async () => {
      fireEvent.click(mobile.getByRole('link', { name: 'Property Map' }));
    });
    await waitFor(() => expect(router.location.pathname).toBe('/property-map'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Site navigation' })).toBeNull());
  });
});
