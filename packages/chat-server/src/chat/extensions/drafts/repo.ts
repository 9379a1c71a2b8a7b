import type { Insertable, RawBuilder, Selectable, Transaction } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db, DraftsTable } from '../../../db/schema.ts';

type Trx = Transaction<Database>;

export type DraftRow = Selectable<DraftsTable>;

export interface DraftKey {
  appId: string;
  userId: string;
  cid: string;
  /** '' for the channel draft. */
  parentId: string;
}

export interface DraftsRepo {
  get(key: DraftKey): Promise<DraftRow | undefined>;
  /** The user's drafts of these channels (channel drafts only, not thread drafts). */
  channelDrafts(appId: string, userId: string, cids: readonly string[]): Promise<DraftRow[]>;
  /** The user's thread drafts under these parent messages. */
  threadDrafts(appId: string, userId: string, parentIds: readonly string[]): Promise<DraftRow[]>;
  upsert(trx: Trx, row: Insertable<DraftsTable>): Promise<void>;
  remove(trx: Trx, key: DraftKey): Promise<number>;
  query(
    appId: string,
    userId: string,
    where: RawBuilder<boolean>,
    orderBy: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<DraftRow[]>;
}

// Every watch of one channel reads its draft: built and compiled once (db/reusable-query.ts).
const oneChannelDraft = reusableQuery<[string, string, string], DraftRow>(
  3,
  (executor, appId, userId, cid) =>
    executor
      .selectFrom('drafts')
      .selectAll()
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('parent_id', '=', '')
      .where('cid', '=', cid),
);

export function createDraftsRepo(db: Db): DraftsRepo {
  return {
    get: (key) =>
      db
        .selectFrom('drafts')
        .selectAll()
        .where('app_id', '=', key.appId)
        .where('user_id', '=', key.userId)
        .where('cid', '=', key.cid)
        .where('parent_id', '=', key.parentId)
        .executeTakeFirst(),

    async channelDrafts(appId, userId, cids) {
      if (cids.length === 0) return [];
      const rows: DraftRow[] = [];
      const unique = [...new Set(cids)];
      if (unique.length === 1) return oneChannelDraft.execute(db, appId, userId, unique[0]!);
      for (let i = 0; i < unique.length; i += 500) {
        rows.push(
          ...(await db
            .selectFrom('drafts')
            .selectAll()
            .where('app_id', '=', appId)
            .where('user_id', '=', userId)
            .where('parent_id', '=', '')
            .where('cid', 'in', unique.slice(i, i + 500))
            .execute()),
        );
      }
      return rows;
    },

    async threadDrafts(appId, userId, parentIds) {
      const rows: DraftRow[] = [];
      const unique = [...new Set(parentIds)].filter(Boolean);
      for (let i = 0; i < unique.length; i += 500) {
        rows.push(
          ...(await db
            .selectFrom('drafts')
            .selectAll()
            .where('app_id', '=', appId)
            .where('user_id', '=', userId)
            .where('parent_id', 'in', unique.slice(i, i + 500))
            .execute()),
        );
      }
      return rows;
    },

    async upsert(trx, row) {
      await trx
        .insertInto('drafts')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'user_id', 'cid', 'parent_id'])
            .doUpdateSet({ message: row.message, updated_at: row.updated_at }),
        )
        .execute();
    },

    async remove(trx, key) {
      const result = await trx
        .deleteFrom('drafts')
        .where('app_id', '=', key.appId)
        .where('user_id', '=', key.userId)
        .where('cid', '=', key.cid)
        .where('parent_id', '=', key.parentId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    query(appId, userId, where, orderBy, limit, offset) {
      let query = db
        .selectFrom('drafts')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where(where);
      for (const item of orderBy) query = query.orderBy(item);
      return query.orderBy('cid').orderBy('parent_id').limit(limit).offset(offset).execute();
    },
  };
}
