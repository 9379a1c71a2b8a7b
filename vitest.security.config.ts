import { defineConfig } from 'vitest/config';

/**
 * The attack suite (`security` project): one file per threat area, each test an attack that must fail. It spans the
 * chat server (packages/chat-server/test/security) and the product server (apps/server/test/security), on SQLite and
 * in-process pub/sub. The storage and cluster attacks run again on PostgreSQL and Redis in `security-pg`
 * (vitest.security-pg.config.ts). docs/security.md maps every promise to its test.
 */
export const securityTestConfig = {
  environment: 'node' as const,
  // The real stream-chat client runs in Node here: packages/chat-server/src/testing/abandoned-sockets.ts.
  setupFiles: ['@daohuu/chat-server/testing/vitest-setup'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // As in packages/chat-server/vitest.config.ts: files share their worker's module cache, not their servers.
  isolate: false,
};

export default defineConfig({
  test: {
    ...securityTestConfig,
    name: 'security',
    include: [
      'packages/chat-server/test/security/**/*.test.ts',
      'apps/server/test/security/**/*.test.ts',
    ],
    env: { CHAT_TEST_DIALECT: 'sqlite' },
  },
});
