import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arithmeticLoopSeconds } from '../bench/host';

/**
 * `pnpm test`: every stage of the test command in turn, stopping at the first that fails, then a
 * table of how long each took, the CPU time the machine spent on it and its load, so that a slow
 * CI shows where it went and whether the work grew or the host slowed.
 */

const workspaceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// Each runner also writes a JSON report here, from which the slowest tests are listed at the end.
const reports = path.join(workspaceDir, 'test-results');
const vitestReport = path.join(reports, 'vitest.json');
const e2eReport = (suite: string) => path.join(reports, `${suite}-e2e.json`);

interface Stage {
  name: string;
  command: string;
  /**
   * Runs at the same time as the stage before it, its output shown when it ends: eslint keeps
   * one CPU busy, and tsc leaves one free as the packages wait for those they import.
   */
  alongside?: boolean;
}

// The web app's .gz copies with zlib rather than Zopfli (web/build/precompress.ts): minutes less
// of build, the same files for the tests. Every stage inherits it, so the browser suites'
// `pnpm start` takes this build as up to date.
process.env.EVEREST_QUICK_GZIP = '1';

const stages: Stage[] = [
  { name: 'typecheck', command: 'pnpm typecheck' },
  { name: 'lint', command: 'eslint .', alongside: true },
  // Each build is skipped when its inputs have not changed since it was last built
  // (server/scripts/build.ts); the browser suites below then find it built and only start it.
  { name: 'build', command: 'tsx server/scripts/build.ts web server desktop' },
  { name: 'vitest', command: `vitest run --reporter=default --reporter=json --outputFile.json=${vitestReport}` },
  { name: 'web e2e', command: playwright('web') },
  { name: 'desktop e2e', command: playwright('desktop') },
];

function playwright(suite: 'web' | 'desktop'): string {
  const reporter = process.env.CI ? 'line' : 'list';
  return `PLAYWRIGHT_JSON_OUTPUT_FILE=${e2eReport(suite)} pnpm --filter @everest/${suite} exec playwright test --reporter=${reporter},json`;
}

/**
 * Seconds the machine's CPUs were busy (every CPU, /proc/stat), and apart from them the seconds
 * the hypervisor took for others (steal). CI runs nothing else, so a stage's busy seconds are its
 * work: they grow when the work does (or when each CPU second does less, which the host-speed
 * line shows), not when the stage waits or the host withholds the CPUs.
 */
function cpuSeconds(): { busy: number; steal: number } {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
    const hz = 100; // USER_HZ on Linux
    return { busy: (user + nice + system + irq + softirq) / hz, steal: steal / hz };
  } catch {
    return { busy: Number.NaN, steal: Number.NaN };
  }
}

/**
 * Seconds of CPU (user and system) spent by the processes this one started and waited for, and
 * by theirs in turn (/proc/self/stat's cutime and cstime): the suite's own work, whatever else
 * runs on the machine. A process counts here only once its parent has waited for it, so a stage
 * is read after all of its processes have ended.
 */
function ownCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command's name, which is in parentheses and may itself hold spaces:
    // the 3rd field of the line (state) is fields[0], so cutime (16th) and cstime (17th) are 13 and 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    return ((fields[13] ?? Number.NaN) + (fields[14] ?? Number.NaN)) / 100; // USER_HZ on Linux
  } catch {
    return Number.NaN;
  }
}

const minutes = (s: number) => `${Math.floor(Math.round(s) / 60)}:${String(Math.round(s) % 60).padStart(2, '0')}`;

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

/** Runs `command`, its output on the terminal, or held and given back when `hold` says so. */
function run(command: string, hold = false): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd: workspaceDir, stdio: hold ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: true });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// A report left by an earlier run must not be read as this run's.
for (const file of [vitestReport, e2eReport('web'), e2eReport('desktop')]) rmSync(file, { force: true });

const results: { name: string; seconds: number; own: string; cpu: string; outcome: string; loadAfter: string }[] = [];
console.log(`Node ${process.version}; load average ${load()} (1, 5, 15 min) on this machine.`);
console.log(`The host's speed: a fixed loop of arithmetic took ${arithmeticLoopSeconds().toFixed(2)} s on one CPU (0.73 s on 28 November at 23:55 UTC, load 0.2).`);
let failed: string | null = null;
const runStarted = performance.now();
const cpuAtStart = cpuSeconds();
const ownAtStart = ownCpuSeconds();
for (let i = 0; i < stages.length; i++) {
  // A stage and those that run alongside it.
  const group = [stages[i] as Stage];
  while (stages[i + 1]?.alongside) group.push(stages[++i] as Stage);
  if (failed) {
    for (const stage of group) results.push({ name: stage.name, seconds: 0, own: '', cpu: '', outcome: 'not run', loadAfter: '' });
    continue;
  }
  for (const stage of group) console.log(`\n=== ${stage.name}${stage.alongside ? ' (alongside, its output when it ends)' : ''}: ${stage.command}`);
  const cpuBefore = cpuSeconds();
  const ownBefore = ownCpuSeconds();
  const outcomes = await Promise.all(
    group.map(async (stage) => {
      const started = performance.now();
      const { code, output } = await run(stage.command, stage.alongside);
      if (stage.alongside) console.log(`\n=== ${stage.name}: ${code === 0 ? 'passed' : 'failed'}${output ? `\n${output.trimEnd()}` : ''}`);
      return { stage, code, seconds: (performance.now() - started) / 1000 };
    }),
  );
  const cpuAfter = cpuSeconds();
  const own = `${Math.round(ownCpuSeconds() - ownBefore)} s`;
  const busy = `${Math.round(cpuAfter.busy - cpuBefore.busy)} s${cpuAfter.steal > cpuBefore.steal + 1 ? ` (${Math.round(cpuAfter.steal - cpuBefore.steal)} s stolen)` : ''}`;
  for (const [index, { stage, code, seconds }] of outcomes.entries()) {
    // Stages alongside each other share one figure, given on the first.
    const cpu = index === 0 ? busy : `with ${group[0]?.name}`;
    results.push({ name: stage.name, seconds, own: index === 0 ? own : cpu, cpu, outcome: code === 0 ? 'passed' : `failed (${code})`, loadAfter: load() });
    if (code !== 0) failed ??= stage.name;
  }
  // Also said as the stages end, so that a run stopped half-way still tells what each cost.
  const names = group.map((stage) => stage.name).join(' and ');
  console.log(`\n=== ${names}: ${minutes(Math.max(...outcomes.map((o) => o.seconds)))}, own CPU ${own}, whole machine ${busy}, load ${load()}`);
}
const totalSeconds = (performance.now() - runStarted) / 1000;

