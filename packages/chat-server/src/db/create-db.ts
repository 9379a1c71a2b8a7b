import { foldVietnamese } from '@daohuu/domain';
import SQLite from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { ChatServerConfig } from '../config.ts';
import { allowDirectReads, readSnapshot } from './direct-read.ts';
import { CurrentSchemaPostgresDialect } from './current-schema-introspector.ts';
import type { Database, Db, SqlDialectKind } from './schema.ts';
import { SqliteLimitLiteralPlugin } from './sqlite-limit-literal.ts';
import { withStatementCache } from './statement-cache.ts';

export interface DbHandle {
  db: Db;
  kind: SqlDialectKind;
  close(): Promise<void>;
}

export interface DbLogger {
  warn(obj: object, msg: string): void;
}

/** The one switch on the database kind: everything above this file talks to a `Kysely<Database>`. */
export function createDb(config: ChatServerConfig['db'], log?: DbLogger): DbHandle {
  switch (config.kind) {
    case 'sqlite': {
      if (config.file !== ':memory:') mkdirSync(dirname(config.file), { recursive: true });
      const database = new SQLite(config.file);
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = NORMAL');
      database.pragma('foreign_keys = ON');
      database.pragma('busy_timeout = 5000');
      // Search reads one message row per candidate, scattered over the file (bench/search/levers.ts): a memory map
      // serves them without a read call and a copy each, and a 64 MB page cache keeps the hot index pages. Both are
      // upper bounds, not allocations; the map is read-only (writes still go through the WAL).
      database.pragma('cache_size = -65536');
      database.pragma('mmap_size = 1073741824');
      // See lowerText() in dialect.ts.
      database.function('unicode_lower', { deterministic: true }, (value: unknown) =>
        typeof value === 'string' ? value.toLocaleLowerCase() : value,
      );
      // See foldedText() in dialect.ts.
      database.function('fold_vi', { deterministic: true }, (value: unknown) =>
        typeof value === 'string' ? foldVietnamese(value) : value,
      );
      const snapshot = readSnapshot(database);
      const db = new Kysely<Database>({
        dialect: new SqliteDialect({ database: withStatementCache(database, 1000, snapshot.end) }),
        plugins: [new SqliteLimitLiteralPlugin()],
      });
      allowDirectReads(db, database, snapshot);
      return { db, kind: 'sqlite', close: () => db.destroy() };
    }
    case 'postgres': {
      const pool = createPool(config, log);
      const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
      return { db, kind: 'postgres', close: () => db.destroy() };
    }
  }
}

type PostgresConfig = Extract<ChatServerConfig['db'], { kind: 'postgres' }>;

/**
 * A pool that rides out a database restart: a connection the server ends (restart, failover, pg_terminate_backend)
 * emits 'error', which would kill the process without a listener, whether it sits idle in the pool (the pool
 * re-emits it) or is checked out by a query (the client emits it). With the listeners the broken connection is
 * dropped, the query on it fails with a 503 (db/unavailable.ts), and the next query opens a new one. Waiting for a
 * connection is bounded, so an unreachable database fails requests before the client's own 3 s timeout.
 */
function createPool(config: PostgresConfig, log: DbLogger | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolSize,
    application_name: config.applicationName,
    connectionTimeoutMillis: config.connectTimeoutMs,
    ...(config.statementTimeoutMs > 0 ? { statement_timeout: config.statementTimeoutMs } : {}),
    // A peer that vanished without closing the socket is noticed instead of waited on forever.
    keepAlive: true,
    // Each connection starts in the configured schema, so tests can isolate servers in one database.
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  pool.on('connect', (client) =>
    client.on('error', (error) =>
      log?.warn({ err: error }, 'database connection lost; it will be replaced'),
    ),
  );
  // The same error again, re-emitted by the pool for an idle connection: logged above already.
  pool.on('error', () => undefined);
  return pool;
}
