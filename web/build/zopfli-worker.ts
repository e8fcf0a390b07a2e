import { parentPort } from 'node:worker_threads';
import { gzipAsync } from '@gfx/zopfli';

// Zopfli's passes over each file: 3 finds nearly all of what 15 would (index chunk: 126.0 vs
// 126.0 kB), at a fifth of the time.
const zopfliIterations = 3;

// One file's bytes in, its gzip copy out (web/build/precompress.ts): Zopfli's WebAssembly runs
// on the thread that calls it, so each CPU gets a thread of its own.
parentPort?.on('message', async (content: Uint8Array) => {
  parentPort?.postMessage(await gzipAsync(content, { numiterations: zopfliIterations }));
});
