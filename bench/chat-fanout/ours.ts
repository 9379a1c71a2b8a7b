import { existsSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const harness = join(here, '..', '..', 'packages', 'chat-server', 'src', 'testing', 'harness.ts');

/** Null when our chat server can be started, else why not (the report says so instead of failing the run). */
export function oursAvailability(): string | null {
  return existsSync(harness) ? null : `${harness} does not exist yet`;
}

/**
 * How to start our chat server as a child process: SQLite in a fresh file unless `config` names another database
 * (and pub/sub, and the app credentials several nodes of one cluster share).
 */
export function oursServerLaunch(config: Record<string, unknown> = {}): {
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
} {
  return {
    script: join(here, 'ours-server.ts'),
    args: [],
    // The harness would pick Postgres or Redis from these test variables; the benchmark says what it wants instead.
    env: {
      CHAT_TEST_DIALECT: 'sqlite',
      CHAT_TEST_PUBSUB: 'memory',
      BENCH_CHAT_CONFIG: JSON.stringify(config),
    },
  };
}
