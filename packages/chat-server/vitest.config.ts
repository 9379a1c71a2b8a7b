import { defineConfig } from 'vitest/config';

/** Shared by the SQLite project (this file) and the PostgreSQL project (vitest.pg.config.ts). */
export const chatServerTestConfig = {
  environment: 'node' as const,
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  // The attack suite is its own project (vitest.security.config.ts at the repository root).
  exclude: ['test/security/**', 'node_modules/**'],
  testTimeout: 20_000,
  hookTimeout: 20_000,
};

// Vitest does not nest projects, so the PostgreSQL run of the same files is a sibling config that the root
// vitest.config.ts lists only when TEST_DATABASE_URL is set.
export default defineConfig({
  test: { ...chatServerTestConfig, name: 'chat-server', env: { CHAT_TEST_DIALECT: 'sqlite' } },
});
