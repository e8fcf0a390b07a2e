import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run over every package; each package's own vitest.config.ts says how its tests run.
export default defineConfig({
  test: {
    // One worker more than the CPUs (Vitest's default is one fewer): the server's tests spend much
    // of their time waiting on PostgreSQL and on sockets. On 2 CPUs, 3 workers took the run from
    // 556 s to 304 s. At most 8, as each test file's servers hold database connections.
    maxWorkers: Math.min(availableParallelism() + 1, 8),
    projects: [
      'core',
      'fixtures',
      'server',
      'server/vitest.s3.config.ts',
      'web',
      'desktop',
      // The workspace's own tooling (the build stamp of `pnpm start`).
      { test: { name: 'scripts', include: ['server/scripts/*.test.ts'] } },
    ],
  },
});
