import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MikroORM } from '@mikro-orm/postgresql';
import { pagePaths, routes, type PagePath } from '@everest/core/contract';
import type { Config } from '../../config';
import type { NotifiedCache } from '../../db/notified-cache';
import type { Logger } from '../../logger';
import { cachedPublicProperties, type PropertyListCache } from '../properties/properties.service';
import { loadPageRenderer, type PageRenderer } from './page-renderer';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** A rendered page as it is sent: its bytes, and their brotli and gzip forms made once. */
export interface RenderedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** The page's tags go between these markers of web/index.html, its markup between the second pair. */
const headRegion = /<!--page-head-->[\s\S]*?<!--\/page-head-->/;
const rootRegion = /<!--page-root-->[\s\S]*?<!--\/page-root-->/;

/**
 * The app shell with the page's head tags and markup in place (root null: the shell's stand-in
 * stays). A function replacer, so that a `$` in a page is text.
 */
export function composePage(shell: string, rendered: { head: string; root: string | null }): string {
  if (!headRegion.test(shell) || !rootRegion.test(shell)) throw new Error('The app shell (web/dist/index.html) has no page-head or page-root markers.');
  const { head, root } = rendered;
  const page = shell.replace(headRegion, () => head);
  return root === null ? page : page.replace(rootRegion, () => root);
}

async function compressed(html: string): Promise<RenderedPage> {
  const bytes = Buffer.from(html, 'utf8');
  // Brotli 9 rather than the build's 11: a page is compressed once per change of the property
  // list, in about 10 ms instead of 200, and comes within a few per cent of 11.
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzipped(bytes, { level: 9 }),
  ]);
  return { html: bytes, br, gzip: gz };
}

/** The rendered pages by address (cacheTable.publicPages). */
export type PublicPageCache = NotifiedCache<RenderedPage>;

/** What rendering the public pages uses: the property list they show, and a cache of their own. */
export interface PageServices {
  config: Pick<Config, 'publicUrl' | 'tileUrl'>;
  orm: MikroORM;
  logger: Logger;
  propertyList: PropertyListCache;
  publicPages: PublicPageCache;
}

/**
 * The public pages, rendered on the server by the web app's render entry and kept ready to send
 * per address (the `publicPages` cache: dropped on every instance with the property list, which
 * is the only data they show). Without a render entry (a build without it), `render` answers
 * null and the app shell is sent, which the browser renders.
 */
export class PublicPages {
  private renderer: Promise<PageRenderer | null> | undefined;

  constructor(
    private readonly services: PageServices,
    private readonly renderEntry: string,
  ) {}

  get publicUrl(): string {
    return this.services.config.publicUrl;
  }

  private loadRenderer(): Promise<PageRenderer | null> {
    this.renderer ??= loadPageRenderer(this.renderEntry).then((renderer) => {
      if (!renderer) this.services.logger.warn(`No server render of the public pages (${this.renderEntry} is missing): pages are sent as the app shell.`);
      return renderer;
    });
    return this.renderer;
  }

  /**
   * The page at `page` (null: the 404 page) with query `search`, in `shell`, the app shell of
   * that page. Null when it cannot be rendered (the failure is logged): send the shell then.
   */
  async render(page: PagePath | null, search: string, shell: string): Promise<RenderedPage | null> {
    try {
      const renderer = await this.loadRenderer();
      if (!renderer) return null;
      const address = renderer.renderedAddress(page, search);
      return await this.services.publicPages.get(address, async () => {
        const { config } = this.services;
        const properties = renderer.showsProperties(page) ? routes.listProperties.answer.parse(JSON.parse((await cachedPublicProperties(this.services)).json)) : null;
        const rendered = await renderer.renderPage({ page, search, publicUrl: config.publicUrl, tileUrl: config.tileUrl, properties });
        return compressed(composePage(shell, rendered));
      });
    } catch (error) {
      this.services.logger.error(`The page ${page ?? '(not found)'} could not be rendered on the server; the app shell was sent.`, error);
      return null;
    }
  }
}

/** robots.txt: everything public may be crawled but the portal and the API; where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  return ['User-agent: *', 'Disallow: /investor-services', 'Disallow: /api/', '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}

/**
 * The public pages a search engine should list: every page of the route table but the portal
 * (noindex) and /portfolio (the same list as /properties, its canonical address).
 */
export const sitemapPages: readonly PagePath[] = pagePaths.filter((page) => page !== '/investor-services' && page !== '/portfolio');

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function sitemapXml(publicUrl: string): string {
  const urls = sitemapPages.map((page) => `  <url><loc>${escapeXml(publicUrl + page)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}
