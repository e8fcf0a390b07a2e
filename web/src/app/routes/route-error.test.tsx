import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FluentProvider } from '@fluentui/react-components';
import { Link, MemoryRouter, useLocation } from '../../lib/router';
import { afterEach, expect, it, vi } from 'vitest';
import { everestTheme } from '../../testing/themes';
import { PageErrorBoundary } from './route-error';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Broken(): never {
  throw new Error('the page chunk is gone');
}

function Pages() {
  const { pathname } = useLocation();
  return (
    <>
      <nav aria-label="Main">
        <Link to="/fine">Working page</Link>
      </nav>
      <PageErrorBoundary>{pathname === '/broken' ? <Broken /> : <h1>A page that works</h1>}</PageErrorBoundary>
    </>
  );
}

it('shows the failure in place of a page that throws, keeps the navigation, and lets the next page render', () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <FluentProvider theme={everestTheme}>
      <MemoryRouter initialEntries={['/broken']}>
        <Pages />
      </MemoryRouter>
    </FluentProvider>,
  );

  expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeDefined();
  expect(screen.getByText('This page could not be shown. Reloading the page usually helps.')).toBeDefined();
  expect(screen.getByRole('button', { name: 'Reload page' })).toBeDefined();
  expect(screen.getByRole('navigation', { name: 'Main' })).toBeDefined();
  expect(logged.mock.calls.some((args) => args.some((arg) => arg instanceof Error && arg.message === 'the page chunk is gone'))).toBe(true);

  act(() => {
    fireEvent.click(screen.getByRole('link', { name: 'Working page' }));
  });
  expect(screen.getByRole('heading', { name: 'A page that works' })).toBeDefined();
  expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
});
