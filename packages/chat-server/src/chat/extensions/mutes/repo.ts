import type { Selectable } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { ChannelMutesTable, Db, UserMutesTable } from '../../../db/schema.ts';

export type UserMuteRow = Selectable<UserMutesTable>;
export type ChannelMuteRow = Selectable<ChannelMutesTable>;

/** User and channel mutes. Expired mutes are filtered out on read; they are removed lazily. */
export interface MutesRepo {
  userMutes(appId: string, userId: string, now: string): Promise<UserMuteRow[]>;
  channelMutes(appId: string, userId: string, now: string): Promise<ChannelMuteRow[]>;
  muteUser(row: UserMuteRow): Promise<void>;
  unmuteUser(appId: string, userId: string, targetId: string): Promise<void>;
  muteChannel(row: ChannelMuteRow): Promise<void>;
  unmuteChannel(appId: string, userId: string, cid: string): Promise<void>;
}

// Both lists are read on every connect (`me`): built and compiled once (db/reusable-query.ts).
const userMutesOf = reusableQuery<[string, string, string], UserMuteRow>(
  3,
  (executor, appId, userId, now) =>
    executor
      .selectFrom('user_mutes')
      .selectAll()
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
      .orderBy('created_at'),
);
const channelMutesOf = reusableQuery<[string, string, string], ChannelMuteRow>(
  3,
  (executor, appId, userId, now) =>
    executor
      .selectFrom('channel_mutes')
      .selectAll()
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]))
      .orderBy('created_at'),
);

export function createMutesRepo(db: Db): MutesRepo {
  return {
    userMutes: (appId, userId, now) => userMutesOf.execute(db, appId, userId, now),
    channelMutes: (appId, userId, now) => channelMutesOf.execute(db, appId, userId, now),
    async muteUser(row) {
      await db
        .insertInto('user_mutes')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'user_id', 'target_id'])
            .doUpdateSet({ updated_at: row.updated_at, expires: row.expires }),
        )
        .execute();
    },
    async unmuteUser(appId, userId, targetId) {
      await db
        .deleteFrom('user_mutes')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('target_id', '=', targetId)
        .execute();
    },
    async muteChannel(row) {
      await db
        .insertInto('channel_mutes')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'user_id', 'cid'])
            .doUpdateSet({ updated_at: row.updated_at, expires: row.expires }),
        )
        .execute();
    },
    async unmuteChannel(appId, userId, cid) {
      await db
        .deleteFrom('channel_mutes')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', '=', cid)
        .execute();
    },
  };
}
