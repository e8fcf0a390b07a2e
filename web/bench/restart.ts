/**
 * `pnpm start` restarted with nothing changed: the time from the command to
 * the first answer of /api/health, goal under 10 s. The first start, beside it, builds what
 * changed since the last build and creates and seeds the embedded PostgreSQL; the restarts then
 * find every build up to date (server/scripts/build.ts) and the database there.
 */
import { rmSync } from 'node:fs';
import os from 'node:os';
import { newDataDir, startProductServer } from './product-server';

const goalSeconds = 10;
const restarts = 3;

const load = () => os.loadavg()[0]?.toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

const dataDir = newDataDir();
console.log(`pnpm start, first start then ${restarts} restarts with nothing changed (load average ${load()} on ${os.cpus().length} CPUs)`);
const first = await startProductServer({ command: ['start'], dataDir });
await first.stop({ keepData: true });
console.log(`  first start (builds what changed, creates and seeds the database): ${seconds(first.readyAfterMs)} s to the first answer`);
const times: number[] = [];
try {
  for (let i = 0; i < restarts; i++) {
    const server = await startProductServer({ command: ['start'], dataDir });
    times.push(server.readyAfterMs);
    await server.stop({ keepData: i < restarts - 1 });
  }
} finally {
  // The last stop removes the folder; after a failure it may still be there.
  rmSync(dataDir, { recursive: true, force: true });
}
const slowest = Math.max(...times);
console.log(`  restarts: ${times.map(seconds).join(' s, ')} s to the first answer (load average ${load()})`);
console.log(`  goal < ${goalSeconds} s, slowest restart: ${slowest < goalSeconds * 1000 ? 'met' : 'NOT met'}`);
