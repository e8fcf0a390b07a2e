import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'desktop',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // The sync's tests run against the real server over a real PostgreSQL, started as the
    // server's own tests start it: one cluster per run, a database per test file.
    globalSetup: [fileURLToPath(import.meta.resolve('@everest/server/testing/global-setup'))],
    // As the server's project (../server/vitest.config.ts): one module graph per worker.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
