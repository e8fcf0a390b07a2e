import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dockerfileCopies } from './dockerfile-copies';

const workspaceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string) => readFileSync(path.join(workspaceDir, file), 'utf8');

describe('dockerfileCopies', () => {
  it('reads each stage’s COPY lines relative to its WORKDIR, continuations and --from included', () => {
    const copies = dockerfileCopies(
      [
        'FROM node AS base',
        'WORKDIR /app',
        '# a comment',
        'COPY a.json \\',
        '     b.json ./',
        'COPY pkg/package.json pkg/',
        'COPY patches/ patches/',
        'FROM base AS build',
        'COPY . .',
        'FROM node AS runtime',
        'WORKDIR /srv',
        'COPY --from=build /app/dist ./dist',
      ].join('\n'),
    );
    expect(copies).toEqual([
      { stage: 'base', from: undefined, sources: ['a.json', 'b.json'], dest: '', intoFolder: true },
      { stage: 'base', from: undefined, sources: ['pkg/package.json'], dest: 'pkg', intoFolder: true },
      { stage: 'base', from: undefined, sources: ['patches'], dest: 'patches', intoFolder: true },
      { stage: 'build', from: undefined, sources: [''], dest: '', intoFolder: false },
      { stage: 'runtime', from: 'build', sources: ['dist'], dest: 'dist', intoFolder: false },
    ]);
  });

  it('refuses what it cannot read rather than copying less', () => {
    expect(() => dockerfileCopies('FROM node AS a\nCOPY --chown=node x y')).toThrow(/option/);
    expect(() => dockerfileCopies('FROM node AS a\nCOPY ["x", "y"]')).toThrow(/JSON/);
    expect(() => dockerfileCopies('FROM node AS a\nCOPY --from=nowhere /x y')).toThrow(/unknown stage/);
  });
});

// pnpm's install stage sees only what the manifests' COPY lines bring: every package's manifest,
// and the patches pnpm-workspace.yaml applies (without them `pnpm install` stops with ENOENT).
describe('the Dockerfile’s install stage', () => {
  const copied = dockerfileCopies(read('Dockerfile'))
    .filter((c) => c.stage === 'pnpm')
    .flatMap((c) =>
      c.sources.map((s) => {
        // As Docker does: a folder's contents go to dest, a file into dest when dest is a folder.
        const folder = statSync(path.join(workspaceDir, s)).isDirectory();
        return c.intoFolder && !folder ? path.posix.join(c.dest, path.posix.basename(s)) : c.dest;
      }),
    );
  const holds = (file: string) => copied.some((c) => file === c || file.startsWith(`${c}/`));
  const workspace = read('pnpm-workspace.yaml');

  it('copies the lockfile, the workspace and every package’s manifest', () => {
    const list = /^packages:\n((?: {2}- \S+\n)+)/m.exec(workspace)?.[1] ?? '';
    const packages = [...list.matchAll(/- (\S+)/g)].map((m) => m[1]!);
    expect(packages.length).toBeGreaterThan(0);
    for (const file of ['pnpm-lock.yaml', 'pnpm-workspace.yaml', 'package.json', '.npmrc', ...packages.map((p) => `${p}/package.json`)]) {
      expect(holds(file), file).toBe(true);
    }
  });

  it('copies every patch pnpm applies', () => {
    const patches = [...workspace.matchAll(/^ {2}'[^']+': (\S+\.patch)$/gm)].map((m) => m[1]!);
    expect(patches.length).toBeGreaterThan(0);
    for (const patch of patches) expect(holds(patch), patch).toBe(true);
  });
});
