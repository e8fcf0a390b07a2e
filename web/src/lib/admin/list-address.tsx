import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useInRouterContext, useSearchParams } from '../router';
import type { ScrollState } from '../scroll';

// A list's new page is not a new page of the site: the window stays where it is.
const keepScroll: ScrollState = { keepScroll: true };

/**
 * Where a list keeps its page and search: the address's query string in the browser, so that
 * Back returns to the previous page of a list; plain state in the desktop app, which has no
 * address bar (and no router).
 */
export interface ListAddress {
  get: (key: string) => string | null;
  /** Sets (string) or removes (null) keys; `push` makes a history entry, else the current one changes. */
  update: (changes: Record<string, string | null>, options: { push: boolean }) => void;
}

const ListAddressContext = createContext<ListAddress | null>(null);

function apply(params: URLSearchParams, changes: Record<string, string | null>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

function RouterListAddress({ children }: { children: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const update = useCallback<ListAddress['update']>(
    (changes, { push }) => setParams((current) => apply(current, changes), { replace: !push, state: keepScroll }),
    [setParams],
  );
  const value = useMemo<ListAddress>(() => ({ get: (key) => params.get(key), update }), [params, update]);
  return <ListAddressContext.Provider value={value}>{children}</ListAddressContext.Provider>;
}

function LocalListAddress({ children }: { children: ReactNode }) {
  const [params, setParams] = useState(() => new URLSearchParams());
  const update = useCallback<ListAddress['update']>((changes) => setParams((current) => apply(current, changes)), []);
  const value = useMemo<ListAddress>(() => ({ get: (key) => params.get(key), update }), [params, update]);
  return <ListAddressContext.Provider value={value}>{children}</ListAddressContext.Provider>;
}

export function ListAddressProvider({ children }: { children: ReactNode }) {
  return useInRouterContext() ? (
    <RouterListAddress>{children}</RouterListAddress>
  ) : (
    <LocalListAddress>{children}</LocalListAddress>
  );
}

export function useListAddress(): ListAddress {
  const address = useContext(ListAddressContext);
  if (!address) throw new Error('useListAddress is used outside ListAddressProvider.');
  return address;
}
