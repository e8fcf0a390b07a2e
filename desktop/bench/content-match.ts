/**
 * The desktop's part of matching K-1s by content (sync --match-content), as the sync runs it: the
 * files read from disk, their text read by PDF.js in the reader pool's worker threads, core's rule
 * applied against 2,000 investors, and a combined PDF cut per investor in the pool. Publishing
 * the matches is the manifest batch's path, measured by the sync bench. Each part runs in a fresh
 * process, so that its peak memory (worker threads included: they are the same process) is its own.
 * The workers run the built worker (electron-vite's out/main/pdf-reader-worker.js, built first), as
 * the app does: from source each worker also holds tsx, about 430 MB more.
 *
 *   pnpm --filter @everest/desktop exec tsx bench/content-match.ts
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { investorIdentifiers, reviewRows, type IdentifiedInvestor } from '@everest/core/domain';
import { readForMatching } from '../src/sync/content-match';
import { PdfReaderPool } from '../src/sync/pdf-reader-pool';

const count = 2_000;
const desktop = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const builtWorker = new URL('../out/main/pdf-reader-worker.js', import.meta.url);
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function line(name: string, figure: string, goal: string, met: boolean): void {
  process.stdout.write(`${name.padEnd(44)} ${figure.padEnd(28)} goal ${goal.padEnd(16)} ${met ? 'met' : 'NOT MET'}   (load ${load()})\n`);
}

const firsts = ['Amelia', 'Marcus', 'Lena', 'Oscar', 'Priya', 'Rafael', 'Ingrid', 'Tomas', 'Yuki', 'Noor', 'Hector', 'Greta', 'Dmitri', 'Ama', 'Soren', 'Leila', 'Bram', 'Ines', 'Kofi', 'Mei', 'Anders', 'Carmen', 'Elif', 'Joaquin', 'Maren', 'Ravi', 'Sasha', 'Teodor', 'Uma', 'Wendell', 'Xiomara', 'Zofia', 'Bruno', 'Dalia', 'Emeka', 'Farah', 'Gideon', 'Hana', 'Ivo', 'Jun', 'Keira', 'Lucan', 'Mirela', 'Niko', 'Odile', 'Pavel', 'Quinn', 'Rosalind', 'Stellan', 'Talia'];
const lasts = ['Hartwell', 'Bell', 'Okonkwo', 'Lindqvist', 'Natarajan', 'Quintero', 'Halvorsen', 'Brandt', 'Tanaka', 'Haddad', 'Salazar', 'Vogel', 'Petrov', 'Mensah', 'Kjeldsen', 'Farouk', 'Dekker', 'Moreau', 'Asante', 'Chen', 'Lund', 'Ortega', 'Yilmaz', 'Pereira', 'Aas', 'Iyer', 'Volkov', 'Novak', 'Reddy', 'Pryce', 'Ibarra', 'Wozniak', 'Conti', 'Amar', 'Obi', 'Rahimi', 'Stone', 'Kimura', 'Horvat', 'Park', 'Doyle', 'Marsh', 'Popescu', 'Rinne', 'Baptiste', 'Sokolov', 'Ferris', 'Whitlock', 'Strand', 'Eskandari'];

/** 2,000 investors, each with a full name; every fifth with an entity, as a firm's list has them. */
function investors(): IdentifiedInvestor[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `${firsts[i % firsts.length]} ${lasts[Math.floor(i / firsts.length) % lasts.length]}`,
    entity: i % 5 === 0 ? `${lasts[Math.floor(i / firsts.length) % lasts.length]} Family Trust ${i}` : '',
    identifiers: [],
  }));
}

const k1Page = (investor: IdentifiedInvestor) =>
  [
    'Schedule K-1 (Form 1065) 2025',
    'Part I Information About the Partnership',
    'Everest Properties Fund IV, L.P. 225 E. Colorado Blvd., Suite 400, Pasadena, CA 91101',
    'Part II Information About the Partner',
    `Partner's name: ${investor.entity || investor.name}`,
    'Partner share of profit 0.0500% loss 0.0500% capital 0.0500%',
    'Ordinary business income (loss) 12,345 Net rental real estate income (loss) 6,789',
  ].join('\n');

