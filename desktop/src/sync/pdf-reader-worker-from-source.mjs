// The PDF reader's worker when the sync runs from source (tsx, vitest): a worker thread does not
// inherit its parent's TypeScript loader on every Node version, so it registers tsx itself before
// loading the worker. The built app runs the bundled pdf-reader-worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./pdf-reader-worker.ts');
