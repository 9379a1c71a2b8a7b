import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares each query anew. Our queries are
 * parameterised, so the SQL text repeats: caching compiled statements by text removes the biggest CPU cost of a
 * send. Beyond `capacity` the oldest statement is dropped (a hit does not reorder: cheaper, and the working set of
 * distinct statements is small). `beforeStatement` runs before each statement is handed out (the direct reads' open
 * read transaction ends there, see direct-read.ts).
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = 1000,
  beforeStatement?: () => void,
): { close(): void; prepare(sql: string): Statement } {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): Statement {
      beforeStatement?.();
      const hit = cache.get(sql);
      if (hit) return hit;
      const statement = database.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}