async function makeFiles(dir: string): Promise<void> {
  const list = investors();
  const singles = path.join(dir, 'investors');
  mkdirSync(singles, { recursive: true });
  const combined = await PDFDocument.create();
  const combinedFont = await combined.embedFont(StandardFonts.Helvetica);
  const draw = (page: ReturnType<PDFDocument['addPage']>, text: string, font: typeof combinedFont) =>
    text.split('\n').forEach((row, i) => page.drawText(row, { x: 40, y: 740 - i * 16, size: 10, font }));
  for (const investor of list) {
    const pdf = await PDFDocument.create();
    draw(pdf.addPage([612, 792]), k1Page(investor), await pdf.embedFont(StandardFonts.Helvetica));
    writeFileSync(path.join(singles, `K1_2025_${String(investor.id).padStart(5, '0')}.pdf`), await pdf.save());
  }
  // 1,000 partners of two pages each: the K-1, then a continuation statement that names nobody.
  for (const investor of list.slice(0, count / 2)) {
    draw(combined.addPage([612, 792]), k1Page(investor), combinedFont);
    draw(combined.addPage([612, 792]), 'Statement A: Section 199A information (continued)\nQualified business income 1,234', combinedFont);
  }
  writeFileSync(path.join(dir, 'combined.pdf'), await combined.save());
}

/** Peak resident memory of this process so far, worker threads included. */
const peakMegabytes = () => process.resourceUsage().maxRSS / 1024;

async function singles(dir: string): Promise<void> {
  const index = investorIdentifiers(investors());
  const folder = path.join(dir, 'investors');
  const names = readdirSync(folder).sort();
  const readers = new PdfReaderPool({ worker: builtWorker });
  const started = performance.now();
  let matched = 0;
  let next = 0;
  // As the sync reads a folder: every file handed to the pool, the pool running as many as it has workers.
  await Promise.all(
    Array.from({ length: readers.size * 2 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        const bytes = new Uint8Array(await readFile(path.join(folder, name)));
        const rows = reviewRows(name, await readForMatching(readers, bytes), index);
        if (rows.length === 1 && rows[0]!.matched) matched += 1;
      }
    }),
  );
  const took = performance.now() - started;
  await readers.close();
  line(`${names.length} one-page K-1s read and matched`, `${seconds(took)}, ${matched} matched`, '< 60 s', took < 60_000 && matched === count);
  line('  peak memory (RSS, workers included)', `${peakMegabytes().toFixed(0)} MB, ${readers.size} workers`, 'none (context)', true);
}

async function combined(dir: string): Promise<void> {
  const index = investorIdentifiers(investors());
  const readers = new PdfReaderPool({ worker: builtWorker });
  const started = performance.now();
  const bytes = new Uint8Array(await readFile(path.join(dir, 'combined.pdf')));
  const read = await readForMatching(readers, bytes);
  const readMs = performance.now() - started;
  const rows = reviewRows('combined.pdf', read, index);
  const matched = rows.filter((row) => row.matched);
  const cut = await readers.split(bytes, rows.map((row) => row.pages ?? []));
  const took = performance.now() - started;
  await readers.close();
  const pages = read.kind === 'text' ? read.pages.length : 0;
  const parts = cut.kind === 'sections' ? cut.parts.length : 0;
  line(`a combined PDF of ${pages} pages read, matched, cut`, `${seconds(took)} (read ${seconds(readMs)}), ${matched.length} matched, ${parts} PDFs`, '< 60 s', took < 60_000 && matched.length === count / 2 && parts === count / 2);
  const peak = peakMegabytes();
  line('  peak memory (RSS, workers included)', `${peak.toFixed(0)} MB (file ${(bytes.byteLength / 1_048_576).toFixed(1)} MB)`, '< 512 MB', peak < 512);
}

const parts = { singles, combined };
const [part, dir] = process.argv.slice(2);
if (part && dir) {
  await parts[part as keyof typeof parts](dir);
} else {
  await benchContentMatching();
}

/** Makes the files, then measures each part in a process of its own. */
export async function benchContentMatching(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-match-bench-'));
  try {
    process.stdout.write(`Matching K-1s by content (${os.availableParallelism()} CPUs; load ${load()})\n`);
    execFileSync(path.join(desktop, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: desktop, stdio: 'ignore' });
    await makeFiles(dir);
    for (const name of Object.keys(parts)) {
      await new Promise<void>((resolve, reject) => {
        const child = fork(fileURLToPath(import.meta.url), [name, dir], { stdio: 'inherit' });
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the ${name} bench exited with ${code}`))));
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
