import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

/**
 * The site's router: where the reader is, and going elsewhere in the tab's history. Our own,
 * in place of React Router, whose declarative mode was 12.7 kB gzip of the home page's entry
 * chunk (the home page is held under 100 kB of JavaScript) for what the site uses of it: one
 * table of fixed paths (app/router.tsx), links, and the entry's key, state and navigation type
 * that the scroll manager keys on. The history state keeps React Router's shape ({ usr, key }), so that entries made by either
 * read the same.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What the navigation that made the entry carried (`NavigateOptions.state`), else null. */
  state: unknown;
  /** The history entry's identity: 'default' for the entry the app started on, if it has none. */
  key: string;
}

/** How the reader came to the current entry: back/forward or a page load (POP), a link, a replacement. */
export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

/** An address, whole ('/properties?filter=x'), relative ('?page=2'), or its parts (missing parts: the current pathname, nothing else). */
export type To = string | Partial<Pick<Location, 'pathname' | 'search' | 'hash'>>;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface NavigateFunction {
  (to: To, options?: NavigateOptions): void;
  /** Moves in the history, as the browser's back (-1) and forward (1) buttons do. */
  (delta: number): void;
}

/** A history the router renders: the browser's, a test's in memory, or the server's one address. */
interface History {
  current(): Location;
  navigate(path: string, options: { replace: boolean; state: unknown }): void;
  go(delta: number): void;
  /** Calls back after a change the history made itself (back and forward); returns the unsubscribe. */
  listen(onPop: () => void): () => void;
}

interface RouterState {
  location: Location;
  navigationType: NavigationType;
}

interface RouterContextValue extends RouterState {
  navigate: NavigateFunction;
  /** The history's latest entry, which a navigation of this event may have made before React renders it. */
  latest: () => Location;
}

const RouterContext = createContext<RouterContextValue | null>(null);

const createKey = () => Math.random().toString(36).slice(2, 10);

export function createPath({ pathname, search, hash }: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return pathname + search + hash;
}

