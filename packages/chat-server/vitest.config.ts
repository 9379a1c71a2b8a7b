import { defineConfig } from 'vitest/config';

/** Shared by the SQLite project (this file) and the PostgreSQL project (vitest.pg.config.ts). */
export const chatServerTestConfig = {
  environment: 'node' as const,
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  // The attack suite is its own project (vitest.security.config.ts at the repository root).
  exclude: ['test/security/**', 'node_modules/**'],
  // The real stream-chat client runs in Node here: src/testing/abandoned-sockets.ts.
  setupFiles: ['./src/testing/vitest-setup.ts'],
  testTimeout: 20_000,
  hookTimeout: 20_000,
  // Test files share their worker's module cache, so each file no longer imports the whole server again (about 1.3 s
  // a file; the whole Vitest run went from 661 s to 364 s). Every file starts its own servers and databases; state
  // at module level is shared between files and must stay keyed by server instance.
  isolate: false,
};

// Vitest does not nest projects, so the PostgreSQL run of the same files is a sibling config that the root
// vitest.config.ts lists only when TEST_DATABASE_URL is set.
export default defineConfig({
  test: { ...chatServerTestConfig, name: 'chat-server', env: { CHAT_TEST_DIALECT: 'sqlite' } },
});
