import { FluentProvider } from '@fluentui/react-components';
import { createColumnHelper } from '@tanstack/react-table';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { everestTheme } from '../../testing/themes';
import { AdminTable, useAdminTable } from './admin-table';

interface Row {
  id: number;
  title: string;
}

const column = createColumnHelper<Row>();
const columns = [column.accessor('title', { header: 'Title' })];

afterEach(cleanup);

/** A list as a tab draws it, counting its renders; far more than a handful means a loop. */
function renderList(data: () => Row[] | undefined) {
  const renders = { count: 0 };
  function List() {
    renders.count += 1;
    if (renders.count > 20) throw new Error('The list rendered more than 20 times: it renders itself again without end.');
    const table = useAdminTable({ data: data(), columns, getRowId: (row) => String(row.id) });
    return <AdminTable table={table} label="Documents" empty="Loading documents..." />;
  }
  const view = render(
    <FluentProvider theme={everestTheme}>
      <List />
    </FluentProvider>,
  );
  const rerender = () =>
    view.rerender(
      <FluentProvider theme={everestTheme}>
        <List />
      </FluentProvider>,
    );
  return { renders, rerender };
}

/** Lets every microtask and the React work it schedules run, a few rounds over. */
async function settle() {
  for (let i = 0; i < 5; i += 1) await act(() => Promise.resolve());
}

it('a list still loading renders again only when asked: no state of the table changes by itself', async () => {
  const { renders, rerender } = renderList(() => undefined);
  await settle();
  // Something else of the tab changes while the rows load (another query, a typed search).
  rerender();
  await settle();
  expect(screen.getByText('Loading documents...')).toBeTruthy();
  expect(renders.count).toBe(2);
});

it('new rows from the server render once, without a reset of the table behind them', async () => {
  const answer: { rows?: Row[] } = {};
  const { renders, rerender } = renderList(() => answer.rows);
  await settle();
  answer.rows = [{ id: 1, title: 'K-1 2025' }];
  rerender();
  await settle();
  expect(screen.getByRole('cell', { name: 'K-1 2025' })).toBeTruthy();
  expect(renders.count).toBe(2);
});
