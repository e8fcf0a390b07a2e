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

/** User and system CPU-seconds of a process (`/proc/<pid>/stat`), with its waited-for children's when asked. */
function processCpuSeconds(pid: number, withExitedChildren: boolean): number {
  // The fields after the command's closing parenthesis: utime is the 12th, cutime and cstime the 14th and 15th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = (i: number) => Number(fields[i] ?? 0);
  const own = ticks(11) + ticks(12);
  return (withExitedChildren ? own + ticks(13) + ticks(14) : own) / ticksPerSecond;
}

// Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node runs on.
const ticksPerSecond = 100;

/**
 * The CPU-seconds so far of a PostgreSQL cluster: the postmaster's and every process it started,
 * the backends that have exited included (counted in the postmaster's children's times). Linux
 * only; `backendPid` is any backend of the cluster (`select pg_backend_pid()`).
 */
export function postgresCpuSeconds(backendPid: number): number {
  const postmaster = Number(readFileSync(`/proc/${backendPid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  let total = processCpuSeconds(postmaster, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.split(') ')[1]?.split(' ')[1]) === postmaster) total += processCpuSeconds(Number(entry), false);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * This process's CPU-seconds so far by kind of thread (Linux's thread names: `node` for the main
 * thread, `libuv-worker` for the pool that runs zlib's and the file system's calls, `V8 DefaultWorke`
 * for the garbage collector's and the compiler's helpers), so that a process's CPU can be told apart.
 */
export function threadCpuSeconds(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / ticksPerSecond);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return byName;
}
