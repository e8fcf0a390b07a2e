import './lib/zod-without-eval';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadSiteThemes } from './lib/theme';
import { pageData } from './lib/page-data';

const rootElement = document.getElementById('root');
// The catalogue's publicMessages.rootElementNotFound, written out to keep core's messages out of
// the entry chunk (see not-found.tsx); main.test.tsx compares the two.
if (!rootElement) throw new Error('Root element not found');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// The first render is a transition, which React renders in slices that leave the main thread
// free between them (a phone's first taps and scrolls answer meanwhile; a click on a part not
// yet hydrated makes React hydrate it at once, if its code has arrived). A page the server
// rendered is hydrated: React attaches to the markup already on screen. Otherwise (the portal,
// the dev server, a build without its render entry) index.html's stand-in navigation bar shows
// until the first render commits.
void loadSiteThemes().then(() =>
  startTransition(() => {
    if (pageData().serverRendered) hydrateRoot(rootElement, app);
    else createRoot(rootElement).render(app);
  }),
);
