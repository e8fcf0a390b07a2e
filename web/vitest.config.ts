import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // Each test file imports the UI libraries afresh (its own module graph, isolated: see the
    // decision on web component tests in the README). Bundled once into a file each, they import
    // in a fraction of the time: the project's 273 tests took 80-92 CPU-seconds instead of 123.
    deps: {
      optimizer: {
        client: {
          enabled: true,
          include: [
            '@fluentui/react-components',
            '@fluentui/react-shared-contexts',
            '@tanstack/react-query',
            '@tanstack/react-table',
            'react',
            'react-dom',
            'react-dom/client',
            'react/jsx-runtime',
            'react/jsx-dev-runtime',
          ],
        },
      },
    },
    // A guard against a test that hangs, not a speed check: at a load of 20 on 2 CPUs the admin
    // panel's component tests took 5.2-7 s each and failed at the default 5 s.
    testTimeout: 30_000,
  },
});
