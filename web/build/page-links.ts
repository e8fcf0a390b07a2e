import type { PagePath } from '@everest/core/contract';
import type { Plugin, Rollup } from 'vite';
import { entryRouteModule, pageRouteModules } from '../src/app/page-routes.ts';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * The `<link>` tags a page wants in the head of its HTML, written to `dist/page-links.json` as
 * `{ "/properties": [{ "rel": "modulepreload", "href": "/assets/…" }, …] }`. The server puts them
 * into the app shell it answers for that path (server/src/http/web-app.ts).
 *
 * Why: a page other than / is a lazy chunk, and its data is fetched by that chunk. Without hints
 * the browser learns of the chunk only once the entry chunk has run, and of the data only once
 * the chunk has run: three round trips one after the other. With them, the entry chunk, the
 * page's chunks and its data all load in parallel with the HTML.
 */
export type PageLink = Record<string, string>;

/**
 * Pages whose first render reads GET /api/properties (the list and the map). The request is
 * the one the app makes (same URL, credentials included), so the browser hands the preloaded
 * answer to it instead of asking again.
 */
const propertyDataPages: readonly string[] = ['/properties', '/portfolio', '/property-map'] satisfies PagePath[];
const propertyDataLink: PageLink = {
  rel: 'preload',
  as: 'fetch',
  href: '/api/properties',
  crossorigin: 'use-credentials',
};

/** The hero picture is the largest paint of the home page, and of no other page. */
const heroSource = 'files/site/hero.svg';

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
}

/** A chunk's file and every file it imports statically, directly or not. */
function staticClosure(bundle: OutputBundle, fileName: string, into = new Set<string>()): Set<string> {
  const chunk = bundle[fileName];
  if (!chunk || chunk.type !== 'chunk' || into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of chunk.imports) staticClosure(bundle, imported, into);
  return into;
}

export function pageLinks(): Plugin {
  return {
    name: 'everest-page-links',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = chunks(bundle).find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('page-links: the build has no entry chunk.');
      // What every page loads anyway (index.html names the entry; it imports the rest).
      const shell = staticClosure(bundle, entry.fileName);

      const links: Record<string, PageLink[]> = {};
      // Every page but home is the lazy chunk of its route module (src/app/page-routes.ts).
      for (const [page, name] of Object.entries(pageRouteModules)) {
        if (name === entryRouteModule) continue;
        const module = `src/app/routes/${name}.tsx`;
        const route = chunks(bundle).find((chunk) => chunk.facadeModuleId?.endsWith(`/web/${module}`));
        if (!route) throw new Error(`page-links: no chunk for ${module} (${page}); was the route renamed?`);
        const files = [...staticClosure(bundle, route.fileName)].filter((file) => !shell.has(file));
        links[page] = files.map((file) => ({ rel: 'modulepreload', href: `/${file}` }));
        if (propertyDataPages.includes(page)) links[page].push(propertyDataLink);
      }

      const hero = Object.values(bundle).find(
        (item) => item.type === 'asset' && item.originalFileNames.some((name) => name.endsWith(heroSource)),
      );
      if (!hero) throw new Error(`page-links: the hero picture (${heroSource}) is not in the build.`);
      links['/'] = [
        { rel: 'preload', as: 'image', type: 'image/svg+xml', href: `/${hero.fileName}`, fetchpriority: 'high' },
      ];

      this.emitFile({ type: 'asset', fileName: 'page-links.json', source: `${JSON.stringify(links, null, 2)}\n` });
    },
  };
}
