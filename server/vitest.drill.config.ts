import { defineConfig } from 'vitest/config';

// Drills: slow failure rehearsals against real processes (a database outage of ten seconds),
// run by `pnpm drill`, not by `pnpm test`.
export default defineConfig({
  test: {
    name: 'server-drill',
    include: ['src/**/*.drill.ts'],
    // Drills that use the test harness get a database per file from the migrated template.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