const readReport = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** The tests counted by every runner that ran: CI reads this closing line. */
function counts(): { passed: number; failed: number; skipped: number } {
  const vitest = readReport(vitestReport) as { numPassedTests?: number; numFailedTests?: number; numPendingTests?: number; numTodoTests?: number } | null;
  const total = { passed: vitest?.numPassedTests ?? 0, failed: vitest?.numFailedTests ?? 0, skipped: (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) };
  for (const suite of ['web', 'desktop']) {
    const stats = (readReport(e2eReport(suite)) as { stats?: { expected: number; unexpected: number; flaky: number; skipped: number } } | null)?.stats;
    if (!stats) continue;
    total.passed += stats.expected;
    // A test that passed only on a retry is counted as failed: retries are 0, and a flaky test is a bug.
    total.failed += stats.unexpected + stats.flaky;
    total.skipped += stats.skipped;
  }
  return total;
}

/** The slowest test files of the vitest report and the slowest tests of a Playwright report. */
function slowest(): string[] {
  const lines: string[] = [];
  const read = readReport;
  const vitest = read(vitestReport) as { testResults?: { name: string; startTime: number; endTime: number }[] } | null;
  const files = (vitest?.testResults ?? []).map((r) => ({ name: path.relative(workspaceDir, r.name), ms: r.endTime - r.startTime }));
  for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 8)) lines.push(`vitest  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`);
  for (const suite of ['web', 'desktop']) {
    interface Suite { title: string; file?: string; suites?: Suite[]; specs?: { title: string; file: string; tests: { results: { duration: number }[] }[] }[] }
    const report = read(e2eReport(suite)) as { suites?: Suite[] } | null;
    const tests: { name: string; ms: number }[] = [];
    const visit = (s: Suite) => {
      for (const spec of s.specs ?? []) {
        const ms = spec.tests.flatMap((t) => t.results).reduce((sum, r) => sum + r.duration, 0);
        tests.push({ name: `${spec.file} › ${spec.title}`, ms });
      }
      for (const inner of s.suites ?? []) visit(inner);
    };
    for (const s of report?.suites ?? []) visit(s);
    for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, 8)) lines.push(`${suite} e2e ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.name}`);
  }
  return lines;
}
const slow = slowest();
if (slow.length > 0) console.log(`\nThe slowest (vitest: files, each on one worker; e2e: tests):\n${slow.join('\n')}`);

const totalCpu = cpuSeconds().busy - cpuAtStart.busy;
console.log('\n| stage | time | CPU of its own processes | CPU busy, whole machine | outcome | load after (1, 5, 15 min) |\n|---|---:|---:|---:|---|---|');
for (const r of results) console.log(`| ${r.name} | ${r.outcome === 'not run' ? '' : minutes(r.seconds)} | ${r.own} | ${r.cpu} | ${r.outcome} | ${r.loadAfter} |`);
const totalOwnCpu = ownCpuSeconds() - ownAtStart;
console.log(`| total (stages alongside counted once) | ${minutes(totalSeconds)} | ${Math.round(totalOwnCpu)} s | ${Math.round(totalCpu)} s | ${failed ? `failed at ${failed}` : 'passed'} | |`);
const loopAfter = arithmeticLoopSeconds();
console.log(`The host's speed after the stages: the same loop took ${loopAfter.toFixed(2)} s.`);
// What `pnpm bench` prints beside the suite's goal (web/bench/host-figures.ts): it does not run the suite again.
mkdirSync(reports, { recursive: true });
writeFileSync(
  path.join(reports, 'suite-cpu.json'),
  `${JSON.stringify({ at: new Date().toISOString(), passed: !failed, ownCpuSeconds: totalOwnCpu, machineCpuSeconds: totalCpu, arithmeticLoopSeconds: loopAfter, seconds: totalSeconds }, null, 2)}\n`,
);
const counted = counts();
console.log(`\nTests: ${counted.passed} passed, ${counted.failed} failed, ${counted.skipped} skipped`);
process.exit(failed ? 1 : 0);
