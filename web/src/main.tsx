import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
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

// A page the server rendered is hydrated: React attaches to the markup that is on screen
// already, in one go: hydrated in a transition (in slices), a click on the home page's Contact
// Us right after load did not end scrolled to the contact section in a clean CI run, as the last
// such attempt had found too. Otherwise (the portal, the dev server, a build without its render entry) the first
// render is a transition, which React renders in slices that leave the main thread free between
// them; until it commits, index.html's stand-in navigation bar shows.
if (pageData().serverRendered) {
  hydrateRoot(rootElement, app);
} else {
  startTransition(() => {
    createRoot(rootElement).render(app);
  });
}
