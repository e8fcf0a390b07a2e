import { createRequire } from 'node:module';
import path from 'node:path';
import griffel from '@griffel/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { bootModule, pageLinks } from './build/page-links.ts';
import { precompress } from './build/precompress.ts';
import { shareImage } from './build/share-image.ts';

// The workspace packages core and fixtures are declarations only (constants, schemas,
// functions): a module none of whose exports is used can go. Without this, importing a message
// or a limit from @everest/core/domain keeps a zod schema of the same barrel (the password
// rule), and with it all of zod, in the home page's entry chunk.
const treeshake = {
  moduleSideEffects: [{ test: /[\\/](core|fixtures)[\\/]src[\\/]/, sideEffects: false }],
};

// The bundler's report of its slowest plugins ([PLUGIN_TIMINGS]) was about 20 lines in the middle
// of `pnpm start`'s own progress on every build: a person starting the product reads our steps;
// errors and warnings still show.
const checks = { bundlerTimings: false };

const require = createRequire(import.meta.url);

// Leaflet's package names only its UMD build, which the bundle wraps whole in a CommonJS shim and
// cannot shake. Its ES module build, in the same package, lets the bundler drop the parts the
// maps do not use (the map's chunk is 1.8 kB gzip smaller).
const leafletModule = { find: /^leaflet$/, replacement: path.join(path.dirname(require.resolve('leaflet')), 'leaflet-src.esm.js') };

// The API and uploaded media come from the product server (port 3000 by default) during
// development; in production the server serves dist/ itself.
const apiTarget = 'http://localhost:3000';

// Griffel (Fluent's CSS-in-JS) resolves each makeStyles call in the browser the first time it runs:
// parsing, RTL flipping and hashing every rule, about a fifth of a throttled phone's start-up on
// the list and the map. Its plugin does that at build time, leaving class names and ready CSS
// that the browser only inserts. Fluent's own components ship compiled already. The plugin
// evaluates the style objects (and what they import) with Babel, hence the TypeScript preset.
const griffelAheadOfTime = () => griffel({ babelOptions: { presets: ['@babel/preset-typescript'] } });

// The server's render of the public pages (src/entry-server.tsx), built by `vite build --ssr`
// into dist-ssr/entry-server.js, which the server imports at run time. Everything is bundled
// (the workspace's TypeScript sources and the packages alike), so the file runs under Node from
// wherever the server is, with one copy of React; styles are compiled as in the browser's build,
// so that both name the same classes.
const ssrBuild: UserConfig = {
  plugins: [react(), griffelAheadOfTime()],
  resolve: { alias: [leafletModule] },
  ssr: { noExternal: true },
  // React's production build: bundled, it would otherwise choose by the server's NODE_ENV.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  worker: { format: 'es' as const, rolldownOptions: { treeshake } },
  build: {
    outDir: 'dist-ssr',
    emptyOutDir: true,
    // The same rule as the browser's build, so that the two name the same asset files.
    assetsInlineLimit: (file: string) => (file.endsWith('.svg') ? false : undefined),
    // The browser's build has written the assets; the render only names them.
    ssrEmitAssets: false,
    copyPublicDir: false,
    rolldownOptions: { treeshake, checks },
  },
};

export default defineConfig(({ command, isSsrBuild }) => isSsrBuild ? ssrBuild : ({
  plugins: [react(), command === 'build' && griffelAheadOfTime(), pageLinks(), shareImage(), precompress()],
  resolve: { alias: [leafletModule] },
  // lib/public-properties.ts starts its worker as a module worker; core's modules shake as above.
  worker: { format: 'es', rolldownOptions: { treeshake } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // SVG pictures stay files: the hero is preloaded by index.html (as a data URI inside the
    // JavaScript it would be part of the entry chunk), and the dividers load lazily.
    assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
    // Every browser this site supports knows modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    // PDF.js (1.25 MB with its worker code) is loaded only in the workers of the administrators'
    // Match by content; every chunk a visitor loads is far below this, and Lighthouse holds them.
    chunkSizeWarningLimit: 1300,
    rolldownOptions: {
      treeshake,
      checks,
      // The page's HTML loads only the boot script, which starts the app (index.html's entry) once
      // the page is painted (src/boot.ts).
      input: { index: path.resolve(import.meta.dirname, 'index.html'), boot: path.resolve(import.meta.dirname, bootModule) },
      output: {
        codeSplitting: {
          // Everything the first page needs in one chunk: left alone, every module that a lazy
          // chunk shares with the entry becomes a little chunk of its own, and a dozen files
          // compress worse (and cost more requests) than one. Only the entry's own static
          // graph: with dependencies followed recursively, the group also swallows modules
          // that only lazy chunks use (1.5 kB gzip more on the first load).
          groups: [
            { name: 'shell', tags: ['$initial'], test: (id) => !id.endsWith(bootModule), includeDependenciesRecursively: false },
            // Core's constants (limits, enums) in a chunk of their own: the home page's sections
            // read a few of them; left alone they share a chunk with zod and the schemas (37 kB
            // gzip) that only the forms need. The catalogue's messages apart: the track record on
            // the first screen reads only its counters' limits (1.5 kB gzip less at load).
            { name: 'core-constants', test: /[\\/]core[\\/]src[\\/]domain[\\/](limits|enums)\.ts$/ },
            { name: 'core-messages', test: /[\\/]core[\\/]src[\\/]domain[\\/]messages\.ts$/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/media': { target: apiTarget, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/media': { target: apiTarget, changeOrigin: true },
    },
  },
}));
