import { defineConfig } from 'vitest/config';
import { securityTestConfig } from './vitest.security.config.ts';

// The chat server's attack suite again on PostgreSQL (TEST_DATABASE_URL) and Redis pub/sub (REDIS_URL), where
// storage and the cluster can break in ways SQLite and one process cannot. Listed by vitest.config.ts only when
// both are provided.
export default defineConfig({
  test: {
    ...securityTestConfig,
    name: 'security-pg',
    include: ['packages/chat-server/test/security/**/*.test.ts'],
    // Per-process limiter state and the guest policy do not touch storage; their SQLite run covers them.
    exclude: [
      'packages/chat-server/test/security/rate-limits.test.ts',
      'packages/chat-server/test/security/guests.test.ts',
    ],
    env: { CHAT_TEST_DIALECT: 'postgres', CHAT_TEST_PUBSUB: 'redis' },
  },
});
