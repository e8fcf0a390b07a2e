/**
 * `pnpm start` restarted with nothing changed: the time from the command to
 * the first answer of /api/health, goal under 10 s. The first start, beside it, builds what
 * changed since the last build and creates and seeds the embedded PostgreSQL; the restarts then
 * find every build up to date (server/scripts/build.ts) and the database there.
 * `--fresh-clone` first removes the builds and their stamps, as a newcomer's clone has none: the
 * first start then builds everything (goal under 60 s), and the restarts wait until the Zopfli
 * copies it left to the background are made.
 */
import { existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDataDir, startProductServer } from './product-server';

const goalSeconds = 10;
const firstStartGoalSeconds = 60;
const restarts = 3;
const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const freshClone = process.argv.includes('--fresh-clone');
// server/scripts/build.ts's outputs and stamps, and the file there while Zopfli's copies are pending.
const builds = ['web/dist', 'web/dist-ssr', 'server/dist'];
const zopfliPending = path.join(repoDir, 'web/dist-ssr/zopfli-pending');

const load = () => os.loadavg()[0]?.toFixed(1);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

const dataDir = newDataDir();
if (freshClone) for (const build of builds) rmSync(path.join(repoDir, build), { recursive: true, force: true });
console.log(`pnpm start, first start${freshClone ? ' of a fresh clone' : ''} then ${restarts} restarts with nothing changed (load average ${load()} on ${os.cpus().length} CPUs)`);
const first = await startProductServer({ command: ['start'], dataDir });
console.log(
  `  first start (builds ${freshClone ? 'everything' : 'what changed'}, creates and seeds the database): ${seconds(first.readyAfterMs)} s to the first answer (load average ${load()})`,
);
if (freshClone) console.log(`  goal < ${firstStartGoalSeconds} s: ${first.readyAfterMs < firstStartGoalSeconds * 1000 ? 'met' : 'NOT met'}`);
const firstAnswered = performance.now();
while (existsSync(zopfliPending)) await new Promise((resolve) => setTimeout(resolve, 1000));
if (freshClone) console.log(`  Zopfli's gzip copies made ${seconds(performance.now() - firstAnswered)} s after the first answer (load average ${load()})`);
await first.stop({ keepData: true });
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
