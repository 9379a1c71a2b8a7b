import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { likePrefix } from '../../core/query/filter.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type UserGroupsTable = {
  app_id: string;
  id: string;
  name: string;
  name_key: string;
  description: string | null;
  team_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};

export type UserGroupMembersTable = {
  app_id: string;
  group_id: string;
  user_id: string;
  is_admin: number;
  created_at: string;
};

export type MessageGroupMentionsTable = {
  app_id: string;
  message_id: string;
  group_id: string;
  position: number;
};

type TablesMap = {
  user_groups: UserGroupsTable;
  user_group_members: UserGroupMembersTable;
  message_group_mentions: MessageGroupMentionsTable;
};

export type UserGroupRow = Selectable<UserGroupsTable>;
export type UserGroupMemberRow = Selectable<UserGroupMembersTable>;

type Executor = Kysely<Database> | Transaction<Database>;

/** One page of groups: in creation order after a cursor, or by name after a cursor for a prefix search. */
export interface GroupPage {
  limit: number;
  idGt?: string;
  createdAtGt?: string;
}

export interface SearchPage {
  limit: number;
  prefix: string;
  idGt?: string;
  nameGt?: string;
}

/** The groups, their members and the groups messages mention (migration 0018). */
export function createUserGroupsRepo(db: Kysely<Database>) {
  return { ...groupQueries(db), ...memberQueries(db), ...mentionQueries(db) };
}

export type UserGroupsRepo = ReturnType<typeof createUserGroupsRepo>;

const tablesOf = (executor: Executor) => executor.withTables<TablesMap>();

function groupQueries(db: Kysely<Database>) {
  const tables = (executor: Executor = db) => tablesOf(executor);
  return {
    get: (appId: string, id: string) =>
      tables()
        .selectFrom('user_groups')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),
    getMany: async (appId: string, ids: readonly string[]) =>
      ids.length === 0
        ? []
        : tables()
            .selectFrom('user_groups')
            .selectAll()
            .where('app_id', '=', appId)
            .where('id', 'in', [...ids])
            .execute(),
    async count(appId: string, createdBy?: string): Promise<number> {
      let query = tables()
        .selectFrom('user_groups')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId);
      if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
      const row = await query.executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** False when a group of that id exists already; the members go in the same transaction. */
    async create(row: UserGroupRow, members: UserGroupMemberRow[]): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await tables(trx)
          .insertInto('user_groups')
          .values(row)
          .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
          .executeTakeFirst();
        if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        if (members.length)
          await tables(trx).insertInto('user_group_members').values(members).execute();
        return true;
      });
    },
    async update(appId: string, id: string, set: Partial<UserGroupRow>): Promise<boolean> {
      const result = await tables()
        .updateTable('user_groups')
        .set(set)
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(appId: string, id: string): Promise<boolean> {
      const result = await tables()
        .deleteFrom('user_groups')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    page(appId: string, page: GroupPage) {
      let query = tables().selectFrom('user_groups').selectAll().where('app_id', '=', appId);
      const { createdAtGt, idGt } = page;
      if (createdAtGt !== undefined && idGt !== undefined)
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '>', createdAtGt),
            eb.and([eb('created_at', '=', createdAtGt), eb('id', '>', idGt)]),
          ]),
        );
      else if (createdAtGt !== undefined) query = query.where('created_at', '>', createdAtGt);
      else if (idGt !== undefined) query = query.where('id', '>', idGt);
      return query.orderBy('created_at').orderBy('id').limit(page.limit).execute();
    },
    search(appId: string, page: SearchPage) {
      let query = tables()
        .selectFrom('user_groups')
        .selectAll()
        .where('app_id', '=', appId)
        // name_key is lower-cased, so LIKE's case rules (SQLite folds ASCII, PostgreSQL does not) never matter.
        .where(sql<boolean>`name_key like ${`${likePrefix(page.prefix)}%`} escape '\\'`);
      const { nameGt, idGt } = page;
      if (nameGt !== undefined && idGt !== undefined)
        query = query.where((eb) =>
          eb.or([
            eb('name_key', '>', nameGt),
            eb.and([eb('name_key', '=', nameGt), eb('id', '>', idGt)]),
          ]),
        );
      else if (nameGt !== undefined) query = query.where('name_key', '>', nameGt);
      else if (idGt !== undefined) query = query.where('id', '>', idGt);
      return query.orderBy('name_key').orderBy('id').limit(page.limit).execute();
    },
  };
}

function memberQueries(db: Kysely<Database>) {
  const tables = (executor: Executor = db) => tablesOf(executor);
  return {
    members: (appId: string, groupId: string) =>
      tables()
        .selectFrom('user_group_members')
        .selectAll()
        .where('app_id', '=', appId)
        .where('group_id', '=', groupId)
        .orderBy('created_at')
        .orderBy('user_id')
        .execute(),
    async addMembers(appId: string, groupId: string, rows: UserGroupMemberRow[], now: string) {
      await db.transaction().execute(async (trx) => {
        // One statement for the whole request; a member already there takes the new admin flag.
        if (rows.length)
          await tables(trx)
            .insertInto('user_group_members')
            .values(rows)
            .onConflict((oc) =>
              oc
                .columns(['app_id', 'group_id', 'user_id'])
                .doUpdateSet((eb) => ({ is_admin: eb.ref('excluded.is_admin') })),
            )
            .execute();
        await touch(trx, appId, groupId, now);
      });
    },
    async removeMembers(appId: string, groupId: string, userIds: string[], now: string) {
      await db.transaction().execute(async (trx) => {
        await tables(trx)
          .deleteFrom('user_group_members')
          .where('app_id', '=', appId)
          .where('group_id', '=', groupId)
          .where('user_id', 'in', userIds)
          .execute();
        await touch(trx, appId, groupId, now);
      });
    },
  };

  async function touch(trx: Transaction<Database>, appId: string, id: string, now: string) {
    await tables(trx)
      .updateTable('user_groups')
      .set({ updated_at: now })
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .execute();
  }
}

function mentionQueries(db: Kysely<Database>) {
  const tables = (executor: Executor = db) => tablesOf(executor);
  return {
    /** Records the groups a message mentions, in the message's insert transaction. */
    async recordMentions(
      trx: Transaction<Database>,
      appId: string,
      messageId: string,
      ids: string[],
    ) {
      if (ids.length === 0) return;
      await tables(trx)
        .insertInto('message_group_mentions')
        .values(
          ids.map((group_id, position) => ({
            app_id: appId,
            message_id: messageId,
            group_id,
            position,
          })),
        )
        .execute();
    },
    mentionsOf: (appId: string, messageIds: readonly string[]) =>
      messageIds.length === 0
        ? Promise.resolve([])
        : tables()
            .selectFrom('message_group_mentions')
            .selectAll()
            .where('app_id', '=', appId)
            .where('message_id', 'in', [...messageIds])
            .orderBy('position')
            .execute(),
    /** The members of `groupIds` who are members of channel `cid`. */
    async channelMembersIn(appId: string, cid: string, groupIds: readonly string[]) {
      if (groupIds.length === 0) return [];
      const rows = await db
        .withTables<TablesMap>()
        .selectFrom('user_group_members as g')
        .innerJoin('members as m', (join) =>
          join.onRef('m.app_id', '=', 'g.app_id').onRef('m.user_id', '=', 'g.user_id'),
        )
        .select('g.user_id')
        .distinct()
        .where('g.app_id', '=', appId)
        .where('g.group_id', 'in', [...groupIds])
        .where('m.cid', '=', cid)
        .execute();
      return rows.map((r) => r.user_id);
    },
  };
}
