import type { Kysely } from 'kysely';
import type { Role } from '@daohuu/domain';
import { foldedContains } from '../db/folded-search.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from './profile.ts';

export interface UserPatch {
  name?: string;
  role?: Role;
  tuVi?: number;
  balance?: number;
}

export interface UserPage {
  rows: UserRow[];
  total: number;
}

export async function findUserById(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('user')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Applies `patch` and returns the updated row, or undefined when no user has that id. */
export async function updateUser(
  db: Kysely<Database>,
  id: string,
  patch: UserPatch,
): Promise<UserRow | undefined> {
  return db
    .updateTable('user')
    .set({ ...patch, updatedAt: new Date().toISOString() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Users whose đạo hiệu or email contains `query`, newest first. Matching ignores case and Vietnamese diacritics
 * ("dao huu" finds "Đạo Hữu"), as the user search does.
 */
export async function listUsers(
  db: Kysely<Database>,
  { query, limit, offset }: { query: string; limit: number; offset: number },
): Promise<UserPage> {
  let base = db.selectFrom('user');
  if (query.trim() !== '') {
    base = base.where((eb) =>
      eb.or([foldedContains('name', query), foldedContains('email', query)]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
