import { useLayoutEffect, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, it } from 'vitest';
import {
  BrowserRouter,
  Link,
  MemoryRouter,
  StaticRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  useSearchParams,
  type Location,
  type NavigateFunction,
  type NavigationType,
} from './router';

afterEach(cleanup);

/** Clicks, and says whether the app took the click (else the browser would follow the link); the browser never does here. */
function clickTaken(element: HTMLElement, init: MouseEventInit = {}): boolean {
  let taken = false;
  const settle = (event: Event) => {
    taken = event.defaultPrevented;
    event.preventDefault();
  };
  document.addEventListener('click', settle, { once: true });
  fireEvent.click(element, init);
  return taken;
}

interface Seen {
  location: Location;
  type: NavigationType;
  navigate: NavigateFunction;
  setParams: ReturnType<typeof useSearchParams>[1];
}

/** Hands the router's view of things to `onRender` after every render. */
function Probe({ onRender }: { onRender: (seen: Seen) => void }) {
  const location = useLocation();
  const type = useNavigationType();
  const navigate = useNavigate();
  const [, setParams] = useSearchParams();
  useLayoutEffect(() => {
    onRender({ location, type, navigate, setParams });
  });
  return null;
}

/** What the last render of a Probe saw. */
function probe() {
  const seen = {} as Seen;
  const onRender = (latest: Seen) => void Object.assign(seen, latest);
  return { seen, onRender };
}

function renderAt(path: string, links: ReactNode = null) {
  const { seen, onRender } = probe();
  render(
    <MemoryRouter initialEntries={[path]}>
      <Probe onRender={onRender} />
      {links}
    </MemoryRouter>,
  );
  return seen;
}

it('starts on the entry "default", a POP, with no state', () => {
  const seen = renderAt('/properties?filter=retail#list');
  expect(seen.location).toEqual({ pathname: '/properties', search: '?filter=retail', hash: '#list', state: null, key: 'default' });
  expect(seen.type).toBe('POP');
});

it('a link click is a new entry with its own key and state; back returns to the entry before, as a POP', () => {
  const seen = renderAt('/', <Link to="/management-team" state={{ section: 'x' }}>Team</Link>);
  const link = screen.getByRole('link', { name: 'Team' });
  expect(link.getAttribute('href')).toBe('/management-team');

  expect(clickTaken(link)).toBe(true);
  expect(seen.location.pathname).toBe('/management-team');
  expect(seen.location.state).toEqual({ section: 'x' });
  expect(seen.location.key).not.toBe('default');
  expect(seen.type).toBe('PUSH');

  act(() => seen.navigate(-1));
  expect(seen.location.pathname).toBe('/');
  expect(seen.location.key).toBe('default');
  expect(seen.location.state).toBeNull();
  expect(seen.type).toBe('POP');

  act(() => seen.navigate(1));
  expect(seen.location.pathname).toBe('/management-team');
  expect(seen.location.state).toEqual({ section: 'x' });
});

it('a link to the address already shown replaces its entry instead of stacking a copy', () => {
  const seen = renderAt('/', <Link to="/properties">Properties</Link>);
  clickTaken(screen.getByRole('link', { name: 'Properties' }));
  const first = seen.location.key;
  clickTaken(screen.getByRole('link', { name: 'Properties' }));
  expect(seen.type).toBe('REPLACE');
  expect(seen.location.key).not.toBe(first);

  act(() => seen.navigate(-1));
  expect(seen.location.pathname).toBe('/');
});

it('leaves to the browser a click meant for another tab or window, and a link with a target', () => {
  const seen = renderAt(
    '/',
    <>
      <Link to="/properties">Properties</Link>
      <Link to="/property-map" target="_blank">Map</Link>
    </>,
  );
  for (const modifier of ['ctrlKey', 'metaKey', 'shiftKey', 'altKey'] as const) {
    expect(clickTaken(screen.getByRole('link', { name: 'Properties' }), { [modifier]: true })).toBe(false);
  }
  expect(clickTaken(screen.getByRole('link', { name: 'Properties' }), { button: 1 })).toBe(false);
  expect(clickTaken(screen.getByRole('link', { name: 'Map' }))).toBe(false);
  expect(clickTaken(screen.getByRole('link', { name: 'Properties' }))).toBe(true);
  expect(seen.location.pathname).toBe('/properties');
  act(() => seen.navigate(-1));
  expect(seen.location.key).toBe('default');
});

it('resolves partial and relative addresses against the current one', () => {
  const seen = renderAt('/investor-services?tab=documents#top');
  act(() => seen.navigate({ search: '?owner=7' }));
  expect(seen.location).toMatchObject({ pathname: '/investor-services', search: '?owner=7', hash: '' });
  act(() => seen.navigate('?owner=8'));
  expect(seen.location).toMatchObject({ pathname: '/investor-services', search: '?owner=8' });
  act(() => seen.navigate({ pathname: '/', hash: '#contact' }));
  expect(seen.location).toMatchObject({ pathname: '/', search: '', hash: '#contact' });
});

it('applies two query updates of one event on top of each other', () => {
  const seen = renderAt('/investor-services?page=3&q=smith');
  act(() => {
    seen.setParams((current) => {
      current.delete('page');
      return current;
    });
    seen.setParams((current) => {
      current.set('role', 'admin');
      return current;
    }, { replace: true });
  });
  expect(new URLSearchParams(seen.location.search).toString()).toBe('q=smith&role=admin');
  expect(seen.type).toBe('REPLACE');
});

it('keeps its entries in the browser history, with state and key, and follows back and forward', async () => {
  window.history.replaceState(null, '', '/');
  const { seen, onRender } = probe();
  render(
    <BrowserRouter>
      <Probe onRender={onRender} />
    </BrowserRouter>,
  );
  expect(seen.location).toMatchObject({ pathname: '/', key: 'default', state: null });

  act(() => seen.navigate('/properties?filter=retail', { state: { keepScroll: true } }));
  expect(window.location.pathname + window.location.search).toBe('/properties?filter=retail');
  expect(window.history.state).toEqual({ usr: { keepScroll: true }, key: seen.location.key });
  const key = seen.location.key;

  window.history.replaceState(null, '', '/');
  await act(async () => {
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  });
  expect(seen.location).toMatchObject({ pathname: '/', key: 'default' });
  expect(seen.type).toBe('POP');

  window.history.replaceState({ usr: { keepScroll: true }, key }, '', '/properties?filter=retail');
  await act(async () => {
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  });
  expect(seen.location).toMatchObject({ pathname: '/properties', key, state: { keepScroll: true } });
});

it('renders one address on the server, links included, and refuses to navigate there', () => {
  const html = renderToString(
    <StaticRouter location="/portfolio?filter=retail">
      <Link to={{ search: '' }}>All</Link>
    </StaticRouter>,
  );
  expect(html).toBe('<a href="/portfolio">All</a>');

  function NavigatesAtOnce() {
    useNavigate()('/properties');
    return null;
  }
  expect(() =>
    renderToString(
      <StaticRouter location="/">
        <NavigatesAtOnce />
      </StaticRouter>,
    ),
  ).toThrow('A page rendered on the server cannot navigate.');
});
