import { defineConfig } from 'vitest/config';
import { chatServerTestConfig } from './vitest.config.ts';

// The chat-server suite against PostgreSQL (TEST_DATABASE_URL); each test server gets its own schema.
export default defineConfig({
  test: { ...chatServerTestConfig, name: 'chat-server-pg', env: { CHAT_TEST_DIALECT: 'postgres' } },
});
