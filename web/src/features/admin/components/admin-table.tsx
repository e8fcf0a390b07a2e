import type { ReactNode } from 'react';
import {
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  mergeClasses,
} from '@fluentui/react-components';
import { flexRender, type Row, type RowData, type Table as TanStackTable } from '@tanstack/react-table';
import { useAdminStyles } from './admin-styles';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the augmented interface must keep TanStack's parameters
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of the column's body cells. */
    className?: string;
  }
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
 * The scroller is focusable so that a keyboard can scroll it sideways on a phone.
 */
export function AdminTable<T>({ table, label, editingRowId, renderEditor, empty }: AdminTableProps<T>) {
  const styles = useAdminStyles();
  const columnCount = table.getVisibleLeafColumns().length;
  const rows = table.getRowModel().rows;
  return (
    <div className={styles.tableScroller} tabIndex={0} role="region" aria-label={`${label} list`}>
      <Table className={styles.table} aria-label={label} size="small">
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header) => (
                <TableHeaderCell key={header.id} scope="col">
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </TableHeaderCell>
              ))}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {rows.length === 0 && (
            <TableRow>
              <TableCell colSpan={columnCount}>{empty}</TableCell>
            </TableRow>
          )}
          {rows.map((row) =>
            row.id === editingRowId && renderEditor ? (
              <TableRow key={row.id} className={styles.editorCell}>
                <TableCell colSpan={columnCount}>{renderEditor(row)}</TableCell>
              </TableRow>
            ) : (
              <TableRow key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell key={cell.id} className={mergeClasses(cell.column.columnDef.meta?.className)}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </TableCell>
                ))}
              </TableRow>
            ),
          )}
        </TableBody>
      </Table>
    </div>
  );
}
