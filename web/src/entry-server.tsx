/**
 * The server's render of the public pages (built by `vite build --ssr` into web/dist-ssr, and
 * loaded by the server at run time: server/src/features/public-pages). The same components as
 * the browser's, so that it hydrates the HTML without changing it.
 */
import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from './lib/router';
import { createDOMRenderer, RendererProvider, renderToStyleElements } from '@fluentui/react-components';
import type { PagePath, PublicProperty } from '@everest/core/contract';
import { pageHeadTags } from './app/page-head';
import { AppProvider } from './app/provider';
import { AppRoutes } from './app/router';
import { pageDataScript, propertiesQueryKey, setPageData, type PageData } from './lib/page-data';
import { setSiteThemes } from './lib/theme';
import { parsePropertyListFilter } from './lib/property-list';
import { queryClient } from './lib/query-provider';

export interface PageRequest {
  /** The page of the address (core's pageOf), or null for the 404 page. */
  page: PagePath | null;
  /** The address's query string ('?filter=retail'), read by the property list only. */
  search: string;
  /** The server's PUBLIC_URL, for the canonical address and the link previews. */
  publicUrl: string;
  /** The server's TILE_URL, for the maps. */
  tileUrl: string;
  /** GET /api/properties, for the pages that show properties (`showsProperties`). */
  properties: PublicProperty[] | null;
}

export interface RenderedPage {
  /** The page's own tags of `<head>`: title, meta tags, its styles and its data. */
  head: string;
  /** The markup of `#root`; null for the portal, whose HTML keeps the app shell's stand-in. */
  root: string | null;
}

// The server's render writes the themes into each page, from which the browser reads them back
// (lib/theme.ts). Imported as the browser's fallback imports it, so the build keeps one form.
setSiteThemes((await import('./lib/themes.json')).default);

/**
 * The investor portal is not rendered on the server: what it shows depends on the visitor's
 * session, which lives in the browser, and it has nothing to show a crawler (noindex).
 */
const rendersOnServer = (page: PagePath | null) => page !== '/investor-services';

/** The pages whose HTML shows the property list (the list, the map, the home page's portfolio). */
export const showsProperties = (page: PagePath | null): boolean =>
  page === '/' || page === '/properties' || page === '/portfolio' || page === '/property-map';

/**
 * The address a page is rendered for, which is all its HTML depends on besides the property
 * list, so the server's cache key: the list pages by their filter (an unknown one is 'all', as
 * in the browser), the 404 page once for every unknown address.
 */
export function renderedAddress(page: PagePath | null, search: string): string {
  if (page === null) return '/404';
  if (page !== '/properties' && page !== '/portfolio') return page;
  const filter = parsePropertyListFilter(new URLSearchParams(search).get('filter'));
  return filter === 'all' ? page : `${page}?filter=${filter}`;
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

/**
 * On the map page the tiles are its largest paint: the connection to their server is opened while
 * the map's code loads, not after. (The home page's map loads only when scrolled near.)
 */
function tilePreconnect(request: PageRequest): string {
  if (request.page !== '/property-map') return '';
  let origin: string;
  try {
    origin = new URL(request.tileUrl.replace(/\{s\}/g, 'a')).origin;
  } catch {
    return '';
  }
  return origin === 'null' ? '' : `<link rel="preconnect" href="${origin.replace(/"/g, '&quot;')}">`;
}

// The render reads the page's data and the list from this module's state (page-data.ts, the
// query client), as the browser's components do, and waits for the pages' code on a server's
// first renders: two renders that overlapped would read each other's data (a list page cached
// as 'Loading properties...'). So each waits for the one before.
let previousRender: Promise<unknown> = Promise.resolve();

/**
 * The page's HTML: rendered whole (prerender waits for every lazy page and home section), with
 * the styles Griffel collected and the data the browser needs to hydrate it unchanged.
 */
export function renderPage(request: PageRequest): Promise<RenderedPage> {
  const rendered = previousRender.then(() => renderAlone(request));
  previousRender = rendered.catch(() => undefined);
  return rendered;
}

async function renderAlone(request: PageRequest): Promise<RenderedPage> {
  const data: PageData = { tileUrl: request.tileUrl };
  if (!rendersOnServer(request.page)) return { head: [pageHeadTags(request.page, request.publicUrl), pageDataScript(data)].join('\n    '), root: null };
  data.serverRendered = true;
  if (request.properties && showsProperties(request.page)) data.properties = request.properties;
  setPageData(data);
  // The one query client of the module, like the browser's: seeded with the list, or emptied so
  // that a page never renders another render's list.
  if (data.properties) queryClient.setQueryData(propertiesQueryKey, data.properties);
  else queryClient.removeQueries({ queryKey: propertiesQueryKey });

  const renderer = createDOMRenderer();
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <RendererProvider renderer={renderer}>
        <AppProvider>
          <StaticRouter location={renderedAddress(request.page, request.search)}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </RendererProvider>
    </StrictMode>,
    // One piece of HTML with every part in place: a part past this size would otherwise come
    // after the page as hidden markup and a script that moves it in, which a reader without
    // JavaScript never sees.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const root = await streamText(prelude);
  // A part that failed would be left to the browser to render: the server sends the app shell
  // instead, and does not keep the page.
  if (errors.length > 0) throw errors[0];
  const styles = renderToStaticMarkup(<>{renderToStyleElements(renderer)}</>);
  const head = [pageHeadTags(request.page, request.publicUrl), tilePreconnect(request), styles, pageDataScript(data)]
    .filter(Boolean)
    .join('\n    ');
  return { head, root };
}
