import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const workspaceDir = path.dirname(serverDir);

/**
 * The server's own npm dependencies stay in node_modules (native modules, MikroORM's dynamic
 * loading, embedded PostgreSQL's binaries); the workspace packages (TypeScript sources that plain
 * `node` cannot load) and what only they depend on (papaparse) are bundled in.
 */
function externalPackages(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(manifest.dependencies)
    .filter((name) => !name.startsWith('@everest/'))
    .flatMap((name) => [name, `${name}/*`]);
}

/**
 * `import.meta.url` keeps meaning the source file's address inside the bundle: the web app
 * (web/dist), the fixtures' sample files and embedded PostgreSQL's programs are found from where
 * the source sits, relative to the bundle, so the checkout's layout is all the bundle needs.
 */
function sourceLocations(outdir: string): Plugin {
  return {
    name: 'source-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(outdir, args.path).split(path.sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

/** Compiles the CLI (and so the server) to one ES module with its source map: `outdir/cli.js`. */
export async function buildServer(outdir = path.join(serverDir, 'dist')): Promise<string> {
  await build({
    entryPoints: [path.join(serverDir, 'src/cli.ts')],
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    // Stack traces name our functions as they are written.
    keepNames: true,
    external: externalPackages(),
    plugins: [sourceLocations(outdir)],
    // CommonJS code bundled into an ES module (papaparse) calls require.
    banner: { js: "import { createRequire as __everestRequire } from 'node:module'; const require = __everestRequire(import.meta.url);" },
    absWorkingDir: workspaceDir,
    logLevel: 'warning',
  });
  return path.join(outdir, 'cli.js');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}