/** `to` resolved against `from`, as a browser resolves a link's href. */
function resolve(to: To, from: Location): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const href = typeof to === 'string' ? to : createPath({ pathname: from.pathname, search: '', hash: '', ...to });
  const url = new URL(href, `http://site${createPath(from)}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

function parsePath(path: string, state: unknown, key: string): Location {
  return { ...resolve(path, { pathname: '/', search: '', hash: '', state: null, key }), state, key };
}

function browserHistory(): History {
  return {
    current() {
      const { pathname, search, hash } = window.location;
      const entry = window.history.state as { usr?: unknown; key?: unknown } | null;
      const key = typeof entry?.key === 'string' ? entry.key : 'default';
      return { pathname, search, hash, state: entry?.usr ?? null, key };
    },
    navigate(path, { replace, state }) {
      const entry = { usr: state, key: createKey() };
      if (replace) {
        window.history.replaceState(entry, '', path);
        return;
      }
      try {
        window.history.pushState(entry, '', path);
      } catch {
        // Safari refuses a pushState past 100 in 30 s (and a state it cannot clone): load the page.
        window.location.assign(path);
      }
    },
    go: (delta) => window.history.go(delta),
    listen(onPop) {
      window.addEventListener('popstate', onPop);
      return () => window.removeEventListener('popstate', onPop);
    },
  };
}

function memoryHistory(initialEntries: readonly string[]): History {
  const entries = initialEntries.map((path, index) => parsePath(path, null, index === 0 ? 'default' : createKey()));
  let index = entries.length - 1;
  const listeners = new Set<() => void>();
  return {
    current: () => entries[index]!,
    navigate(path, { replace, state }) {
      const location = parsePath(path, state, createKey());
      if (replace) entries[index] = location;
      else entries.splice(++index, entries.length, location);
    },
    go(delta) {
      const next = Math.min(Math.max(index + delta, 0), entries.length - 1);
      if (next === index) return;
      index = next;
      for (const listener of listeners) listener();
    },
    listen(onPop) {
      listeners.add(onPop);
      return () => listeners.delete(onPop);
    },
  };
}

function staticHistory(path: string): History {
  const location = parsePath(path, null, 'default');
  const refuse = () => {
    throw new Error('A page rendered on the server cannot navigate.');
  };
  return { current: () => location, navigate: refuse, go: refuse, listen: () => () => {} };
}

/**
 * Renders `children` at the history's current entry. A change of entry renders as a transition,
 * as React Router did: a page whose code is still arriving leaves the previous one on screen.
 */
function Router({ history, children }: { history: History; children: ReactNode }) {
  const [state, setState] = useState<RouterState>(() => ({ location: history.current(), navigationType: 'POP' }));
  const show = useCallback(
    (navigationType: NavigationType) => startTransition(() => setState({ location: history.current(), navigationType })),
    [history],
  );
  useLayoutEffect(() => history.listen(() => show('POP')), [history, show]);

  const navigate = useCallback<NavigateFunction>(
    (to: To | number, options: NavigateOptions = {}) => {
      if (typeof to === 'number') {
        history.go(to);
        return;
      }
      const replace = options.replace ?? false;
      history.navigate(createPath(resolve(to, history.current())), { replace, state: options.state ?? null });
      show(replace ? 'REPLACE' : 'PUSH');
    },
    [history, show],
  );
  const value = useMemo(() => ({ ...state, navigate, latest: () => history.current() }), [state, navigate, history]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** The app in a browser tab: the address bar's location, back and forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(browserHistory);
  return <Router history={history}>{children}</Router>;
}

/** A history of its own in memory, for tests: starts at the last of `initialEntries`. */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: readonly string[]; children: ReactNode }) {
  const [history] = useState(() => memoryHistory(initialEntries));
  return <Router history={history}>{children}</Router>;
}

/** The server's render of one address. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const history = useMemo(() => staticHistory(location), [location]);
  return <Router history={history}>{children}</Router>;
}

function useRouter(): RouterContextValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('A router hook is used outside a router.');
  return router;
}

export const useInRouterContext = () => useContext(RouterContext) !== null;
export const useLocation = () => useRouter().location;
export const useNavigationType = () => useRouter().navigationType;
export const useNavigate = () => useRouter().navigate;

export type SetSearchParams = (
  next: URLSearchParams | ((current: URLSearchParams) => URLSearchParams),
  options?: NavigateOptions,
) => void;

/** The address's query, and a navigation to another query of the same path. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { location, navigate, latest } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const setParams = useCallback<SetSearchParams>(
    (next, options) => {
      // An update function gets the latest query: two updates of one event both apply.
      const query = (typeof next === 'function' ? next(new URLSearchParams(latest().search)) : next).toString();
      navigate({ search: query ? `?${query}` : '' }, options);
    },
    [navigate, latest],
  );
  return [params, setParams];
}

/** A click that opens the link here: not a middle click, not with a key for a new tab or window. */
export function isPlainLeftClick(event: MouseEvent<HTMLElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
}

/**
 * A link's click: a plain left click on a link to this tab navigates in the app; any other (a
 * new tab, a download) is the browser's. A link to the address already shown replaces its
 * entry, so that clicking it again does not stack copies in the history.
 */
export function useLinkClickHandler<E extends HTMLElement = HTMLAnchorElement>(
  to: To,
  { state, target }: { state?: unknown; target?: string } = {},
): (event: MouseEvent<E>) => void {
  const { location, navigate } = useRouter();
  return (event) => {
    if (!isPlainLeftClick(event) || (target && target !== '_self')) return;
    event.preventDefault();
    const replace = createPath(location) === createPath(resolve(to, location));
    navigate(to, { replace, state });
  };
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  state?: unknown;
}

/** An anchor with a real href (a new tab works) whose plain click navigates in the app. */
export function Link({ to, state, onClick, target, ...rest }: LinkProps) {
  const { location } = useRouter();
  const handleClick = useLinkClickHandler(to, { state, target });
  return (
    <a
      {...rest}
      target={target}
      href={createPath(resolve(to, location))}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) handleClick(event);
      }}
    />
  );
}
