/**
 * `pnpm bench` (after the server's): the watched-folder sync on the accountant's generated
 * folder (fixtures' accountant-folder), against the real server and PostgreSQL, with the
 * sync's own defaults (a 10 s stability window). Prints each figure beside its goal, with the
 * machine's load; nothing here is a test.
 *
 *   pnpm --filter @everest/desktop exec tsx bench/sync.ts [latency] [throughput] [outage] [match-content]
 *
 * match-content is bench/content-match.ts (reading and matching K-1s by content), run in a process of its own.
 */
import { fork } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAccountantFolder, pdfBytes } from '@everest/fixtures/accountant-folder';
import { startBenchServer, type BenchServer } from '@everest/server/bench';
import { TcpGate } from '@everest/server/testing/tcp-gate';
import { createPortal } from '../src/sync/portal';
import { SyncEngine, type SyncEvent } from '../src/sync/sync-engine';

const admin = { email: 'admin@example.com', password: 'Everest@2025' };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');

function line(name: string, figure: string, goal: string, met: boolean): void {
  process.stdout.write(`${name.padEnd(44)} ${figure.padEnd(28)} goal ${goal.padEnd(16)} ${met ? 'met' : 'NOT MET'}   (load ${load()})\n`);
}

function space(base: string, name: string): { folder: string; ledgerFile: string } {
  const folder = path.join(base, name);
  mkdirSync(folder, { recursive: true });
  return { folder, ledgerFile: path.join(base, `${name}.ledger.json`) };
}

/** From a file appearing in the watched folder to its document on the portal, 20 files arriving 0.5 s apart. */
async function latency(server: BenchServer, base: string): Promise<void> {
  const where = space(base, 'latency');
  await buildAccountantFolder({ root: where.folder, large: true });
  const appeared = new Map<string, number>();
  const published = new Map<string, number>();
  const engine = await SyncEngine.create({
    ...where,
    portal: createPortal({ serverUrl: server.url, ...admin }),
    onEvent: (event) => {
      if (event.state === 'published' && appeared.has(event.path)) published.set(event.path, Date.now());
    },
  });
  await engine.start();
  // The accountant's folder first settles and publishes (its own figure below), then 20 new files arrive.
  const started = Date.now();
  await engine.idle();
  const first = engine.status();
  line("the accountant's folder, first run", `${seconds(Date.now() - started)}, ${first.counts.published} published`, 'none (context)', true);
  process.stdout.write(`  ${first.summary}\n`);
  mkdirSync(path.join(where.folder, '2025-Q4', 'properties', 'General'), { recursive: true });
  for (let i = 0; i < 20; i += 1) {
    const relative = `2025-Q4/properties/General/Latency ${String(i).padStart(2, '0')}.pdf`;
    appeared.set(relative, Date.now());
    writeFileSync(path.join(where.folder, ...relative.split('/')), pdfBytes(`latency ${i}`, 200_000));
    await pause(500);
  }
  while (published.size < 20) await pause(100);
  await engine.stop();
  const times = [...published].map(([p, at]) => at - appeared.get(p)!).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const max = times.at(-1)!;
  line('appear → published, median of 20', seconds(median), '≤ 12 s', median <= 12_000);
  line('appear → published, max of 20', seconds(max), '≤ 15 s', max <= 15_000);
}

/** 50 files of 1 MB dropped into a quarter folder, published by a one-off run. */
async function throughput(server: BenchServer, base: string): Promise<void> {
  const where = space(base, '2025-Q2');
  const property = path.join(where.folder, 'properties', 'Mesa Verde Villas');
  mkdirSync(property, { recursive: true });
  for (let i = 0; i < 50; i += 1) writeFileSync(path.join(property, `Megabyte ${i}.pdf`), pdfBytes(`mb ${i}`, 1024 * 1024));
  const engine = await SyncEngine.create({ ...where, portal: createPortal({ serverUrl: server.url, ...admin }), watch: false });
  const started = Date.now();
  await engine.runOnce();
  const took = Date.now() - started;
  const { counts } = engine.status();
  line('50 files of 1 MB, one-off run (10 s window in)', `${seconds(took)}, ${counts.published} published`, '≤ 25 s', took <= 25_000 && counts.published === 50);
}

/** Lines the command would print while the portal is away for 60 s, with 30 files waiting. */
async function outage(server: BenchServer, base: string): Promise<void> {
  const where = space(base, '2025-Q3');
  const relay = await TcpGate.start(server.url);
  const lines: SyncEvent[] = [];
  let counting = false;
  const engine = await SyncEngine.create({
    ...where,
    portal: createPortal({ serverUrl: relay.url(), ...admin }),
    stabilityMs: 1_000,
    onEvent: (event) => {
      // What the command prints: every event but a request's start.
      if (counting && event.state !== 'publishing') lines.push(event);
    },
  });
  await engine.start();
  relay.mode = 'refuse';
  relay.cut();
  counting = true;
  mkdirSync(path.join(where.folder, 'properties', 'General'), { recursive: true });
  for (let i = 0; i < 30; i += 1) writeFileSync(path.join(where.folder, 'properties', 'General', `Outage ${i}.pdf`), pdfBytes(`outage ${i}`));
  await pause(60_000);
  const during = lines.length;
  const tries = relay.connections;
  relay.mode = 'pass';
  while (engine.status().counts.published < 30) await pause(100);
  counting = false;
  await engine.stop();
  await relay.close();
  line('lines printed during a 60 s outage', `${during} (${tries} connection tries)`, '< 10', during < 10);
  for (const event of lines.slice(0, during)) process.stdout.write(`  ${event.state} ${event.path}: ${event.message}\n`);
}

/** bench/content-match.ts, in a process of its own: its peak memory is its own figure. */
function matchContent(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./content-match.ts', import.meta.url), [], { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench/content-match.ts exited with ${code}`))));
  });
}

const benchmarks = { latency, throughput, outage, 'match-content': matchContent };
const named = process.argv.slice(2);
for (const name of named) if (!(name in benchmarks)) throw new Error(`no benchmark named ${name}: ${Object.keys(benchmarks).join(', ')}`);

const dir = mkdtempSync(path.join(os.tmpdir(), 'everest-sync-bench-'));
chmodSync(dir, 0o755);
mkdirSync(path.join(dir, 'data'), { mode: 0o755 });
const server = await startBenchServer(path.join(dir, 'data'));
process.stdout.write(`Watched-folder sync (${os.cpus().length} CPUs; load ${load()})\n`);
try {
  for (const [name, bench] of Object.entries(benchmarks)) {
    if (named.length === 0 || named.includes(name)) await bench(server, path.join(dir, name));
  }
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
