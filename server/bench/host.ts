import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * What the host gave at the time of a figure, so that a figure is read against the machine it was
 * taken on: the same fixed loop of arithmetic on one CPU (about 0.7 s on these machines when idle;
 * it grows when the host is slower or busy) and the load averages.
 */
export function arithmeticLoopSeconds(): number {
  const started = performance.now();
  let x = 0;
  for (let i = 0; i < 300_000_000; i++) x += i % 7;
  if (x < 0) console.log(x); // keeps the loop from being optimized away
  return (performance.now() - started) / 1000;
}

/** The load averages over 1, 5 and 15 minutes, and the CPUs they are shared by. */
export function loadLine(): string {
  const averages = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
  return `load ${averages} (1 / 5 / 15 min) on ${os.cpus().length} CPUs`;
}

// Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node runs on.
const ticksPerSecond = 100;

/**
 * The fields of a `/proc/.../stat` line after the command's name, which is in parentheses and may
 * itself hold spaces: [1] is the parent's pid, [11] and [12] utime and stime, [13] and [14] the
 * waited-for children's cutime and cstime.
 */
function statFields(file: string): number[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
}

const cpuSecondsOf = (fields: number[], withExitedChildren = false) =>
  ((fields[11] ?? 0) + (fields[12] ?? 0) + (withExitedChildren ? (fields[13] ?? 0) + (fields[14] ?? 0) : 0)) / ticksPerSecond;

/**
 * The CPU-seconds so far of a PostgreSQL cluster: the postmaster's and every process it started,
 * the backends that have exited included (counted in the postmaster's children's times). Linux
 * only; `backendPid` is any backend of the cluster (`select pg_backend_pid()`).
 */
export function postgresCpuSeconds(backendPid: number): number {
  const postmaster = statFields(`/proc/${backendPid}/stat`)[1];
  let total = cpuSecondsOf(statFields(`/proc/${postmaster}/stat`), true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = statFields(`/proc/${entry}/stat`);
      if (fields[1] === postmaster) total += cpuSecondsOf(fields);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * This process's CPU-seconds so far by kind of thread, by the names Node 24 gives them
 * (`MainThread`, `libuv-worker` for the pool that runs zlib's and the file system's calls,
 * `V8Worker` for the garbage collector's and the compiler's helpers), so that a process's CPU can
 * be told apart.
 */
export function threadCpuSeconds(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + cpuSecondsOf(statFields(`/proc/self/task/${tid}/stat`)));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}
