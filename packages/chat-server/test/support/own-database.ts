import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatServerConfigInput } from '../../src/config.ts';
import { createPostgresSchema } from '../../src/testing/harness.ts';

/**
 * A database of the test's own (a PostgreSQL schema when CHAT_TEST_DIALECT=postgres, else a SQLite file), kept by
 * the test so it can change it beside the server, between restarts (data migrations). `cleanups` gets its removal.
 */
export async function ownDatabase(
  prefix: string,
  cleanups: (() => Promise<void> | void)[],
): Promise<ChatServerConfigInput['db']> {
  if (process.env.CHAT_TEST_DIALECT === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const { schema, drop } = await createPostgresSchema(url);
    cleanups.push(drop);
    return { kind: 'postgres', url, schema, poolSize: 3 };
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { kind: 'sqlite', file: join(dir, 'chat.sqlite') };
}
