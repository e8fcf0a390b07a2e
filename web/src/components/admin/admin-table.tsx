import type { ReactNode } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type Column,
  type Row,
  type RowData,
  type TableOptions,
  type Table as TanStackTable,
} from '@tanstack/react-table';
import { useAdminStyles, whenCards } from './admin-styles';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the augmented interface must keep TanStack's parameters
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of the column's body cells. */
    className?: string;
    /**
     * The column's part of a row's card (below `cardsBelow`): 'title' heads the card in bold,
     * 'actions' ends it with its buttons, 'hidden' is left out of the card (a detail the editor
     * shows); any other column is a field labelled with its header.
     */
    card?: 'title' | 'actions' | 'hidden';
  }
}

/**
 * Below the panel's breakpoint the same table is drawn as a list of cards: each row a bordered
 * box, each cell a line with its column's name beside it. Only the layout changes, so the rows,
 * their buttons and their focus handling are the very same elements at every width, and a screen
 * reader still hears a table with its column headers (the header row is only hidden from the
 * eye; the labels drawn in the cards are generated content with an empty alternative instead).
 */
const useCardStyles = makeStyles({
  // A column's name on one line: 'Last sign-in' over an empty column was broken into three.
  headerCell: { whiteSpace: 'nowrap' },
  scroller: { [whenCards]: { overflowX: 'visible', border: 'none', borderRadius: 0 } },
  table: { [whenCards]: { display: 'block', minWidth: 0, width: '100%' } },
  header: {
    [whenCards]: {
      display: 'block',
      position: 'absolute',
      width: '1px',
      height: '1px',
      overflow: 'hidden',
      clipPath: 'inset(50%)',
      whiteSpace: 'nowrap',
    },
  },
  body: { [whenCards]: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS } },
  row: {
    [whenCards]: {
      display: 'flex',
      flexDirection: 'column',
      rowGap: tokens.spacingVerticalXS,
      padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
      border: `1px solid ${tokens.colorNeutralStroke2}`,
      borderRadius: tokens.borderRadiusMedium,
    },
  },
  field: {
    [whenCards]: {
      display: 'grid',
      gridTemplateColumns: '6.5rem minmax(0, 1fr)',
      columnGap: tokens.spacingHorizontalS,
      alignItems: 'baseline',
      height: 'auto',
      padding: 0,
      overflowWrap: 'anywhere',
    },
  },
  // The title comes first whatever its column's place (a Properties row starts with its photo).
  title: { [whenCards]: { display: 'block', order: -1, height: 'auto', padding: 0, fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' } },
  actions: { [whenCards]: { display: 'block', order: 1, height: 'auto', padding: 0 } },
  hidden: { [whenCards]: { display: 'none' } },
  whole: { [whenCards]: { display: 'block', height: 'auto', padding: 0 } },
  // The field's label, drawn from the cell's data-label as generated content: not part of the
  // cell's text (a copy or a search of the row reads only its value), and with an empty
  // alternative (`/ ""`) so that the screen reader, which has the column headers, says it once.
  label: {
    [whenCards]: {
      '::before': {
        content: 'attr(data-label) / ""',
        display: 'block',
        color: tokens.colorNeutralForeground2,
        fontSize: tokens.fontSizeBase200,
      },
    },
  },
  // No box of its own in the table, so the cells lay out as they always did.
  content: { display: 'contents', [whenCards]: { display: 'block', minWidth: 0 } },
});

type CardStyles = ReturnType<typeof useCardStyles>;

function cardClass<T>(column: Column<T>, cards: CardStyles): string {
  switch (column.columnDef.meta?.card) {
    case 'title':
      return cards.title;
    case 'actions':
      return cards.actions;
    case 'hidden':
      return cards.hidden;
    default:
      return cards.field;
  }
}

export type AdminTableOptions<T> = Omit<TableOptions<T>, 'data' | 'getCoreRowModel'> & {
  /** The rows, or undefined while they load. */
  data: T[] | undefined;
};

const noRows: never[] = [];

/**
 * TanStack's table for AdminTable. Rows not loaded yet are one and the same empty list, and the
 * table never resets its state by itself (its paging is the server's, or held by the tab): a new
 * `[]` on each render made TanStack reset its page index after every render, and that reset
 * rendered again, without end while a list loaded. Under load the loop ran in one task and the
 * browser froze on the Read Receipts tab (a flaky test in CI, a frozen panel for staff).
 */
export function useAdminTable<T>({ data, ...options }: AdminTableOptions<T>): TanStackTable<T> {
  return useReactTable({ ...options, data: data ?? noRows, getCoreRowModel: getCoreRowModel(), autoResetAll: false });
}

export interface AdminTableProps<T> {
  table: TanStackTable<T>;
  /** The table's accessible name. */
  label: string;
  /** The row shown as its editor instead of its cells. */
  editingRowId?: string | null;
  renderEditor?: (row: Row<T>) => ReactNode;
  /** Shown in one cell across the table when there are no rows. */
  empty: ReactNode;
}

/**
 * Fluent's table parts drawn from TanStack's row model (STACK.md: Fluent's DataGrid keeps its
 * own state). A plain table, not a grid: Tab walks through the buttons and fields of each row
 * in reading order, which is what keyboard and screen-reader users expect of a form-like list;
 * arrow-key cell navigation (and so Fluent's focusMode) would only get in their way.
 * The scroller is focusable so that a keyboard can scroll it sideways between the breakpoint
 * and the width the table needs; below the breakpoint the rows are cards (useCardStyles).
 */
export function AdminTable<T>({ table, label, editingRowId, renderEditor, empty }: AdminTableProps<T>) {
  const styles = useAdminStyles();
  const cards = useCardStyles();
  const columnCount = table.getVisibleLeafColumns().length;
  const rows = table.getRowModel().rows;
  return (
    <div className={mergeClasses(styles.tableScroller, cards.scroller)} tabIndex={0} role="region" aria-label={`${label} list`}>
      <Table className={mergeClasses(styles.table, cards.table)} aria-label={label} size="small">
        <TableHeader className={cards.header}>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => (
                <TableHeaderCell key={header.id} scope="col" className={cards.headerCell}>
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </TableHeaderCell>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody className={cards.body}>
          {rows.length === 0 && (
            <TableRow className={cards.row}>
              <TableCell colSpan={columnCount} className={cards.whole}>
                {empty}
              </TableCell>
            </TableRow>
          )}
          {rows.map((row) =>
            row.id === editingRowId && renderEditor ? (
              <TableRow key={row.id} className={mergeClasses(styles.editorCell, cards.row)}>
                <TableCell colSpan={columnCount} className={cards.whole}>
                  {renderEditor(row)}
                </TableCell>
              </TableRow>
            ) : (
              <TableRow key={row.id} className={cards.row}>
                {row.getVisibleCells().map((cell) => {
                  const { header, meta } = cell.column.columnDef;
                  const labelled = meta?.card === undefined;
                  return (
                    <TableCell
                      key={cell.id}
                      className={mergeClasses(cardClass(cell.column, cards), labelled && cards.label, meta?.className)}
                      data-label={labelled ? (typeof header === 'string' ? header : cell.column.id) : undefined}
                    >
                      <div className={cards.content}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</div>
                    </TableCell>
                  );
                })}
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </div>
  );
}
