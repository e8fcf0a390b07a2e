import { globSync, readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const testFiles = 'src/**/*.test.{ts,tsx}';

/**
 * The test files that replace one of our modules with vi.mock. Files that share one module graph
 * also share its modules, so a mock would leak into the files after it (or miss, when another
 * file loaded the real module first): these run isolated, in vitest.mocks.config.ts.
 */
export const mockingTestFiles = globSync(testFiles, { cwd: import.meta.dirname }).filter((file) =>
  readFileSync(new URL(file, import.meta.url), 'utf8').includes('vi.mock('),
);

export const webTest = {
  environment: 'happy-dom',
  // A guard against a test that hangs, not a speed check: at a load of 20 on 2 CPUs the admin
  // panel's component tests took 5.2-7 s each and failed at the default 5 s.
  testTimeout: 30_000,
} as const;

export default defineConfig({
  plugins: [react()],
  test: {
    ...webTest,
    name: '@everest/web',
    include: [testFiles],
    exclude: mockingTestFiles,
    // The files of a worker share one module graph: React, Fluent UI and the app are loaded once
    // per worker rather than once per file, which was most of this project's time (on 2 CPUs, 58
    // files: 150 CPU-s isolated, 63 shared). Testing Library unmounts each test's render.
    isolate: false,
  },
});
