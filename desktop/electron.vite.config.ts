import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Workspace packages export TypeScript source, so they are bundled rather than left to a
// runtime `import` that Electron could not execute.
const workspacePackages = ['@everest/core'];

export default defineConfig({
  main: {
    build: { externalizeDeps: { exclude: workspacePackages } },
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
