import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Builds the web app, the server and the desktop app only when their inputs changed since the
 * last build, so that `pnpm start` and the browser suites answer in seconds on an unchanged
 * tree. A build that succeeds writes a stamp: a digest of every input file's path and bytes, and
 * the modification time of each output that proves the build is there. Contents, not times,
 * decide for the inputs: a fresh clone or a `git checkout` gives every file a new time.
 */

// server/scripts/ → the workspace.
export const workspaceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Folders that are never an input: outputs, installs, test results and the tests themselves. */
const skippedFolders = new Set([
  'node_modules',
  'dist',
  'dist-ssr',
  'out',
  '.data',
  'coverage',
  'test-results',
  'playwright-report',
  'e2e',
  'test',
  'bench',
  'drills',
]);
/** Tests sit beside the code (STYLE.md), and test runners' settings and notes beside the package: no build reads them. */
const isNotInput = (name: string) => /\.(test|spec)\.tsx?$|^(playwright|vitest)(\.[\w-]+)?\.config\.ts$|\.md$/.test(name);

/** What changes what any build makes: a dependency's version, a compiler option, this file's build commands. */
const workspaceFiles = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'tsconfig.json', 'server/scripts/build.ts'];

export interface Target {
  /** What a person reads: "the web app". */
  label: string;
  /** The package folder, relative to the workspace; commands run there. */
  dir: string;
  /** Folders or files, relative to the workspace, whose bytes decide whether to build. */
  inputs: string[];
  /** Files the build writes, relative to the workspace; all must be there for a build to count. */
  outputs: string[];
  /** Where the stamp is kept: beside the outputs, never inside a folder the server serves. */
  stamp: string;
  /** The commands, run in `dir` with the package's own binaries first on the PATH. */
  commands: string[][];
}

export const targets = {
  web: {
    label: 'the web app',
    dir: 'web',
    inputs: ['web', 'core', 'fixtures', ...workspaceFiles],
    outputs: ['web/dist/index.html', 'web/dist-ssr/entry-server.js'],
    // web/dist is served as it is; web/dist-ssr is only imported by the server.
    stamp: 'web/dist-ssr/build-stamp.json',
    commands: [
      ['vite', 'build', '--logLevel', 'warn'],
      ['vite', 'build', '--logLevel', 'warn', '--ssr', 'src/entry-server.tsx'],
    ],
  },
  server: {
    label: 'the server',
    dir: 'server',
    inputs: ['server', 'core', 'fixtures', ...workspaceFiles],
    outputs: ['server/dist/cli.js'],
    stamp: 'server/dist/build-stamp.json',
    commands: [['tsx', 'build.ts']],
  },
  desktop: {
    label: 'the desktop app',
    dir: 'desktop',
    // The admin panel comes from the web app's sources.
    inputs: ['desktop', 'web', 'core', 'fixtures', ...workspaceFiles],
    outputs: ['desktop/out/main/index.js', 'desktop/out/preload/index.cjs', 'desktop/out/renderer/index.html'],
    stamp: 'desktop/out/build-stamp.json',
    commands: [['electron-vite', 'build', '--logLevel', 'warn']],
  },
} satisfies Record<string, Target>;

export type TargetName = keyof typeof targets;

/** Every input file under `inputs` (relative to `root`), sorted, with the skipped folders and test files left out. */
export function inputFiles(root: string, inputs: string[]): string[] {
  const files: string[] = [];
  const visit = (relative: string) => {
    const absolute = path.join(root, relative);
    const stat = statSync(absolute, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isFile()) {
      files.push(relative);
      return;
    }
    if (!stat.isDirectory()) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isDirectory() ? skippedFolders.has(entry.name) : isNotInput(entry.name)) continue;
      if (entry.isDirectory() || entry.isFile()) visit(path.join(relative, entry.name));
    }
  };
  for (const input of inputs) visit(input);
  return [...new Set(files.map((file) => file.split(path.sep).join('/')))].sort();
}

/** One digest over the inputs' names and bytes: a file added, removed, renamed or changed changes it. */
export function inputsDigest(root: string, inputs: string[]): string {
  const hash = createHash('sha256');
  for (const file of inputFiles(root, inputs)) {
    hash.update(`${file}\0`);
    hash.update(createHash('sha256').update(readFileSync(path.join(root, file))).digest('hex'));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * How the build was made beyond its inputs: the test command's builds write quicker .gz copies
 * (EVEREST_QUICK_GZIP, web/build/precompress.ts), which `pnpm start` must not take for its own.
 */
export const buildVariant = (env: NodeJS.ProcessEnv = process.env) => (env.EVEREST_QUICK_GZIP === '1' ? 'quick gzip (tests)' : 'release');

interface Stamp {
  digest: string;
  variant?: string;
  /** Each output's modification time when the build ended: a build by hand since then shows. */
  outputs: Record<string, number>;
  builtAt: string;
}

const outputTimes = (root: string, outputs: string[]): Record<string, number> | null => {
  const times: Record<string, number> = {};
  for (const output of outputs) {
    const stat = statSync(path.join(root, output), { throwIfNoEntry: false });
    if (!stat) return null;
    times[output] = stat.mtimeMs;
  }
  return times;
};

function readStamp(file: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

export type Freshness = { upToDate: true; builtAt: string } | { upToDate: false; why: string };

/** Whether the target's last build is still its inputs' build; `digest` is `inputsDigest` of them now. */
export function freshness(root: string, target: Pick<Target, 'outputs' | 'stamp'>, digest: string, variant = 'release'): Freshness {
  const stamp = readStamp(path.join(root, target.stamp));
  if (!stamp) return { upToDate: false, why: 'never built here' };
  const times = outputTimes(root, target.outputs);
  if (!times) return { upToDate: false, why: 'its build output is missing' };
  if (target.outputs.some((output) => times[output] !== stamp.outputs?.[output])) {
    return { upToDate: false, why: 'its build output was written by another build' };
  }
  if (stamp.digest !== digest) return { upToDate: false, why: 'its sources changed' };
  if ((stamp.variant ?? 'release') !== variant) return { upToDate: false, why: `it was built as ${stamp.variant ?? 'release'}, not ${variant}` };
  return { upToDate: true, builtAt: stamp.builtAt };
}

/** Records a successful build of the inputs whose digest is `digest`. */
export function writeStamp(root: string, target: Pick<Target, 'outputs' | 'stamp'>, digest: string, variant = 'release'): void {
  const outputs = outputTimes(root, target.outputs);
  if (!outputs) throw new Error(`The build finished without writing ${target.outputs.join(', ')}.`);
  const file = path.join(root, target.stamp);
  mkdirSync(path.dirname(file), { recursive: true });
  const stamp: Stamp = { digest, variant, outputs, builtAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(stamp, null, 2)}\n`);
}

function run(command: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  const [program, ...args] = command as [string, ...string[]];
  const bin = (dir: string) => path.join(dir, 'node_modules', '.bin');
  const env = { ...process.env, ...extraEnv, PATH: [bin(cwd), bin(workspaceDir), process.env.PATH].join(path.delimiter) };
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command.join(' ')} failed (${signal ?? `exit code ${code}`}).`)),
    );
  });
}

