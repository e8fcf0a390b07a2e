import { Button } from '@fluentui/react-components';
import { pageSize as defaultPageSize } from '@everest/core/domain';
import { useAdminStyles } from './admin-styles';

export interface ListPagerProps {
  /** The navigation's name, as 'Users pages'. */
  label: string;
  /** What the line says of an empty list, as 'No users'. */
  none: string;
  totalCount: number;
  /** The page shown, from 1. */
  page: number;
  pageSize?: number;
  onPage: (page: number) => void;
}

/** Every list's pager: where the page sits in the list (announced), then Previous and Next. */
export function ListPager({ label, none, totalCount, page, pageSize = defaultPageSize, onPage }: ListPagerProps) {
  const styles = useAdminStyles();
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));
  const first = totalCount === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, totalCount);
  return (
    <nav className={styles.pager} aria-label={label}>
      <span aria-live="polite">
        {totalCount === 0 ? none : `Showing ${first}–${last} of ${totalCount} · Page ${page} of ${pageCount}`}
      </span>
      <div className={styles.buttons}>
        <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="small" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
