import { useEffect, useState } from 'react';
import type { PaginationState, Updater } from '@tanstack/react-table';
import { pageSize } from '@everest/core/domain';
import { useDebouncedValue } from './use-debounced-value';
import { useListAddress } from './list-address';

/** A list's query keys in the address: `{ page: 'userPage', search: 'userSearch' }`. */
export interface PagedListKeys {
  page: string;
  search: string;
}

function pageFrom(text: string | null): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * A searchable list paged by 10 with its page and search in the address (spec section 4: a new
 * search starts on page 1). The search box types freely (`draft`); the address follows once
 * typing pauses. Starting a search, or searching from another page, is a history entry (Back
 * returns to where the administrator was); refining it replaces that entry; a page change is an
 * entry; Back or Forward to another search shows it in the box.
 */
export function usePagedListAddress(keys: PagedListKeys) {
  const address = useListAddress();
  const page = pageFrom(address.get(keys.page));
  const search = address.get(keys.search) ?? '';

  const [draft, setDraft] = useState(search);
  const settled = useDebouncedValue(draft, 300);
  useEffect(() => {
    if (settled.trim() === search.trim()) return;
    address.update({ [keys.search]: settled.trim() === '' ? null : settled, [keys.page]: null }, { push: search === '' || page !== 1 });
    // Only a settled draft moves the address; the address moving (Back) is handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  const [shownSearch, setShownSearch] = useState(search);
  if (search !== shownSearch) {
    setShownSearch(search);
    if (search.trim() !== settled.trim()) setDraft(search);
  }

  const goToPage = (next: number, options = { push: true }) =>
    address.update({ [keys.page]: next === 1 ? null : String(next) }, options);
  return { page, search, draft, setDraft, goToPage };
}

/**
 * A page past the end (the last row of the last page deleted, an old link) becomes the last page,
 * once `known` says the count is the list's real one (not a placeholder while loading).
 */
export function useLastPageBound(list: { page: number; goToPage: (page: number, options: { push: boolean }) => void }, pageCount: number, known: boolean) {
  const { page, goToPage } = list;
  useEffect(() => {
    if (known && page > pageCount) goToPage(pageCount, { push: false });
    // goToPage is made anew each render; the address it writes is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [known, page, pageCount]);
}

/**
 * How many pages a list of `totalCount` rows has (at least one, for the empty list), with a page
 * past the end moved back to the last one (useLastPageBound).
 */
export function useListPageCount(
  list: { page: number; goToPage: (page: number, options: { push: boolean }) => void },
  totalCount: number,
  known: boolean,
): number {
  const pageCount = Math.max(1, Math.ceil(totalCount / pageSize));
  useLastPageBound(list, pageCount, known);
  return pageCount;
}

/**
 * A list table's page as the table sees it: its pagination state, and a change of it (the table
 * resetting its page) sent to `goToPage` with the page from 1, as the pager's buttons do.
 */
export function tablePagination(pagination: PaginationState, goToPage: (page: number) => void) {
  return {
    state: { pagination },
    onPaginationChange: (updater: Updater<PaginationState>) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      goToPage(next.pageIndex + 1);
    },
  };
}