/**
 * Zopfli makes the web app's .gz copies 4% smaller than zlib, but takes a minute or more of a first
 * start (two thirds of the compression). So `pnpm start` builds them with zlib and starts the server,
 * and Zopfli's copies replace them one by one in the background, at the lowest CPU priority
 * (web/build/precompress.ts). While this file is there they are not all Zopfli's yet; it holds a
 * token of the run that makes them: a later start or build that writes a new token (or removes the
 * file) stops that run, and takes over.
 */
export const zopfliPending = 'web/dist-ssr/zopfli-pending';

function zopfliCommand(...options: string[]): [string, string[], { cwd: string }] {
  const pending = path.join(workspaceDir, zopfliPending);
  writeFileSync(pending, randomUUID());
  return [process.execPath, ['build/precompress.ts', 'dist', pending, ...options], { cwd: path.join(workspaceDir, 'web') }];
}

/** Makes the pending Zopfli copies in a process of their own that outlives this one and never slows the server's start. */
function zopfliInBackground(): void {
  const [program, args, options] = zopfliCommand('--lowest-priority');
  spawn(program, args, { ...options, detached: true, stdio: 'ignore' }).unref();
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Builds the target unless its last build is up to date (or `force`), saying which and why.
 * `beforeStart`: the server starts next, so the web app's Zopfli copies are made after it (`zopfliPending`).
 */
export async function buildIfChanged(name: TargetName, { force = false, step = '', beforeStart = false } = {}): Promise<void> {
  const target: Target = targets[name];
  const started = performance.now();
  const digest = inputsDigest(workspaceDir, target.inputs);
  const variant = buildVariant();
  const fresh = freshness(workspaceDir, target, digest, variant);
  const zopfliLater = name === 'web' && beforeStart && variant === 'release';
  if (fresh.upToDate && !force) {
    console.log(`${step}${capitalised(target.label)}: up to date (built ${fresh.builtAt}, checked in ${seconds(started)}).`);
    if (name === 'web' && existsSync(path.join(workspaceDir, zopfliPending))) await finishZopfli(zopfliLater, step);
    return;
  }
  const why = force || fresh.upToDate ? 'a build was asked for' : fresh.why;
  console.log(`${step}Building ${target.label} (${why})…`);
  if (name === 'web') rmSync(path.join(workspaceDir, zopfliPending), { force: true });
  for (const command of target.commands) {
    await run(command, path.join(workspaceDir, target.dir), zopfliLater ? { EVEREST_ZOPFLI_LATER: '1' } : {});
  }
  writeStamp(workspaceDir, target, digest, variant);
  if (zopfliLater) {
    zopfliInBackground();
    console.log(`${step}Built ${target.label} in ${seconds(started)}; Zopfli makes its gzip copies smaller in the background.`);
    return;
  }
  console.log(`${step}Built ${target.label} in ${seconds(started)}.`);
}

/** A start resumes the Zopfli copies an earlier start left unfinished; any other build waits for them, as it would for its own. */
async function finishZopfli(inBackground: boolean, step: string): Promise<void> {
  if (inBackground) {
    zopfliInBackground();
    return;
  }
  console.log(`${step}Making the web app's gzip copies with Zopfli (a start left them to the background)…`);
  const [program, args, options] = zopfliCommand();
  await run([program, ...args], options.cwd);
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// tsx scripts/build.ts [--force] [--then-start] web server …
// --then-start numbers the steps and announces the server, which the caller starts next.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const thenStart = args.includes('--then-start');
  const names = args.filter((arg) => !arg.startsWith('--'));
  for (const name of names) {
    if (!(name in targets)) {
      console.error(`Unknown build "${name}": one of ${Object.keys(targets).join(', ')}.`);
      process.exit(2);
    }
  }
  const steps = names.length + (thenStart ? 1 : 0);
  const step = (n: number) => (thenStart ? `[${n}/${steps}] ` : '');
  try {
    for (const [i, name] of (names as TargetName[]).entries()) await buildIfChanged(name, { force, step: step(i + 1), beforeStart: thenStart });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  if (thenStart) {
    console.log(
      `${step(steps)}Starting the server on Node ${process.version} (a first start also creates the embedded database and its demo data)…`,
    );
  }
}
