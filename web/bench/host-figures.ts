/**
 * `pnpm bench` starts and ends with this: the host as the figures between were taken on it, so
 * that a figure is read against the machine (Lighthouse's BenchmarkIndex in headless Chromium, the
 * same fixed arithmetic loop that `pnpm test` times, the load), and the test suite's own CPU from
 * the last `pnpm test` of this checkout, which the bench does not run again (it takes a quarter
 * of an hour).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { arithmeticLoopSeconds, loadLine } from '@everest/server/bench/host';
import { hostBenchmarkIndex } from './benchmark-index';

const workspaceDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const label = process.argv[2] ?? 'host';

const index = await hostBenchmarkIndex();
console.log(
  `\n== ${label}: BenchmarkIndex ${Math.round(index)} (Lighthouse's, median of 3 in headless Chromium); arithmetic loop ${arithmeticLoopSeconds().toFixed(2)} s on one CPU; ${loadLine()}`,
);
console.log(suiteCpuLine());

/** The last `pnpm test`'s own CPU against its goal, as server/scripts/test.ts recorded it. */
function suiteCpuLine(): string {
  const goal = 1200;
  try {
    const run = JSON.parse(readFileSync(path.join(workspaceDir, 'test-results', 'suite-cpu.json'), 'utf8')) as {
      at: string;
      ownCpuSeconds: number;
      machineCpuSeconds: number;
      arithmeticLoopSeconds: number;
      passed: boolean;
    };
    const met = run.ownCpuSeconds <= goal ? 'met' : 'NOT met';
    return `   test suite's own CPU at the last pnpm test here (${run.at}, ${run.passed ? 'passed' : 'failed'}): ${Math.round(run.ownCpuSeconds)} s (the whole machine ${Math.round(run.machineCpuSeconds)} s; loop ${run.arithmeticLoopSeconds.toFixed(2)} s), goal <= ${goal} s: ${met}`;
  } catch {
    return `   test suite's own CPU: no pnpm test has run in this checkout; run it for the figure (goal <= ${goal} s)`;
  }
}
