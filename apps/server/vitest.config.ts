import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Password hashing (scrypt) makes each sign-up/sign-in cost tens of milliseconds on a busy 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
