import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares each query anew. Our queries are
 * parameterised, so the SQL text repeats: caching compiled statements by text removes the biggest CPU cost of a
 * send. Beyond `capacity` the oldest statement is dropped (a hit does not reorder: cheaper, and the working set of
 * distinct statements is small).
 */
export function withStatementCache(
  database: SqliteDatabase,
  capacity = 1000,
): { close(): void; prepare(sql: string): Statement } {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): Statement {
      const hit = cache.get(sql);
      if (hit) return hit;
      const statement = database.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}
