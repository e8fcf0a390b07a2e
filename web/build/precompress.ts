import { once } from 'node:events';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

// Text files worth compressing; pictures in formats that are compressed already are left alone.
const compressible = /\.(js|css|svg|json|txt|webmanifest)$/;
// Below this, the headers of an encoded answer cost about what compression saves.
const minBytes = 1024;

/**
 * How the `.gz` copies are made:
 * - `zopfli`: by Zopfli, about 4% smaller than zlib's level 9 (the image, `pnpm build`);
 * - `zlib`: by zlib's level 9, in a second where Zopfli takes a minute or more: the test command's
 *   build (server/scripts/test.ts), and `pnpm start`'s, whose copies `zopfliGzipCopies` then
 *   replaces one by one after the server answers (server/scripts/build.ts).
 */
export type GzipMaker = 'zopfli' | 'zlib';

const gzipMaker = (env: NodeJS.ProcessEnv = process.env): GzipMaker =>
  env.EVEREST_QUICK_GZIP === '1' || env.EVEREST_ZOPFLI_LATER === '1' ? 'zlib' : 'zopfli';

const brotli = promisify(brotliCompress);
const zlibGzip = promisify(gzip);

/** Writes beside `file` through a temporary name, so that a reader (the server) sees the old copy or the new one, never half of one. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

const holds = (file: string, content: Buffer) => {
  try {
    return readFileSync(file).equals(content);
  } catch {
    return false;
  }
};

/** The files to compress, biggest first: the longest ones start at once instead of ending the build alone. */
export function compressibleFiles(files: string[]): string[] {
  return files
    .filter((file) => compressible.test(file))
    .map((file) => ({ file, size: statSync(file).size }))
    .filter(({ size }) => size >= minBytes)
    .sort((a, b) => b.size - a.size)
    .map(({ file }) => file);
}

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`) copy beside each of `files`. Brotli runs
 * on zlib's thread pool and Zopfli on one worker thread per CPU: the files are compressed side by
 * side instead of one after the other.
 */
export async function writeCompressedCopies(files: string[], maker: GzipMaker): Promise<void> {
  const brotliCopies = files.map(async (file) => {
    const content = readFileSync(file);
    const br = await brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    writeFileSync(`${file}.br`, br);
  });
  const gzipCopies =
    maker === 'zopfli'
      ? zopfliGzipCopies(files)
      : Promise.all(files.map(async (file) => writeFileSync(`${file}.gz`, await zlibGzip(readFileSync(file), { level: 9 }))));
  await Promise.all([...brotliCopies, gzipCopies]);
}

/**
 * Writes a Zopfli `.gz` beside each of `files` (any gzip reader reads it), each through a temporary
 * name so that one replaces a quicker copy while the server sends it. `stillWanted` is asked before
 * each file: a new build stops a run that is making copies of the last one.
 */
export async function zopfliGzipCopies(files: string[], stillWanted: () => boolean = () => true): Promise<void> {
  const queue = [...files];
  const threads = Math.min(availableParallelism(), queue.length);
  const compressOn = async (worker: Worker) => {
    try {
      for (let file = queue.shift(); file !== undefined && stillWanted(); file = queue.shift()) {
        const content = readFileSync(file);
        worker.postMessage(content);
        const [gz] = (await once(worker, 'message')) as [Uint8Array];
        // The build that made `file` may have been replaced meanwhile: its copy must not land beside other bytes.
        if (!stillWanted() || !holds(file, content)) return;
        writeAtomically(`${file}.gz`, gz);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: threads }, () => compressOn(new Worker(new URL('./zopfli-worker.ts', import.meta.url)))));
}

/**
 * Writes the compressed copies beside every text file of the build. The server sends them as they
 * are to browsers that accept them (server/src/http/web-app.ts): compressing once at build time,
 * and harder than a server can afford per request, instead of spending CPU on every request for
 * the same bytes.
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
      await writeCompressedCopies(compressibleFiles(Object.keys(bundle).map((fileName) => path.join(outDir, fileName))), gzipMaker());
    },
  };
}

/** Every file under `dir` that has a `.gz` copy. */
const filesWithGzipCopies = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.gz'))
    .map((name) => path.join(dir, name.slice(0, -'.gz'.length)));

// node build/precompress.ts <dist> <pending file> [--lowest-priority]: replaces the quick .gz
// copies of a `pnpm start` build by Zopfli's (server/scripts/build.ts), then removes the pending
// file; it stops as soon as that file no longer holds the token it held when the run began.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [distDir, pendingFile, priority] = process.argv.slice(2) as [string, string, string?];
  // Before any worker starts: each thread takes the priority of the one that starts it.
  if (priority === '--lowest-priority') setPriority(19);
  const pendingBuild = () => {
    try {
      return readFileSync(pendingFile, 'utf8');
    } catch {
      return null;
    }
  };
  const build = pendingBuild();
  const stillWanted = () => build !== null && pendingBuild() === build;
  if (build !== null) await zopfliGzipCopies(compressibleFiles(filesWithGzipCopies(distDir)), stillWanted);
  if (stillWanted()) rmSync(pendingFile, { force: true });
}
