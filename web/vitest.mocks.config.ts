import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { mockingTestFiles, webTest } from './vitest.config';

/** The web tests that vi.mock one of our modules, each file in a module graph of its own. */
export default defineConfig({
  plugins: [react()],
  test: { ...webTest, name: '@everest/web-mocks', include: mockingTestFiles },
});
