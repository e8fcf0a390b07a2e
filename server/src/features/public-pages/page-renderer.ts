import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PagePath, PublicProperty } from '@everest/core/contract';

/** What the web's render entry (web/src/entry-server.tsx) is given for one page. */
export interface PageRenderRequest {
  page: PagePath | null;
  search: string;
  publicUrl: string;
  tileUrl: string;
  properties: PublicProperty[] | null;
}

/**
 * The web's built render entry (`web/dist-ssr/entry-server.js`), as the server uses it. The
 * server loads the built file at run time, as it serves the web's built files, and never imports
 * web source: this interface is the contract between the two, checked when the file is loaded.
 */
export interface PageRenderer {
  /** The page's own `<head>` tags and the markup of `#root` (null: the shell's stays). */
  renderPage(request: PageRenderRequest): Promise<{ head: string; root: string | null }>;
  /** The address the page is rendered for: what its HTML depends on, besides the property list. */
  renderedAddress(page: PagePath | null, search: string): string;
  /** Whether the page's HTML shows (and embeds) the property list. */
  showsProperties(page: PagePath | null): boolean;
}

/** The render entry built beside `web/dist` (`vite build --ssr` writes web/dist-ssr). */
export const renderEntryOf = (webDist: string) => path.join(path.dirname(webDist), 'dist-ssr', 'entry-server.js');

const isRenderer = (module: Record<string, unknown>): boolean =>
  typeof module.renderPage === 'function' && typeof module.renderedAddress === 'function' && typeof module.showsProperties === 'function';

/** The render entry at `file`, or null when the web app was built without it. */
export async function loadPageRenderer(file: string): Promise<PageRenderer | null> {
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  if (!isRenderer(module)) throw new Error(`${file} is not the web app's render entry: rebuild it with pnpm --filter @everest/web build.`);
  return module as unknown as PageRenderer;
}
