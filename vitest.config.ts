import { defineConfig } from 'vitest/config';

// One run over every package; each package's own vitest.config.ts says how its tests run.
export default defineConfig({
  test: {
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
