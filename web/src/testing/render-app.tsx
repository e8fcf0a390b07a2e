import { useLayoutEffect } from 'react';
import { FluentProvider } from '@fluentui/react-components';
import { render } from '@testing-library/react';
import { pageOf } from '@everest/core/contract';
import NotFoundRoute from '../app/routes/not-found';
import HomeRoute from '../app/routes/home';
import { RootLayout } from '../components/layout/root-layout';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateFunction } from '../lib/router';
import { everestTheme } from './themes';

function Page() {
  const page = pageOf(useLocation().pathname);
  if (page === '/') return <HomeRoute />;
  return page ? <h1>{`page ${page.slice(1)}`}</h1> : <NotFoundRoute />;
}

/** What a test reads and does with the app's router: where it is, and going elsewhere. */
export interface TestRouter {
  readonly location: Location;
  readonly navigate: NavigateFunction;
}

function Routes({ onRender }: { onRender: (location: Location, navigate: NavigateFunction) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => onRender(location, navigate));
  return (
    <FluentProvider theme={everestTheme}>
      <RootLayout>
        <Page />
      </RootLayout>
    </FluentProvider>
  );
}

/**
 * The real layout with the real home page and 404 page, and a stand-in for each other page,
 * in a memory router at `path`.
 */
export function renderApp(path: string) {
  const current: { location?: Location; navigate?: NavigateFunction } = {};
  const result = render(
    <MemoryRouter initialEntries={[path]}>
      <Routes
        onRender={(location, navigate) => {
          current.location = location;
          current.navigate = navigate;
        }}
      />
    </MemoryRouter>,
  );
  const router: TestRouter = {
    get location() {
      if (!current.location) throw new Error('The app has not rendered.');
      return current.location;
    },
    get navigate() {
      if (!current.navigate) throw new Error('The app has not rendered.');
      return current.navigate;
    },
  };
  return { router, ...result };
}

/**
 * happy-dom's Web Animations reject `finished` when an animation is cancelled, which Fluent's
 * motion does on every unmount; without `animate` Fluent skips the motion, as it does in
 * browsers that lack the API.
 */
export function disableWebAnimations() {
  Object.defineProperty(Element.prototype, 'animate', { value: undefined, configurable: true });
}

interface HappyDomWindow {
  happyDOM?: { setViewport(viewport: { width: number; height: number }): void };
}

/** Resizes the happy-dom window, so that media queries (the 768 px breakpoint) apply. */
export function setViewport(width: number, height = 800) {
  const { happyDOM } = window as unknown as HappyDomWindow;
  if (!happyDOM) throw new Error('setViewport needs the happy-dom environment');
  happyDOM.setViewport({ width, height });
}
