import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The COPY lines of a Dockerfile, stage by stage, so that check-image-steps.sh copies what the
 * image copies (a path added to the Dockerfile alone once left the image's steps broken).
 * Paths come out relative to the stage's WORKDIR, or to the build context.
 */

export interface Copy {
  /** The stage holding the COPY line. */
  stage: string;
  /** The stage copied from (`--from=`), or undefined for the build context. */
  from?: string;
  /** Relative to the build context, or to the WORKDIR of `from`; '' is its top. */
  sources: string[];
  /** Relative to the stage's WORKDIR; '' is the WORKDIR itself. */
  dest: string;
  /** The sources go into dest as a folder (dest ends with '/', or several sources). */
  intoFolder: boolean;
}

interface Stage {
  name: string;
  workdir: string;
}

/** The Dockerfile's instructions, one a line: continuations joined, comments and blanks left out. */
function instructions(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    lines.push((pending + line).trim());
    pending = '';
  }
  if (pending) lines.push(pending.trim());
  return lines;
}

/** A path made relative to `workdir`; a path outside it is a fault of the Dockerfile's reading. */
function relativeTo(workdir: string, p: string, line: string): string {
  const absolute = path.posix.resolve(workdir, p);
  const relative = path.posix.relative(workdir, absolute);
  if (relative.startsWith('..')) throw new Error(`COPY outside the WORKDIR ${workdir}: ${line}`);
  return relative;
}

export function dockerfileCopies(text: string): Copy[] {
  const stages = new Map<string, Stage>();
  let stage: Stage | undefined;
  const copies: Copy[] = [];
  for (const line of instructions(text)) {
    const [keyword = '', ...words] = line.split(/\s+/);
    switch (keyword.toUpperCase()) {
      case 'FROM': {
        const args = words.filter((w) => !w.startsWith('--'));
        const base = stages.get(args[0] ?? '');
        const as = args[1]?.toUpperCase() === 'AS' ? args[2] : undefined;
        stage = { name: as ?? `#${stages.size}`, workdir: base?.workdir ?? '/' };
        stages.set(stage.name, stage);
        break;
      }
      case 'WORKDIR':
        if (!stage) throw new Error(`WORKDIR before FROM: ${line}`);
        stage.workdir = path.posix.resolve(stage.workdir, words.join(' '));
        break;
      case 'COPY': {
        if (!stage) throw new Error(`COPY before FROM: ${line}`);
        if (line.includes('[')) throw new Error(`COPY in JSON form is not read here: ${line}`);
        let from: string | undefined;
        const paths: string[] = [];
        for (const word of words) {
          if (word.startsWith('--from=')) from = word.slice('--from='.length);
          else if (word.startsWith('--')) throw new Error(`COPY option not read here: ${line}`);
          else paths.push(word);
        }
        const dest = paths.pop();
        if (!dest || paths.length === 0) throw new Error(`COPY without a source and a destination: ${line}`);
        const source = from === undefined ? undefined : stages.get(from);
        if (from !== undefined && !source) throw new Error(`COPY from an unknown stage: ${line}`);
        copies.push({
          stage: stage.name,
          from,
          sources: paths.map((p) => (source ? relativeTo(source.workdir, p, line) : relativeTo('/', p, line))),
          dest: relativeTo(stage.workdir, dest, line),
          intoFolder: dest.endsWith('/') || paths.length > 1,
        });
        break;
      }
    }
  }
  return copies;
}

// As a command: `dockerfile-copies.ts <Dockerfile> <stage>` prints the stage's own COPY lines
// for the shell, one copied source a line: from (or '-'), source, dest, 'folder' or 'path'.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, stageName] = process.argv.slice(2);
  if (!file || !stageName) {
    console.error('usage: dockerfile-copies.ts <Dockerfile> <stage>');
    process.exit(2);
  }
  const copies = dockerfileCopies(readFileSync(file, 'utf8')).filter((c) => c.stage === stageName);
  if (copies.length === 0) {
    console.error(`${file} has no COPY line in a stage named ${stageName}`);
    process.exit(1);
  }
  for (const copy of copies) {
    for (const source of copy.sources) {
      console.log([copy.from ?? '-', source || '.', copy.dest || '.', copy.intoFolder ? 'folder' : 'path'].join('\t'));
    }
  }
}
