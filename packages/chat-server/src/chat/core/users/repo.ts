import {
  sql,
  type Insertable,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type Transaction,
  type Updateable,
} from 'kysely';
import { columnsInsert } from '../../../db/columns-insert.ts';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db, UsersTable } from '../../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

// Every send looks up its author (and the channel's creator for notifications): compiled once (reusable-query.ts).
const userById = reusableQuery<[string, string], UserRow>(2, (executor, appId, id) =>
  executor.selectFrom('users').selectAll().where('app_id', '=', appId).where('id', '=', id),
);

// A connect that creates its user inserts the same columns every time (a guest's row has one fewer).
const insertUser = columnsInsert('users', 16);

/** A user to upsert; without `banned` the stored ban state is kept. */
export type UserUpsert = Omit<Insertable<UsersTable>, 'banned'> & { banned?: number };

type Executor = Kysely<Database> | Transaction<Database>;

export interface UsersRepo {
  get(appId: string, id: string): Promise<UserRow | undefined>;
  getMany(appId: string, ids: readonly string[]): Promise<Map<string, UserRow>>;
  /** `executor`: a transaction of the write queue (group commit), else the database. */
  insert(row: Insertable<UsersTable>, executor?: Executor): Promise<void>;
  /** Inserts or replaces the given rows (server-side upsert semantics). */
  upsertMany(rows: UserUpsert[]): Promise<void>;
  update(
    appId: string,
    id: string,
    patch: Updateable<UsersTable>,
    executor?: Executor,
  ): Promise<void>;
  query(
    appId: string,
    where: RawBuilder<boolean>,
    order: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<UserRow[]>;
  /** Channels the user is a member of (to tell their watchers about user changes). */
  memberCids(appId: string, id: string, limit: number): Promise<string[]>;
}

export function createUsersRepo(db: Db): UsersRepo {
  return {
    get: async (appId, id) => (await userById.execute(db, appId, id))[0],
    async getMany(appId, ids) {
      const map = new Map<string, UserRow>();
      const unique = [...new Set(ids)];
      if (unique.length === 1) {
        const row = (await userById.execute(db, appId, unique[0]!))[0];
        if (row) map.set(row.id, row);
        return map;
      }
      for (let i = 0; i < unique.length; i += 500) {
        const chunk = unique.slice(i, i + 500);
        const rows = await db
          .selectFrom('users')
          .selectAll()
          .where('app_id', '=', appId)
          .where('id', 'in', chunk)
          .execute();
        for (const row of rows) map.set(row.id, row);
      }
      return map;
    },
    async insert(row, executor = db) {
      await insertUser(executor, row);
    },
    async upsertMany(rows) {
      if (rows.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const row of rows) {
          await trx
            .insertInto('users')
            .values({ ...row, banned: row.banned ?? 0 })
            .onConflict((oc) =>
              oc.columns(['app_id', 'id']).doUpdateSet({
                role: row.role,
                name: row.name ?? null,
                name_search: row.name_search ?? null,
                image: row.image ?? null,
                language: row.language ?? '',
                custom: row.custom ?? '{}',
                teams: row.teams ?? '[]',
                invisible: row.invisible ?? 0,
                privacy_settings: row.privacy_settings ?? null,
                updated_at: row.updated_at,
                ...(row.banned === undefined ? {} : { banned: row.banned }),
                ...(row.deactivated_at === undefined ? {} : { deactivated_at: row.deactivated_at }),
              }),
            )
            .execute();
        }
      });
    },
    async update(appId, id, patch, executor = db) {
      await executor
        .updateTable('users')
        .set(patch)
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },
    async memberCids(appId, id, limit) {
      const rows = await db
        .selectFrom('members')
        .select('cid')
        .where('app_id', '=', appId)
        .where('user_id', '=', id)
        .limit(limit)
        .execute();
      return rows.map((r) => r.cid);
    },
    query: (appId, where, order, limit, offset) => {
      let q = db.selectFrom('users').selectAll().where('app_id', '=', appId).where(where);
      for (const item of order) q = q.orderBy(item);
      return q
        .orderBy(sql`id`)
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
