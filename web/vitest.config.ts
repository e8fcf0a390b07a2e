import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    // A guard against a test that hangs, not a speed check: at a load of 20 on 2 CPUs the admin
    // panel's component tests took 5.2-7 s each and failed at the default 5 s.
    testTimeout: 30_000,
  },
});
