import {
  sql,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type Transaction,
  type Updateable,
} from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { ChannelsTable, Database, Db, MembersTable } from '../../../db/schema.ts';

export type ChannelRow = Selectable<ChannelsTable>;
export type MemberRow = Selectable<MembersTable>;

// Every send and most channel calls run these: compiled once (see reusable-query.ts).
const channelByCid = reusableQuery<[string, string], ChannelRow>(2, (executor, appId, cid) =>
  executor.selectFrom('channels').selectAll().where('app_id', '=', appId).where('cid', '=', cid),
);
const memberOf = reusableQuery<[string, string, string], MemberRow>(
  3,
  (executor, appId, cid, userId) =>
    executor
      .selectFrom('members')
      .selectAll()
      .where('app_id', '=', appId)
      .where('cid', '=', cid)
      .where('user_id', '=', userId),
);
const memberIdsOf = reusableQuery<[string, string], { user_id: string }>(
  2,
  (executor, appId, cid) =>
    executor
      .selectFrom('members')
      .select('user_id')
      .where('app_id', '=', appId)
      .where('cid', '=', cid),
);
type Executor = Db | Transaction<Database>;

export interface ChannelsRepo {
  get(appId: string, cid: string, executor?: Executor): Promise<ChannelRow | undefined>;
  getMany(appId: string, cids: readonly string[]): Promise<Map<string, ChannelRow>>;
  byDistinctKey(appId: string, type: string, key: string): Promise<ChannelRow | undefined>;
  insert(executor: Executor, row: Insertable<ChannelsTable>): Promise<void>;
  update(
    executor: Executor,
    appId: string,
    cid: string,
    patch: Updateable<ChannelsTable>,
  ): Promise<void>;
  remove(executor: Executor, appId: string, cid: string): Promise<void>;
  /** Channel rows matching `where`, where the alias `m` is the viewer's membership row (left join). */
  query(
    appId: string,
    viewerId: string,
    where: RawBuilder<boolean>,
    order: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<ChannelRow[]>;

  member(
    appId: string,
    cid: string,
    userId: string,
    executor?: Executor,
  ): Promise<MemberRow | undefined>;
  membersOf(
    appId: string,
    cids: readonly string[],
    limitPerChannel: number,
    offset?: number,
  ): Promise<Map<string, MemberRow[]>>;
  membershipsOf(
    appId: string,
    cids: readonly string[],
    userId: string,
  ): Promise<Map<string, MemberRow>>;
  memberIds(appId: string, cid: string): Promise<string[]>;
  /**
   * A page of the cids of live channels among `cids` (when given) and of `types` (when given), in cid order after
   * `afterCid`: what a batch update walks through.
   */
  cidsMatching(
    appId: string,
    where: { cids?: readonly string[]; types?: readonly string[] },
    afterCid: string | null,
    limit: number,
  ): Promise<string[]>;
  /** Which of `userIds` are members of `cid`. */
  membersAmong(appId: string, cid: string, userIds: readonly string[]): Promise<Set<string>>;
  /** Inserts a member; an existing one keeps everything, its role too unless `changeRole`. True when inserted. */
  upsertMember(
    executor: Executor,
    row: Insertable<MembersTable>,
    changeRole?: boolean,
  ): Promise<boolean>;
  updateMember(
    executor: Executor,
    appId: string,
    cid: string,
    userId: string,
    patch: Updateable<MembersTable>,
  ): Promise<void>;
  removeMember(executor: Executor, appId: string, cid: string, userId: string): Promise<boolean>;
  refreshMemberCount(executor: Executor, appId: string, cid: string): Promise<void>;
  queryMembers(
    appId: string,
    cid: string,
    where: RawBuilder<boolean>,
    order: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<MemberRow[]>;
}

export function createChannelsRepo(db: Db): ChannelsRepo {
  return {
    get: async (appId, cid, executor = db) => (await channelByCid.execute(executor, appId, cid))[0],

    async getMany(appId, cids) {
      const map = new Map<string, ChannelRow>();
      const unique = [...new Set(cids)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .selectFrom('channels')
          .selectAll()
          .where('app_id', '=', appId)
          .where('cid', 'in', unique.slice(i, i + 500))
          .execute();
        for (const row of rows) map.set(row.cid, row);
      }
      return map;
    },

    byDistinctKey: (appId, type, key) =>
      db
        .selectFrom('channels')
        .selectAll()
        .where('app_id', '=', appId)
        .where('type', '=', type)
        .where('distinct_key', '=', key)
        .executeTakeFirst(),

    async insert(executor, row) {
      await executor.insertInto('channels').values(row).execute();
    },
    async update(executor, appId, cid, patch) {
      await executor
        .updateTable('channels')
        .set(patch)
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .execute();
    },
    async remove(executor, appId, cid) {
      await executor
        .deleteFrom('channels')
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .execute();
    },

    query: (appId, viewerId, where, order, limit, offset) => {
      let q = db
        .selectFrom('channels as c')
        .leftJoin('members as m', (join) =>
          join
            .onRef('m.app_id', '=', 'c.app_id')
            .onRef('m.cid', '=', 'c.cid')
            .on('m.user_id', '=', viewerId),
        )
        .selectAll('c')
        .where('c.app_id', '=', appId)
        .where('c.deleted_at', 'is', null)
        .where(where);
      for (const item of order) q = q.orderBy(item);
      return q.orderBy('c.cid').limit(limit).offset(offset).execute();
    },

    async cidsMatching(appId, where, afterCid, limit) {
      let q = db
        .selectFrom('channels')
        .select('cid')
        .where('app_id', '=', appId)
        .where('deleted_at', 'is', null);
      if (where.cids) q = q.where('cid', 'in', where.cids.length ? [...where.cids] : ['']);
      if (where.types) q = q.where('type', 'in', where.types.length ? [...where.types] : ['']);
      if (afterCid !== null) q = q.where('cid', '>', afterCid);
      const rows = await q.orderBy('cid').limit(limit).execute();
      return rows.map((row) => row.cid);
    },

    member: async (appId, cid, userId, executor = db) =>
      (await memberOf.execute(executor, appId, cid, userId))[0],

    async membersOf(appId, cids, limitPerChannel, offset = 0) {
      const result = new Map<string, MemberRow[]>(cids.map((cid) => [cid, []]));
      if (cids.length === 0 || limitPerChannel <= 0) return result;
      const rows = await db
        .selectFrom((eb) =>
          eb
            .selectFrom('members')
            .selectAll()
            .select(
              sql<number>`row_number() over (partition by cid order by created_at, user_id)`.as(
                'rn',
              ),
            )
            .where('app_id', '=', appId)
            .where('cid', 'in', [...cids])
            .as('ranked'),
        )
        .selectAll()
        .where('rn', '>', offset)
        .where('rn', '<=', offset + limitPerChannel)
        .orderBy('created_at')
        .orderBy('user_id')
        .execute();
      for (const { rn: _rn, ...row } of rows) result.get(row.cid)?.push(row);
      return result;
    },

    async membershipsOf(appId, cids, userId) {
      const map = new Map<string, MemberRow>();
      if (cids.length === 0) return map;
      const rows = await db
        .selectFrom('members')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', 'in', [...cids])
        .execute();
      for (const row of rows) map.set(row.cid, row);
      return map;
    },

    async memberIds(appId, cid) {
      const rows = await memberIdsOf.execute(db, appId, cid);
      return rows.map((r) => r.user_id);
    },

    async membersAmong(appId, cid, userIds) {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('members')
        .select('user_id')
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .where('user_id', 'in', [...userIds])
        .execute();
      return new Set(rows.map((row) => row.user_id));
    },

    async upsertMember(executor, row, changeRole = false) {
      const existing = await this.member(row.app_id, row.cid, row.user_id, executor);
      if (existing) {
        if (changeRole && row.channel_role !== existing.channel_role) {
          await this.updateMember(executor, row.app_id, row.cid, row.user_id, {
            channel_role: row.channel_role,
            updated_at: row.updated_at,
          });
        }
        return false;
      }
      await executor.insertInto('members').values(row).execute();
      return true;
    },

    async updateMember(executor, appId, cid, userId, patch) {
      await executor
        .updateTable('members')
        .set(patch)
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .where('user_id', '=', userId)
        .execute();
    },

    async removeMember(executor, appId, cid, userId) {
      const result = await executor
        .deleteFrom('members')
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async refreshMemberCount(executor, appId, cid) {
      await executor
        .updateTable('channels')
        .set({
          member_count: sql`(select count(*) from members where members.app_id = ${appId} and members.cid = ${cid})`,
        })
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .execute();
    },

    queryMembers: (appId, cid, where, order, limit, offset) => {
      let q = db
        .selectFrom('members')
        .innerJoin('users as u', (join) =>
          join.onRef('u.app_id', '=', 'members.app_id').onRef('u.id', '=', 'members.user_id'),
        )
        .selectAll('members')
        .where('members.app_id', '=', appId)
        .where('members.cid', '=', cid)
        .where(where);
      for (const item of order) q = q.orderBy(item);
      return q
        .orderBy('members.created_at')
        .orderBy('members.user_id')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}
