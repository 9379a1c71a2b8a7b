import { defineConfig } from 'vitest/config';

// One runner for every workspace, so `npm test` prints a single summary.
// The chat server's PostgreSQL project runs only when a database is provided (TEST_DATABASE_URL); the attack suite
// (`security`) always runs, and again on PostgreSQL and Redis (`security-pg`) when both are provided.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine. The integration tests
    // mostly wait on sockets and databases, so two workers overlap those waits (measured: 660 s → 446 s, same results).
    maxWorkers: 2,
    projects: [
      'packages/*/vitest.config.ts',
      'apps/*/vitest.config.ts',
      './vitest.security.config.ts',
      ...(process.env.TEST_DATABASE_URL ? ['packages/chat-server/vitest.pg.config.ts'] : []),
      ...(process.env.TEST_DATABASE_URL && process.env.REDIS_URL
        ? ['./vitest.security-pg.config.ts']
        : []),
    ],
  },
});
