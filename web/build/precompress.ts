import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Plugin } from 'vite';

// Text files worth compressing; pictures in formats that are compressed already are left alone.
const compressible = /\.(js|css|svg|json|txt|webmanifest)$/;
// Below this, the headers of an encoded answer cost about what compression saves.
const minBytes = 1024;

// Zopfli's passes over each file: 3 finds nearly all of what 15 would (index chunk: 126.0 vs
// 126.0 kB), at a fifth of the time.
const zopfliIterations = 3;
// The test command's build (server/scripts/test.ts) writes the .gz copies with zlib's level 9 instead:
// the same files and encodings, about 3% larger, in a second where Zopfli takes minutes on a
// loaded 2-CPU machine. The image, `pnpm start` and the benches keep Zopfli.
const quickGzip = process.env.EVEREST_QUICK_GZIP === '1';

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, made by Zopfli: any gzip reader reads
 * it, and it is about 4% smaller than zlib's level 9) copy beside every text file of the build. The server sends them as they are to browsers that accept them
 * (server/src/http/web-app.ts): compressing once at build time, and harder than a server can
 * afford per request, instead of spending CPU on every request for the same bytes.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'everest-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!compressible.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = readFileSync(file);
        if (content.length < minBytes) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, quickGzip ? gzipSync(content, { level: 9 }) : await gzipAsync(content, { numiterations: zopfliIterations }));
      }
    },
  };
}
