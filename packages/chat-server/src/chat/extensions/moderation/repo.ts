import type { Kysely, Selectable, Transaction } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database } from '../../../db/schema.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type UserBlocksTable = {
  app_id: string;
  user_id: string;
  blocked_user_id: string;
  created_at: string;
};

export type FlagsTable = {
  app_id: string;
  user_id: string;
  target: string;
  target_message_id: string | null;
  target_user_id: string | null;
  channel_cid: string | null;
  reason: string;
  custom: string;
  created_at: string;
  updated_at: string;
};

export type UserBlockRow = Selectable<UserBlocksTable>;
export type FlagRow = Selectable<FlagsTable>;

/** The tables of this module, added to the shared schema type locally (the module owns its migration). */
export type ModerationTables = {
  user_blocks: UserBlocksTable;
  flags: FlagsTable;
};

type Executor = Kysely<Database> | Transaction<Database>;

// Read on every connect (`me.blocked_user_ids`): built and compiled once (db/reusable-query.ts).
const blocksOf = reusableQuery<[string, string], UserBlockRow>(2, (executor, appId, userId) =>
  executor
    .withTables<ModerationTables>()
    .selectFrom('user_blocks')
    .selectAll()
    .where('app_id', '=', appId)
    .where('user_id', '=', userId)
    .orderBy('created_at'),
);

export interface ModerationRepo {
  blocks(appId: string, userId: string): Promise<UserBlockRow[]>;
  /** Returns the stored block (the existing one when the user was blocked already). */
  block(executor: Executor, row: UserBlockRow): Promise<UserBlockRow>;
  unblock(executor: Executor, appId: string, userId: string, blockedUserId: string): Promise<void>;
  /** Whether another member of `cid` blocked `userId`. */
  blockedByOtherMember(appId: string, cid: string, userId: string): Promise<boolean>;
  /** Stores the flag, or refreshes the reporter's earlier flag of the same target; returns the stored row. */
  flag(executor: Executor, row: FlagRow): Promise<FlagRow>;
}

export function createModerationRepo(db: Kysely<Database>): ModerationRepo {
  const tables = (executor: Executor) => executor.withTables<ModerationTables>();
  return {
    blocks: (appId, userId) => blocksOf.execute(db, appId, userId),

    async block(executor, row) {
      await tables(executor)
        .insertInto('user_blocks')
        .values(row)
        .onConflict((oc) => oc.columns(['app_id', 'user_id', 'blocked_user_id']).doNothing())
        .execute();
      return tables(executor)
        .selectFrom('user_blocks')
        .selectAll()
        .where('app_id', '=', row.app_id)
        .where('user_id', '=', row.user_id)
        .where('blocked_user_id', '=', row.blocked_user_id)
        .executeTakeFirstOrThrow();
    },

    async unblock(executor, appId, userId, blockedUserId) {
      await tables(executor)
        .deleteFrom('user_blocks')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('blocked_user_id', '=', blockedUserId)
        .execute();
    },

    async blockedByOtherMember(appId, cid, userId) {
      const found = await tables(db)
        .selectFrom('members as m')
        .innerJoin('user_blocks as b', (join) =>
          join.onRef('b.app_id', '=', 'm.app_id').onRef('b.user_id', '=', 'm.user_id'),
        )
        .select('b.user_id')
        .where('m.app_id', '=', appId)
        .where('m.cid', '=', cid)
        .where('m.user_id', '<>', userId)
        .where('b.blocked_user_id', '=', userId)
        .limit(1)
        .executeTakeFirst();
      return found !== undefined;
    },

    async flag(executor, row) {
      await tables(executor)
        .insertInto('flags')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['app_id', 'user_id', 'target']).doUpdateSet({
            reason: row.reason,
            custom: row.custom,
            updated_at: row.updated_at,
          }),
        )
        .execute();
      return tables(executor)
        .selectFrom('flags')
        .selectAll()
        .where('app_id', '=', row.app_id)
        .where('user_id', '=', row.user_id)
        .where('target', '=', row.target)
        .executeTakeFirstOrThrow();
    },
  };
}
