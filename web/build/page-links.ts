import type { Plugin, Rollup } from 'vite';
import { entryRouteModule, pageRouteModules } from '../src/app/page-routes.ts';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/**
 * The `<link>` tags a page wants in the head of its HTML, written to `dist/page-links.json` as
 * `{ "/properties": [{ "rel": "modulepreload", "href": "/assets/…" }, …] }`. The server puts them
 * into the app shell it answers for that path (server/src/http/web-app.ts): a page's chunks with
 * the app's code (at `pageCodeMarker`), which starts after the first paint, and the rest in the head.
 *
 * Why: a page other than / is a lazy chunk. Without hints the browser learns of the chunk only
 * once the entry chunk has run, and hydrates the page only once the chunk has run: two round trips
 * one after the other. With them, the entry chunk and the page's chunks load in parallel. The
 * property list needs no hint: the server embeds it in the HTML of the pages that show it
 * (server/src/features/public-pages).
 */
export type PageLink = Record<string, string>;

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

/** The module that starts the app's code once the page is painted (a second input of the build). */
export const bootModule = 'src/boot.ts';

/** Where the server puts a page's own chunks (its modulepreload links): among the app's code. */
const pageCodeMarker = '<!--page-code-->';

/**
 * The page loads only the boot script with its HTML; Vite's tags for the app (the entry script and
 * the chunks it imports) go into `<template id="app-code">`, inert until the boot script starts
 * them once the page's first photos are painted (src/boot.ts says why).
 */
function deferAppCode(html: string, bundle: OutputBundle | undefined): string {
  const boot = bundle && chunks(bundle).find((chunk) => chunk.isEntry && chunk.facadeModuleId?.endsWith(`/web/${bootModule}`));
  if (!boot) throw new Error(`page-links: the build has no chunk for ${bootModule}.`);
  const appTags = /\s*<script type="module" crossorigin src="[^"]+"><\/script>(\s*<link rel="modulepreload" crossorigin href="[^"]+">)*/;
  const tags = appTags.exec(html)?.[0];
  if (!tags) throw new Error('page-links: the entry script tag of index.html was not found.');
  const template = `\n    <template id="app-code">${tags.trim()}${pageCodeMarker}</template>`;
  const bootTag = `\n    <script type="module" fetchpriority="low" crossorigin src="/${boot.fileName}"></script>`;
  return html.replace(tags, `${template}${bootTag}`);
}

export function pageLinks(): Plugin {
  return {
    name: 'everest-page-links',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html, context) => deferAppCode(html, context.bundle) },
    generateBundle(_options, bundle) {
      const entry = chunks(bundle).find((chunk) => chunk.isEntry && !chunk.facadeModuleId?.endsWith(`/web/${bootModule}`));
      if (!entry) throw new Error('page-links: the build has no entry chunk for index.html.');
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
        // The server puts them with the app's code, which starts after the first paint (src/boot.ts).
        links[page] = files.map((file) => ({ rel: 'modulepreload', href: `/${file}` }));
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
