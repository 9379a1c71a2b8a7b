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
  /** Raw-mode statements (rows as arrays) with their column names, by SQL text; never shared with Kysely's. */
  statements: Map<string, RawRead | null>;
}

interface RawRead {
  statement: Statement;
  columns: string[];
}

// Enough for every fixed-shape lookup; past it the oldest is dropped (texts with a literal LIMIT vary a little).
const MAX_STATEMENTS = 500;

const readers = new WeakMap<object, DirectReader>();

export function allowDirectReads(executor: object, database: SqliteDatabase): void {
  readers.set(executor, { database, statements: new Map() });
}

/** The query's rows, read now; `undefined` when it has to go through Kysely (see above). */
export function readDirectly<R>(executor: object, query: CompiledQuery): R[] | undefined {
  const reader = readers.get(executor);
  if (!reader || reader.database.inTransaction) return undefined;
  const read = rawRead(reader, query.sql);
  if (!read) return undefined;
  const rows = read.statement.all(query.parameters) as unknown[][];
  return rows.map((values) => toRow(read.columns, values) as R);
}

/**
 * better-sqlite3 builds each row object property by property in C++, which for a wide row (a channel's 21 columns)
 * costs more than the lookup itself; arrays come back in a third of the time, and the object is built here.
 */
function rawRead(reader: DirectReader, sql: string): RawRead | null {
  let read = reader.statements.get(sql);
  if (read === undefined) {
    const statement = reader.database.prepare(sql);
    const columns = statement.reader ? statement.columns().map((c) => c.name) : [];
    // A column named like the prototype would set it on the plain object below: leave such a query to Kysely.
    read =
      statement.reader && !columns.includes('__proto__')
        ? { statement: statement.raw(true), columns }
        : null;
    if (reader.statements.size >= MAX_STATEMENTS)
      reader.statements.delete(reader.statements.keys().next().value!);
    reader.statements.set(sql, read);
  }
  return read;
}

function toRow(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  // Same order for every row of a statement, so V8 gives them one shape; a repeated name keeps the last value,
  // as better-sqlite3's own rows do.
  for (let i = 0; i < columns.length; i += 1) row[columns[i]!] = values[i];
  return row;
}
