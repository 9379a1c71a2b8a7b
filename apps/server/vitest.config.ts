import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The attack suite is its own project (vitest.security.config.ts at the repository root).
    exclude: ['test/security/**', 'node_modules/**'],
    // The real stream-chat client runs in Node here: packages/chat-server/src/testing/abandoned-sockets.ts.
    setupFiles: ['@daohuu/chat-server/testing/vitest-setup'],
    // Password hashing (scrypt) makes each sign-up/sign-in cost tens of milliseconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // As in packages/chat-server/vitest.config.ts: files share their worker's module cache, not their servers.
    isolate: false,
  },
});
