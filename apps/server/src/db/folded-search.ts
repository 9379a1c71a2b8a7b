import { foldVietnamese } from '@daohuu/domain';
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';

const FOLD_FUNCTION = 'daohuu_fold';

/**
 * Folds text for search the way Vietnamese users type: without diacritics and case ("dao huu", "Đạo Hữu" and
 * "đạo hữu" are the same), with "đ" as "d". The one rule of @daohuu/domain, so the admin's user search and the
 * chat server's message, user and channel search agree on what matches.
 */
export function foldForSearch(text: string): string {
  return foldVietnamese(text);
}

/** Makes `daohuu_fold(text)` available to SQL on this connection; SQLite's own lower() folds ASCII only. */
export function registerSearchFunctions(sqlite: BetterSqlite3.Database): void {
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldForSearch(value) : null,
  );
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function foldedQuery(query: string): string {
  return escapeLike(foldForSearch(query.normalize('NFC').trim()));
}

/** `column` contains `query` once both are folded (no case, no diacritics): `%` and `_` in the query are literal. */
export function foldedContains(column: string, query: string) {
  return sql<boolean>`${sql.raw(FOLD_FUNCTION)}(${sql.ref(column)}) like ${`%${foldedQuery(query)}%`} escape '\\'`;
}

/** `column` starts with `query` once both are folded, as `foldedContains`. */
export function foldedStartsWith(column: string, query: string) {
  return sql<boolean>`${sql.raw(FOLD_FUNCTION)}(${sql.ref(column)}) like ${`${foldedQuery(query)}%`} escape '\\'`;
}
