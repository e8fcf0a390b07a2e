import { FluentProvider } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { everestTheme } from '../../testing/themes';
import { AdminPanel } from '.';

// The Documents tab, open first, reads the documents and the properties: empty lists here, so
// that the test does not reach for a server.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(Response.json({ documents: [], properties: [] }))),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('shows the five tabs of the spec, then Read Receipts, Activity and System, documents first and selected', () => {
  render(
    <FluentProvider theme={everestTheme}>
      <AdminPanel />
    </FluentProvider>,
  );
  screen.getByRole('heading', { name: 'Administration Panel' });
  const names = ['Documents', 'Users', 'Properties', 'User Documents', 'Bulk Import', 'Read Receipts', 'Activity', 'System'];
  const tabs = screen.getAllByRole('tab');
  expect(tabs).toHaveLength(names.length);
  names.forEach((name, i) => expect(screen.getByRole('tab', { name })).toBe(tabs[i]));
  expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');

  fireEvent.click(screen.getByRole('tab', { name: 'Bulk Import' }));
  expect(screen.getByRole('tab', { name: 'Bulk Import' }).getAttribute('aria-selected')).toBe('true');
  expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('admin-tab-bulk-import');
});
