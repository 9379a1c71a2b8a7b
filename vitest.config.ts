import { defineConfig } from 'vitest/config';

// One runner for every workspace, so `npm test` prints a single summary.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
  },
});
