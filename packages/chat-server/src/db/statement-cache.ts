import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import { shapedStatement } from './row-builder.ts';

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares each query anew. Our queries are
 * parameterised, so the SQL text repeats: caching compiled statements by text removes the biggest CPU cost of a
 * send. Beyond `capacity` the oldest statement is dropped (a hit does not reorder: cheaper, and the working set of
 * distinct statements is small). `beforeStatement` runs before each statement is handed out (the direct reads' open
 * read transaction ends there, see direct-read.ts). Rows come back with one shape per statement (row-builder.ts).
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = 1000,
  beforeStatement?: () => void,
): { close(): void; prepare(sql: string): SqliteStatement } {
  const cache = new Map<string, SqliteStatement>();
  const schema = schemaOf(database);
  let seen = schema.changes;
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      beforeStatement?.();
      if (seen !== schema.changes) {
        cache.clear();
        seen = schema.changes;
      }
      const hit = cache.get(sql);
      if (hit) return hit;
      // A schema change can change what `select *` returns, and a shaped statement knows its columns from when it
      // was prepared: every cache of the database drops what it prepared before one (migrations, at start-up).
      if (SCHEMA_CHANGE.test(sql)) {
        schema.changes += 1;
        return database.prepare(sql);
      }
      const statement = shapedStatement(database.prepare(sql));
      cache.set(sql, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}

const SCHEMA_CHANGE = /^\s*(alter|drop|create)\s/i;

/** Schema changes prepared on each database, shared by all its statement caches (Kysely's, the direct reads'). */
const schemas = new WeakMap<SqliteDatabase, { changes: number }>();

function schemaOf(database: SqliteDatabase): { changes: number } {
  let schema = schemas.get(database);
  if (!schema) schemas.set(database, (schema = { changes: 0 }));
  return schema;
}
