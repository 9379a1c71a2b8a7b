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
}
