import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { pageOf } from '@everest/core/contract';
import { robotsTxt, sitemapXml, type PublicPages } from '../features/public-pages/public-pages';
import { HttpError } from './errors';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** The build's precompressed copies, in order of preference. */
const precompressedEncodings = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The size of the regular file at `file`, or null when there is none. */
async function regularFileSize(file: string): Promise<number | null> {
  try {
    const found = await stat(file);
    return found.isFile() ? found.size : null;
  } catch {
    return null;
  }
}

/**
 * The regular file at `file`, opened, with its size read from the open file rather than from the
 * name: after a first `pnpm start` the build's Zopfli pass renames smaller .gz copies into place
 * while the server runs, and a size read by name could belong to the other copy.
 */
async function openRegularFile(file: string): Promise<{ handle: FileHandle; size: number } | null> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch {
    return null;
  }
  const found = await handle.stat().catch(() => null);
  if (found?.isFile()) return { handle, size: found.size };
  await handle.close();
  return null;
}

function decodedPath(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    throw new HttpError(400, 'The address is not valid.');
  }
}

/** One `<link>` tag's attributes, as web/build/page-links.ts writes them. */
type PageLink = Record<string, string>;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A page's `<link>` hints: those for its head, and its own chunks, which go with the app's code. */
interface PageLinkTags {
  head: string;
  code: string;
}

/**
 * Where index.html holds the app's code, inert until web/src/boot.ts starts it after the first
 * paint: a page's chunks (its modulepreload links) go there, not in the head, or they would load
 * with the page and share the network with its first photo.
 */
const pageCodeMarker = '<!--page-code-->';

/**
 * The `<link>` hints of each page from the build's `page-links.json` (modulepreload of the page's
 * chunks, preload of its largest picture), as HTML. Missing or unreadable: none, the app works
 * without them, only later.
 */
function readPageLinks(file: string): Map<string, PageLinkTags> {
  const links = new Map<string, PageLinkTags>();
  if (!existsSync(file)) return links;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return links;
  }
  if (typeof parsed !== 'object' || parsed === null) return links;
  for (const [page, list] of Object.entries(parsed)) {
    if (!Array.isArray(list)) continue;
    const tags = list
      .filter((link): link is PageLink => typeof link === 'object' && link !== null)
      .map((link) => {
        const attributes = Object.entries(link)
          .filter(([name, value]) => /^[a-z-]+$/.test(name) && typeof value === 'string')
          .map(([name, value]) => `${name}="${escapeAttribute(value)}"`);
        return { code: link.rel === 'modulepreload', tag: `<link ${attributes.join(' ')}>` };
      });
    links.set(page, {
      head: tags.filter((t) => !t.code).map((t) => t.tag).join('\n    '),
      code: tags.filter((t) => t.code).map((t) => t.tag).join(''),
    });
  }
  return links;
}

/**
 * Serves the built web app from `distDir`: files as they are (hashed assets cached for a year),
 * the spec's pages with 200 and any other path with the 404 page and status 404, rendered on the
 * server by `pages` (or, without a server render, the app shell, which the browser renders).
 * A page's shell carries its own `<link>` hints (page-links.json), so that its chunks load with
 * the HTML. /robots.txt and /sitemap.xml are made from the route table and PUBLIC_URL.
 */
export function webApp(distDir: string, pages?: PublicPages): Middleware {
  const indexFile = path.join(distDir, 'index.html');
  let shell: string | null = null;
  let pageLinks: Map<string, PageLinkTags> | null = null;
  const shells = new Map<string, string>();
  const readShell = (pagePath: string | null) => {
    shell ??= existsSync(indexFile)
      ? readFileSync(indexFile, 'utf8')
      : '<!doctype html><title>Everest Properties</title><p>The web app is not built yet: run <code>pnpm --filter @everest/web build</code>.</p>';
    pageLinks ??= readPageLinks(path.join(distDir, 'page-links.json'));
    const links = pagePath === null ? undefined : pageLinks.get(pagePath);
    if (!links) return shell;
    let page = shells.get(pagePath ?? '');
    if (page === undefined) {
      page = shell.replace(pageCodeMarker, links.code);
      if (links.head) page = page.replace('</head>', `  ${links.head}\n  </head>`);
      shells.set(pagePath ?? '', page);
    }
    return page;
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (pages && (ctx.path === '/robots.txt' || ctx.path === '/sitemap.xml')) {
      ctx.type = ctx.path === '/robots.txt' ? 'text/plain; charset=utf-8' : 'application/xml; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = ctx.path === '/robots.txt' ? robotsTxt(pages.publicUrl) : sitemapXml(pages.publicUrl);
      return;
    }
    const relative = path.normalize(decodedPath(ctx.path));
    const file = path.join(distDir, relative);
    if (path.extname(file)) {
      const size = file.startsWith(distDir + path.sep) ? await regularFileSize(file) : null;
      if (size === null) {
        ctx.status = 404;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = 'Not found';
        return;
      }
      ctx.type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      ctx.set(
        'Cache-Control',
        relative.startsWith(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
      ctx.vary('Accept-Encoding');
      // The build writes .br and .gz copies of its text files (web/build/precompress.ts): send the
      // one the browser accepts as it is, instead of compressing the same bytes on every request.
      for (const encoding of precompressedEncodings) {
        if (ctx.acceptsEncodings(encoding.name, 'identity') !== encoding.name) continue;
        const compressed = await openRegularFile(`${file}${encoding.suffix}`);
        if (!compressed) continue;
        ctx.set('Content-Encoding', encoding.name);
        ctx.compress = false;
        ctx.length = compressed.size;
        // Koa destroys the stream when the answer ends (a HEAD's too), which closes the file.
        ctx.body = compressed.handle.createReadStream();
        return;
      }
      ctx.length = size;
      ctx.body = createReadStream(file);
      return;
    }
    const page = pageOf(ctx.path);
    // A page has one address, the route table's: /Properties/ moves there for good, so that one
    // address is cached, indexed and hydrated with the links it was rendered with.
    if (pages && page && page !== ctx.path) {
      ctx.status = 301;
      ctx.redirect(`${page}${ctx.search}`);
      return;
    }
    ctx.status = page ? 200 : 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.vary('Accept-Encoding');
    const rendered = pages ? await pages.render(page, ctx.search, readShell(page)) : null;
    if (!rendered) {
      ctx.body = readShell(page);
      return;
    }
    // Sent as a static file is: the compressed form the browser accepts, made once per page.
    const encoding = ctx.acceptsEncodings('br', 'gzip', 'identity');
    const body = encoding === 'br' ? rendered.br : encoding === 'gzip' ? rendered.gzip : rendered.html;
    if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
    ctx.compress = false;
    ctx.body = body;
  };
}
