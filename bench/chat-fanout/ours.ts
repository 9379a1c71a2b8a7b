import { existsSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('.', import.meta.url).pathname;
const harness = join(here, '..', '..', 'packages', 'chat-server', 'src', 'testing', 'harness.ts');

/** Null when our chat server can be started, else why not (the report says so instead of failing the run). */
export function oursAvailability(): string | null {
  return existsSync(harness) ? null : `${harness} does not exist yet`;
}

/** How to start our chat server as a child process (always SQLite: the harness picks Postgres only when asked). */
export function oursServerLaunch(): { script: string; args: string[]; env: NodeJS.ProcessEnv } {
  return { script: join(here, 'ours-server.ts'), args: [], env: { CHAT_TEST_DIALECT: 'sqlite' } };
}
