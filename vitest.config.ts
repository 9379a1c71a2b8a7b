import { defineConfig } from 'vitest/config';

// One runner for every workspace, so `npm test` prints a single summary.
// The chat server's PostgreSQL project runs only when a database is provided (TEST_DATABASE_URL).
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      ...(process.env.TEST_DATABASE_URL ? ['packages/chat-server/vitest.pg.config.ts'] : []),
    ],
  },
});
