import { upsertApps } from '../apps.ts';
import { parseConfig } from '../config.ts';
import { createDb, type DbHandle } from '../db/create-db.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createPostgresSchema } from './postgres-schema.ts';

// Repository tests run once per Vitest project: SQLite in memory, or a fresh PostgreSQL schema.
const env = process.env;

export interface TestDb extends DbHandle {
  appId: string;
}

/** A migrated, empty database with one app row (`test-app`), on the dialect of the current test project. */
export async function createTestDb(): Promise<TestDb> {
  const appId = 'test-app';
  let handle: DbHandle;
  let drop: (() => Promise<void>) | undefined;
  if (env.CHAT_TEST_DIALECT === 'postgres') {
    const url = env.TEST_DATABASE_URL;
    if (!url) throw new Error('CHAT_TEST_DIALECT=postgres needs TEST_DATABASE_URL');
    const { schema, drop: dropSchema } = await createPostgresSchema(url, 'repo_test');
    const { db } = parseConfig({
      apps: [{ id: appId, key: appId, secret: 'secret' }],
      db: { kind: 'postgres', url, schema, poolSize: 3 },
    });
    handle = createDb(db);
    drop = dropSchema;
  } else {
    handle = createDb({ kind: 'sqlite', file: ':memory:' });
  }
  await migrateToLatest(handle.db, handle.kind);
  const config = parseConfig({ apps: [{ id: appId, key: appId, secret: 'secret' }] });
  await upsertApps(handle.db, config.apps, '2024-01-01T00:00:00.000000Z');
  return {
    ...handle,
    appId,
    async close() {
      await handle.close();
      await drop?.();
    },
  };
}

/** The smallest users row repository tests can insert (text timestamps: nothing here reads them). */
export function testUserRow(appId: string, id: string, role = 'user') {
  return {
    app_id: appId,
    id,
    role,
    language: '',
    custom: '{}',
    teams: '[]',
    banned: 0,
    invisible: 0,
    created_at: 'x',
    updated_at: 'x',
  };
}

export function dialectName(): string {
  return env.CHAT_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
}
