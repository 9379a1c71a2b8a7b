import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db } from '../../../db/schema.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type BansTable = {
  app_id: string;
  user_id: string;
  /** '' for an app-wide ban, else the channel's cid. */
  cid: string;
  shadow: number;
  reason: string | null;
  banned_by_id: string | null;
  /** The address an IP ban refuses connections from; null when the ban is not an IP ban. */
  ip: string | null;
  created_at: string;
  expires: string | null;
};

export type ConnectAddressesTable = {
  app_id: string;
  user_id: string;
  ip: string;
  seen_at: string;
};

/** The tables of this module (migration 0008), added to the shared schema type locally. */
export type BanTables = { bans: BansTable; connect_addresses: ConnectAddressesTable };

export type BanRow = Selectable<BansTable>;
export const APP_WIDE = '';
type Executor = Kysely<Database> | Transaction<Database>;

const tables = (executor: Executor) => executor.withTables<BanTables>();

/** Bans still in force at `now` (a timed ban lapses at its expiry). */
const inForce = (now: string) => sql<boolean>`(expires is null or expires > ${now})`;

// Asked on every connect: built and compiled once (db/reusable-query.ts).
const banOfAddress = reusableQuery<[string, string, string], { user_id: string }>(
  3,
  (executor, appId, ip, now) =>
    tables(executor)
      .selectFrom('bans')
      .select('user_id')
      .where('app_id', '=', appId)
      .where('ip', '=', ip)
      .where(inForce(now))
      .limit(1),
);

// Written on every connect: the upsert's `ip` and `now` fill both the inserted row and the update of an existing one.
const addressRecord = reusableQuery<[string, string, string, string], unknown>(
  4,
  (executor, appId, userId, ip, now) =>
    tables(executor)
      .insertInto('connect_addresses')
      .values({ app_id: appId, user_id: userId, ip, seen_at: now })
      .onConflict((oc) => oc.columns(['app_id', 'user_id']).doUpdateSet({ ip, seen_at: now })),
);

export function createBansRepo(db: Db) {
  return {
    async get(appId: string, userId: string, cid: string, executor: Executor = db) {
      return tables(executor)
        .selectFrom('bans')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', '=', cid)
        .executeTakeFirst();
    },

    /** Records a ban, replacing the one the user had in that scope (banning again updates it, as on Stream). */
    async put(executor: Executor, row: BanRow): Promise<void> {
      const { app_id: _a, user_id: _u, cid: _c, ...rest } = row;
      await tables(executor)
        .insertInto('bans')
        .values(row)
        .onConflict((oc) => oc.columns(['app_id', 'user_id', 'cid']).doUpdateSet(rest))
        .execute();
    },

    async remove(executor: Executor, appId: string, userId: string, cid: string): Promise<void> {
      await tables(executor)
        .deleteFrom('bans')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', '=', cid)
        .execute();
    },

    /** Whether the user's messages in `cid` are to be shadowed: a shadow ban there or app-wide, in force. */
    async shadowed(appId: string, userId: string, cid: string, now: string): Promise<boolean> {
      const row = await tables(db)
        .selectFrom('bans')
        .select('cid')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', 'in', [APP_WIDE, cid])
        .where('shadow', '=', 1)
        .where(inForce(now))
        .executeTakeFirst();
      return !!row;
    },

    /** The bans in force in channel `cid` among `userIds`, by user id. */
    async inChannel(
      executor: Executor,
      appId: string,
      cid: string,
      userIds: string[],
      now: string,
    ): Promise<Map<string, BanRow>> {
      if (userIds.length === 0) return new Map();
      const rows = await tables(executor)
        .selectFrom('bans')
        .selectAll()
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .where('user_id', 'in', userIds)
        .where(inForce(now))
        .execute();
      return new Map(rows.map((row) => [row.user_id, row]));
    },

    /** Whether an IP ban in force names `ip`. */
    async addressBanned(appId: string, ip: string, now: string): Promise<boolean> {
      return (await banOfAddress.execute(db, appId, ip, now)).length > 0;
    },

    async lastAddress(appId: string, userId: string): Promise<string | null> {
      const row = await tables(db)
        .selectFrom('connect_addresses')
        .select('ip')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row?.ip ?? null;
    },

    async recordAddress(
      appId: string,
      userId: string,
      ip: string,
      now: string,
      executor: Executor = db,
    ): Promise<void> {
      await addressRecord.execute(executor, appId, userId, ip, now);
    },

    tables: () => tables(db),
  };
}

export type BansRepo = ReturnType<typeof createBansRepo>;
