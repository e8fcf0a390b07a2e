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
