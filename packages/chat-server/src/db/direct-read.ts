import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { withStatementCache } from './statement-cache.ts';

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
  /** Statements of our own, never Kysely's: returning rows as arrays (`raw`) is a setting of the statement. */
  prepare(sql: string): Statement;
}

// Enough for every fixed-shape lookup; past it the oldest is dropped (texts with a literal LIMIT vary a little).
const MAX_STATEMENTS = 500;

const readers = new WeakMap<object, DirectReader>();
/** Each statement's column names, or null for one left to Kysely. */
const columnsByStatement = new WeakMap<Statement, string[] | null>();

export function allowDirectReads(executor: object, database: SqliteDatabase): void {
  readers.set(executor, {
    database,
    prepare: withStatementCache(database, MAX_STATEMENTS).prepare,
  });
}

/** The query's rows, read now; `undefined` when it has to go through Kysely (see above). */
export function readDirectly<R>(executor: object, query: CompiledQuery): R[] | undefined {
  const reader = readers.get(executor);
  if (!reader || reader.database.inTransaction) return undefined;
  const statement = reader.prepare(query.sql);
  const columns = columnsOf(statement);
  if (!columns) return undefined;
  const rows = statement.all(query.parameters) as unknown[][];
  return rows.map((values) => toRow(columns, values) as R);
}

/**
 * better-sqlite3 builds each row object property by property in C++, which for a wide row (a channel's 21 columns)
 * costs more than the lookup itself; arrays come back in a third of the time, and the object is built here.
 */
function columnsOf(statement: Statement): string[] | null {
  let columns = columnsByStatement.get(statement);
  if (columns === undefined) {
    columns = statement.reader ? statement.columns().map((c) => c.name) : null;
    // A column named like the prototype would set it on the plain object below: leave such a query to Kysely.
    if (columns?.includes('__proto__')) columns = null;
    if (columns) statement.raw(true);
    columnsByStatement.set(statement, columns);
  }
  return columns;
}

function toRow(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  // Same order for every row of a statement, so V8 gives them one shape; a repeated name keeps the last value,
  // as better-sqlite3's own rows do.
  for (let i = 0; i < columns.length; i += 1) row[columns[i]!] = values[i];
  return row;
}
