import type { UserSearchHit } from '@daohuu/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { foldedContains, foldedStartsWith } from '../db/folded-search.ts';

export const USER_SEARCH_LIMIT = 20;
export const USER_SEARCH_MAX_QUERY_LENGTH = 100;

/**
 * Users whose đạo hiệu contains `query` (folded), names starting with it first, then by name; `excludeId` (the
 * searcher) is left out. An empty query lists users by name.
 */
export async function searchUsersByDaoHieu(
  db: Kysely<Database>,
  query: string,
  excludeId: string,
): Promise<UserSearchHit[]> {
  const rows = await db
    .selectFrom('user')
    .select(['id', 'name', 'tuVi', 'image'])
    .where('id', '!=', excludeId)
    .where(foldedContains('name', query))
    .orderBy(foldedStartsWith('name', query), 'desc')
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
