import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshness, inputFiles, inputsDigest, workspaceDir, writeStamp, type Target } from './build';

// A small workspace on disk, shaped like ours: a package with sources, tests and outputs, a
// shared package, and the lockfile.
let root: string;
const write = (file: string, text: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};
const target: Pick<Target, 'inputs' | 'outputs' | 'stamp'> = {
  inputs: ['web', 'core', 'pnpm-lock.yaml', 'package.json'],
  outputs: ['web/dist/index.html'],
  stamp: 'web/dist-ssr/build-stamp.json',
};
/** What the build would do now: skip ('up to date') or build, and why. */
const decision = () => {
  const fresh = freshness(root, target, inputsDigest(root, target.inputs));
  return fresh.upToDate ? 'up to date' : fresh.why;
};
/** A build: writes the output, then the stamp, as buildIfChanged does. */
const build = () => {
  write('web/dist/index.html', `<p>built ${Math.random()}</p>`);
  writeStamp(root, target, inputsDigest(root, target.inputs));
};

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'everest-build-stamp-'));
  write('package.json', '{"name":"everest"}');
  write('pnpm-lock.yaml', 'lockfileVersion: 9.0\n');
  write('web/vite.config.ts', 'export default {};\n');
  write('web/src/main.tsx', 'render(<App />);\n');
  write('web/src/app.test.tsx', 'it("renders");\n');
  write('web/e2e/home.spec.ts', 'test("home");\n');
  write('web/playwright.config.ts', 'export default {};\n');
  write('web/README.md', '# web\n');
  write('web/node_modules/react/index.js', 'module.exports = {};\n');
  write('core/src/domain/quarter.ts', 'export const quarters = 4;\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the build stamp', () => {
  it('builds a tree that was never built, then skips it while nothing changes', () => {
    expect(decision()).toBe('never built here');
    build();
    expect(decision()).toBe('up to date');
    expect(decision()).toBe('up to date');
  });

  it('lists the sources, configuration and lockfile, but not tests, installs or outputs', () => {
    build();
    expect(inputFiles(root, target.inputs)).toEqual([
      'core/src/domain/quarter.ts',
      'package.json',
      'pnpm-lock.yaml',
      'web/src/main.tsx',
      'web/vite.config.ts',
    ]);
  });

  it.each([
    ['a changed source file', () => write('web/src/main.tsx', 'render(<App strict />);\n')],
    ['a changed file of a package it imports', () => write('core/src/domain/quarter.ts', 'export const quarters = 5;\n')],
    ['a changed lockfile', () => write('pnpm-lock.yaml', 'lockfileVersion: 9.1\n')],
    ['a changed configuration', () => write('web/vite.config.ts', 'export default { base: "/" };\n')],
    ['a new source file', () => write('web/src/lib/money.ts', 'export {};\n')],
    ['a removed source file', () => rmSync(path.join(root, 'core/src/domain/quarter.ts'))],
    ['a renamed source file', () => {
      rmSync(path.join(root, 'web/src/main.tsx'));
      write('web/src/index.tsx', 'render(<App />);\n');
    }],
  ])('rebuilds after %s', (_what, change) => {
    build();
    change();
    expect(decision()).toBe('its sources changed');
    build();
    expect(decision()).toBe('up to date');
  });

  it('goes by contents, not times: a file touched but unchanged (a fresh checkout) does not rebuild', () => {
    build();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'web/src/main.tsx'), later, later);
    write('core/src/domain/quarter.ts', 'export const quarters = 4;\n');
    expect(decision()).toBe('up to date');
  });

  it('does not rebuild for a changed test, end-to-end spec, test setting, note or installed package', () => {
    build();
    write('web/src/app.test.tsx', 'it("renders twice");\n');
    write('web/e2e/home.spec.ts', 'test("home twice");\n');
    write('web/playwright.config.ts', 'export default { workers: 2 };\n');
    write('web/README.md', '# the web app\n');
    write('web/node_modules/react/index.js', 'module.exports = { changed: true };\n');
    expect(decision()).toBe('up to date');
  });

  it('rebuilds when the output is gone, or was written since by a build the stamp did not see', () => {
    build();
    rmSync(path.join(root, 'web/dist'), { recursive: true });
    expect(decision()).toBe('its build output is missing');
    build();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'web/dist/index.html'), later, later);
    expect(decision()).toBe('its build output was written by another build');
  });

  it('rebuilds a build made for the tests (quick gzip) for a release, and back', () => {
    write('web/dist/index.html', '<p>built for the tests</p>');
    writeStamp(root, target, inputsDigest(root, target.inputs), 'quick gzip (tests)');
    expect(freshness(root, target, inputsDigest(root, target.inputs), 'quick gzip (tests)').upToDate).toBe(true);
    expect(decision()).toBe('it was built as quick gzip (tests), not release');
  });

  it('rebuilds when the stamp is unreadable', () => {
    build();
    write(target.stamp, '{ not json');
    expect(decision()).toBe('never built here');
  });
});

// A guard against a hang, not a speed check: at a load of 22 on 2 CPUs one Node start took 5 s.
describe('the Zopfli copies a start leaves to the background', { timeout: 60_000 }, () => {
  // A built script, its quick zlib copy as `pnpm start`'s build writes it, and the pending file.
  const script = Array.from({ length: 2000 }, (_, i) => `export const price${i} = ${(i * 7919) % 1000};\n`).join('');
  const quickCopy = gzipSync(script, { level: 9 });
  const dist = () => path.join(root, 'web/dist');
  const pending = () => path.join(root, 'web/dist-ssr/zopfli-pending');
  beforeEach(() => {
    write('web/dist/assets/index.js', script);
    writeFileSync(path.join(dist(), 'assets/index.js.gz'), quickCopy);
  });
  // The command build.ts starts, run here in the foreground.
  const makeZopfliCopies = () =>
    promisify(execFile)(process.execPath, ['build/precompress.ts', dist(), pending()], { cwd: path.join(workspaceDir, 'web') });

  it('replaces the quick copy by a smaller one of the same bytes, then removes the pending file', async () => {
    write('web/dist-ssr/zopfli-pending', 'token of this run');
    await makeZopfliCopies();
    const copy = readFileSync(path.join(dist(), 'assets/index.js.gz'));
    expect(gunzipSync(copy).toString()).toBe(script);
    expect(copy.length).toBeLessThan(quickCopy.length);
    expect(existsSync(pending())).toBe(false);
  });

  it('leaves the copies alone once a new build has removed the pending file', async () => {
    await makeZopfliCopies();
    expect(readFileSync(path.join(dist(), 'assets/index.js.gz'))).toEqual(quickCopy);
  });
});
