import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';

const rootElement = document.getElementById('root');
// The catalogue's publicMessages.rootElementNotFound, written out to keep core's messages out of
// the entry chunk (see not-found.tsx); main.test.tsx compares the two.
if (!rootElement) throw new Error('Root element not found');

// The first render is a transition, which React renders in slices that leave the main thread
// free between them (one start-up task was most of the pages' blocking time under Lighthouse's
// throttling). Until it commits, the page shows index.html's stand-in navigation bar, which
// stays in #root until React replaces it.
startTransition(() => {
  createRoot(rootElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
