import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema.ts';

export interface DatabaseHandles {
  /** The raw handle, shared with better-auth so both see one file and one connection. */
  sqlite: BetterSqlite3.Database;
  /** Our typed queries over the same handle. */
  db: Kysely<Database>;
  /** Closes the handle (and with it better-auth's access). Safe to call twice. */
  close: () => Promise<void>;
}

export const DATABASE_FILE = 'daohuu.db';

/** Opens DATA_DIR/daohuu.db (creating the directory), in WAL mode with foreign keys enforced. */
export function openDatabase(dataDir: string): DatabaseHandles {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(join(dataDir, DATABASE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // A second process (a script, a backup) may briefly hold the write lock; wait instead of failing at once.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  let closed = false;
  return {
    sqlite,
    db,
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/** Creates our own tables; better-auth's tables come from its migrations (auth/create-auth.ts). */
export async function migrateAppTables(db: Kysely<Database>): Promise<void> {
  await db.schema
    .createTable('app_meta')
    .ifNotExists()
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('updatedAt', 'text', (column) =>
      column.notNull().defaultTo(sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
    )
    .execute();
  // Added with the breakthrough announcements (profile/breakthroughs.ts); `ifNotExists` keeps older files working.
  await db.schema
    .createTable('user_settings')
    .ifNotExists()
    .addColumn('userId', 'text', (column) => column.primaryKey())
    .addColumn('announceBreakthrough', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('updatedAt', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('realm_announcement')
    .ifNotExists()
    .addColumn('userId', 'text', (column) => column.notNull())
    .addColumn('realmIndex', 'integer', (column) => column.notNull())
    .addColumn('announcedAt', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('realm_announcement_pk', ['userId', 'realmIndex'])
    .execute();
}
