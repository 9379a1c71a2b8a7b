import type { Database as SqliteDatabase } from 'better-sqlite3';
import type { CompiledQuery, SqliteStatement } from 'kysely';
import { setImmediate as endOfTurn } from 'node:timers';
import { withStatementCache } from './statement-cache.ts';

/**
 * Reads served straight from better-sqlite3, off Kysely's connection mutex.
 *
 * On SQLite every Kysely query takes the one connection's mutex, runs, and releases it over a chain of promises.
 * For a point lookup that plumbing costs more than SQLite's own work, and every read also waits behind whatever
 * holds the mutex (in a reconnect storm, the handshakes' writes). better-sqlite3 is synchronous and the
 * process has one thread, so a read run at once can interleave with nobody. The one state it must not run in is an
 * open transaction: between the write queue's `begin` and `commit` the connection would show the batch's
 * uncommitted rows. Outside one, it sees exactly the committed rows a read through the mutex would see; only
 * writes still waiting for the mutex are not in it, and nobody has been told of those yet.
 *
 * Only the database handle itself is registered: a Kysely transaction is another object, so its reads keep going
 * through the transaction's connection, and PostgreSQL is never registered. The reads of one turn share one read
 * transaction (`readSnapshot` below).
 */
interface DirectReader {
  snapshot: ReadSnapshot;
  /** Statements of our own: Kysely's cache ends the turn's read transaction before handing one out. */
  prepare(sql: string): SqliteStatement;
}

// Enough for every fixed-shape lookup; past it the oldest is dropped (texts with a literal LIMIT vary a little).
const MAX_STATEMENTS = 500;

const readers = new WeakMap<object, DirectReader>();

export function allowDirectReads(
  executor: object,
  database: SqliteDatabase,
  snapshot: ReadSnapshot,
): void {
  readers.set(executor, {
    snapshot,
    prepare: withStatementCache(database, MAX_STATEMENTS).prepare,
  });
}

export interface ReadSnapshot {
  /** Opens this turn's read transaction if none is open; false inside someone else's transaction. */
  enter(): boolean;
  /** Ends an open read transaction; every statement that is not a direct read runs this first. */
  end(): void;
}

/**
 * One read transaction per turn of the event loop, shared by every direct read of that turn.
 *
 * A read outside a transaction is a transaction of its own: SQLite takes and drops the file's shared lock (two
 * `fcntl` calls) and checks the file (an `fstat`) around a lookup that is itself a few microseconds: those system
 * calls were most of a lookup's cost, and a watch makes five (BENCHMARKS.md, "2026-11-27, late night"). Opening
 * `BEGIN` at the first direct read and ending it when the turn ends (`setImmediate`) pays them once for all the
 * reads of the turn.
 *
 * It never shows stale rows of our own: every other statement on the connection (Kysely's, and so the write queue's
 * `begin`) ends it first, so a read after a write starts a new snapshot that holds the write. Only a write by another
 * process (a maintenance script) can be seen up to one turn later than before; it is never blocked, since a WAL
 * reader does not block writers.
 */
export function readSnapshot(database: SqliteDatabase): ReadSnapshot {
  const begin = database.prepare('BEGIN');
  const commit = database.prepare('COMMIT');
  let open = false;
  const end = (): void => {
    if (!open) return;
    open = false;
    // Closing the handle (shutdown) already ended the transaction; checked rather than assumed, because a COMMIT
    // without one throws, and at the end of a turn nothing would catch it.
    if (database.open && database.inTransaction) commit.run();
  };
  return {
    enter() {
      if (open) return true;
      if (database.inTransaction) return false;
      begin.run();
      open = true;
      // The timers module's own function: a test's fake timers replace the global one and would never end it.
      endOfTurn(end);
      return true;
    },
    end,
  };
}

/** The query's rows, read now; `undefined` when it has to go through Kysely (see above). */
export function readDirectly<R>(executor: object, query: CompiledQuery): R[] | undefined {
  const reader = readers.get(executor);
  if (!reader) return undefined;
  const statement = reader.prepare(query.sql);
  // A write is left to Kysely before any read transaction opens for it.
  if (!statement.reader || !reader.snapshot.enter()) return undefined;
  return statement.all(query.parameters) as R[];
}
