import { defineConfig } from 'vitest/config';

// Drills: slow failure rehearsals against real processes (a database outage of ten seconds) and
// the printed tables, run by `pnpm drill`, not by `pnpm test`.
export default defineConfig({
  test: {
    name: 'server-drill',
    include: ['drills/**/*.drill.ts'],
    // A migrated template database to copy per drill (test/harness.ts), as in `pnpm test`.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
