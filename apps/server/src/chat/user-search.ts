import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Result of GET /api/users/search (docs/product-api.md). */
export interface UserSearchHit {
  id: string;
  daoHieu: string;
  tuVi: number;
  image: string | null;
}

export const USER_SEARCH_LIMIT = 20;
export const USER_SEARCH_MAX_QUERY_LENGTH = 100;

const FOLD_FUNCTION = 'daohuu_fold';

/**
 * Folds text for search the way Vietnamese users type: without diacritics and case ("dao huu", "Đạo Hữu" and
 * "đạo hữu" are the same), with "đ" as "d" (it is a letter of its own, not a marked "d").
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[đĐ]/g, 'd').toLowerCase();
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

/** `column` contains `query` once both are folded (no case, no diacritics): `%` and `_` in the query are literal. */
export function foldedContains(column: string, query: string) {
  const pattern = `%${escapeLike(foldForSearch(query.normalize('NFC').trim()))}%`;
  return sql<boolean>`${sql.raw(FOLD_FUNCTION)}(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/**
 * Users whose đạo hiệu contains `query` (folded), names starting with it first, then by name; `excludeId` (the
 * searcher) is left out. An empty query lists users by name.
 */
export async function searchUsersByDaoHieu(
  db: Kysely<Database>,
  query: string,
  excludeId: string,
): Promise<UserSearchHit[]> {
  const folded = foldForSearch(query.normalize('NFC').trim());
  const foldedName = sql<string>`${sql.raw(FOLD_FUNCTION)}(name)`;
  const rows = await db
    .selectFrom('user')
    .select(['id', 'name', 'tuVi', 'image'])
    .where('id', '!=', excludeId)
    .where(foldedContains('name', query))
    .orderBy(sql`${foldedName} like ${`${escapeLike(folded)}%`} escape '\\'`, 'desc')
    .orderBy('name')
    .orderBy('id')
    .limit(USER_SEARCH_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    daoHieu: row.name,
    tuVi: row.tuVi ?? 0,
    image: row.image,
  }));
}
