import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';

/**
 * Reads served straight from better-sqlite3, off Kysely's connection mutex.
 *
 * On SQLite every Kysely query takes the one connection's mutex, runs, and releases it over a chain of promises.
 * For a point lookup that plumbing costs more than SQLite's own work, and every read also waits behind whatever
 * holds the mutex (a reconnect storm's handshakes read about ten rows each). better-sqlite3 is synchronous and the
 * process has one thread, so a read run at once can interleave with nobody. The one state it must not run in is an
 * open transaction: between the write queue's `begin` and `commit` the connection would show the batch's
 * uncommitted rows. Outside one, it sees exactly the committed rows a read through the mutex would see; only
 * writes still waiting for the mutex are not in it, and nobody has been told of those yet.
 *
 * Only the database handle itself is registered: a Kysely transaction is another object, so its reads keep going
 * through the transaction's connection, and PostgreSQL is never registered.
 */
interface DirectReader {
  database: SqliteDatabase;
  prepare(sql: string): Statement;
}

const readers = new WeakMap<object, DirectReader>();

export function allowDirectReads(executor: object, reader: DirectReader): void {
  readers.set(executor, reader);
}

/** The query's rows, read now; `undefined` when it has to go through Kysely (see above). */
export function readDirectly<R>(executor: object, query: CompiledQuery): R[] | undefined {
  const reader = readers.get(executor);
  if (!reader || reader.database.inTransaction || !reader.database.open) return undefined;
  const statement = reader.prepare(query.sql);
  if (!statement.reader) return undefined;
  return statement.all(query.parameters) as R[];
}
