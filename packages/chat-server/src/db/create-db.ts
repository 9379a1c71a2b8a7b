import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { ChatServerConfig } from '../config.ts';
import type { Database, Db, SqlDialectKind } from './schema.ts';
import { withStatementCache } from './statement-cache.ts';

export interface DbHandle {
  db: Db;
  kind: SqlDialectKind;
  close(): Promise<void>;
}

/** The one switch on the database kind: everything above this file talks to a `Kysely<Database>`. */
export function createDb(config: ChatServerConfig['db']): DbHandle {
  switch (config.kind) {
    case 'sqlite': {
      if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
      const database = new SQLite(config.file);
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      // See lowerText() in dialect.ts.
      database.function('unicode_lower', { deterministic: true }, (value: unknown) =>
        typeof value === 'string' ? value.toLocaleLowerCase() : value,
      );
      const db = new Kysely<Database>({
        dialect: new SqliteDialect({ database: withStatementCache(database) }),
      });
      return { db, kind: 'sqlite', close: () => db.destroy() };
    }
    case 'postgres': {
      const schema = config.schema;
      const pool = new pg.Pool({
        connectionString: config.url,
        max: config.poolSize,
        // Each connection starts in the configured schema, so tests can isolate servers in one database.
        ...(schema ? { options: `-c search_path=${schema}` } : {}),
      });
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      return { db, kind: 'postgres', close: () => db.destroy() };
    }
  }
}
