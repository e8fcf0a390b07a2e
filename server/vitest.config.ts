import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'drills/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // The files of a worker share one module graph: each starts its own server over its own
    // database and passes its config in, so nothing of one file's state reaches the next. Loading
    // the server's modules again for every file was most of this project's time (on 2 CPUs, 30
    // files: 127 s isolated, 89 s shared).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
