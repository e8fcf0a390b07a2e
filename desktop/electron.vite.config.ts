import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    // Everything main imports is bundled (workspace packages export TypeScript source, which
    // Electron could not run), so the packaged app needs no node_modules (electron-builder.yml).
    // The PDF reader's worker thread (src/sync/pdf-reader-pool.ts) is an entry of its own, so
    // that it lands beside index.js as pdf-reader-worker.js.
    build: {
      externalizeDeps: false,
      rolldownOptions: { input: { index: 'src/main/index.ts', 'pdf-reader-worker': 'src/sync/pdf-reader-worker.ts' } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can `require` only `electron` and a few built-ins, and it
      // cannot be an ES module: bundle everything it imports into one CommonJS file.
      externalizeDeps: false,
      rolldownOptions: { output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    // `@everest/web/admin` must share the renderer's React and Fluent, never a copy.
    resolve: { dedupe: ['react', 'react-dom', '@fluentui/react-components'] },
  },
});
