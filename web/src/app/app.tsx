import { createDOMRenderer, RendererProvider } from '@fluentui/react-components';
import { BrowserRouter } from '../lib/router';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

// Griffel's renderer of the page: it takes over the style elements the server wrote into the
// HTML (their rules are not inserted twice). The server's render has one of its own per page.
const renderer = createDOMRenderer(document);

export function App() {
  return (
    <RendererProvider renderer={renderer} targetDocument={document}>
      <AppProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProvider>
    </RendererProvider>
  );
}
