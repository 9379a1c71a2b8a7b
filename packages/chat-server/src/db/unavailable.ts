/*
 * Failures that say "the database cannot be reached right now" rather than "this request is wrong" or "we have a
 * bug". They happen during a database restart, a failover, a network cut or an overload, and during our own
 * shutdown; a request that meets one is answered code -1 / HTTP 503 (errors.ts: chatError.unavailable) so the
 * caller knows to retry, instead of a 500 that reads as a bug.
 */

/** Socket-level failures from the driver (node's errno codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception) plus the server shutting down or starting (57P0x), too many
 * connections (53300) and a cancelled statement (57014: our statement_timeout).
 */
const POSTGRES_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** The SQLite database is locked by another writer for longer than busy_timeout. */
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED']);

/** Messages of pg, pg-pool, better-sqlite3 and Kysely for a connection that broke, timed out or was closed. */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
  /^The database connection is not open/,
  /^driver has already been destroyed/,
];

function unavailableHere(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SQLITE_CODES.has(code) || POSTGRES_STATES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error` (or one of its causes) means the database is unreachable, closed or overloaded. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    if (unavailableHere(current)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
