import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import { reusableQuery, type ReusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db, ReadsTable } from '../../../db/schema.ts';
import {
  BUILTIN_CHANNEL_TYPES,
  type ChannelType,
  type ChannelTypeLookup,
} from '../channel-types.ts';
import { visibleToViewer } from '../access/visibility.ts';
import type { UnreadExclusion } from '../extension-points.ts';

export type ReadRow = Selectable<ReadsTable>;
export type ReadWithUnread = ReadRow & { unread: number };
/** A read row as the database returns the computed count (a bigint-ish value on PostgreSQL). */
type ReadRowWithCount = ReadRow & { unread: number | string | bigint };
type Executor = Db | Transaction<Database>;

/*
 * Unread counts are computed, not stored: the messages of the channel after `last_read` that the reader did not
 * write, that are visible in the channel and not silent or deleted. Sending a message therefore writes one row,
 * whatever the member count.
 */
/*
 * Channel types with `read_events: false` (livestream, gaming by default) keep no unread counts, as in Stream: their
 * read states report 0 and they add nothing to a user's totals. The type is the cid's prefix; the prefixes come from
 * the app's live type list and are inlined as literals, so the statement text only changes when the types do (the
 * statement cache keeps working).
 */
function countsUnreadFor(types: readonly ChannelType[]): RawBuilder<boolean> {
  const prefixes = types.filter((type) => !type.config.read_events).map((type) => `${type.name}:`);
  if (prefixes.length === 0) return sql<boolean>`1 = 1`;
  return sql<boolean>`not (${sql.join(
    prefixes.map((prefix) => sql`substr(r.cid, 1, ${sql.lit(prefix.length)}) = ${sql.lit(prefix)}`),
    sql` or `,
  )})`;
}

/*
 * Stream's backend stops counting a channel's (or thread's) unread messages at 255, and so do we: counting is then
 * bounded per read state, so opening a channel nobody has read for months costs the same as one read yesterday.
 */
export const UNREAD_COUNT_CAP = 255;

// History hidden from the reader (truncation, hide_history, clear_history) is never unread: see core/access/visibility.ts.
const visibleToReader = visibleToViewer('msg', sql.ref('r.user_id'));

/** What the extensions leave out of the count, as one condition (true when none do). */
function notExcluded(exclusions: readonly UnreadExclusion[]): RawBuilder<boolean> {
  if (exclusions.length === 0) return sql<boolean>`1 = 1`;
  return sql<boolean>`not (${sql.join(
    exclusions.map((exclusion) => exclusion()),
    sql` or `,
  )})`;
}

// An invite not (yet) accepted counts nothing, as Stream documents; accepting clears `invited`.
const notPendingInvite = sql<boolean>`not exists (select 1 from members inv where inv.app_id = r.app_id
  and inv.cid = r.cid and inv.user_id = r.user_id and inv.invited = 1)`;

const unreadChannelOf = (
  countsUnread: RawBuilder<boolean>,
  counted: RawBuilder<boolean>,
) => sql<number>`(case when ${countsUnread} and ${notPendingInvite} then (select count(*) from (select 1 from messages msg
  where msg.app_id = r.app_id and msg.cid = r.cid and msg.created_at > r.last_read
    and msg.user_id <> r.user_id and (msg.parent_id is null or msg.show_in_channel = 1)
    and msg.deleted_at is null and msg.silent = 0 and msg.type <> 'system' and ${visibleToReader}
    and ${counted}
  limit ${sql.lit(UNREAD_COUNT_CAP)}) capped) else 0 end)`;

const unreadThreadOf = (
  countsUnread: RawBuilder<boolean>,
  counted: RawBuilder<boolean>,
) => sql<number>`(case when ${countsUnread} then (select count(*) from (select 1 from messages msg
  where msg.app_id = r.app_id and msg.parent_id = r.thread_id and msg.created_at > r.last_read
    and msg.user_id <> r.user_id and msg.deleted_at is null and msg.silent = 0 and ${visibleToReader}
    and ${counted}
  limit ${sql.lit(UNREAD_COUNT_CAP)}) capped) else 0 end)`;

/** A user's channel unread totals, as carried by `me` and by events. */
export interface UnreadTotals {
  total: number;
  channels: number;
}

export interface ReadsRepo {
  upsert(
    executor: Executor,
    row: {
      app_id: string;
      cid: string;
      user_id: string;
      thread_id: string;
      last_read: string;
      last_read_message_id: string | null;
      first_unread_message_id?: string | null;
    },
  ): Promise<void>;
  /** Creates the read state if missing; an existing one is left alone. */
  ensure(
    executor: Executor,
    row: { app_id: string; cid: string; user_id: string; thread_id: string; last_read: string },
  ): Promise<void>;
  /** Channel read states (thread_id '') of the given channels, with unread counts. */
  forChannels(appId: string, cids: readonly string[]): Promise<Map<string, ReadWithUnread[]>>;
  forUser(appId: string, userId: string, cid: string): Promise<ReadWithUnread | undefined>;
  /** Every channel read state of the users in channels they are members of, with unread counts. */
  channelUnreads(appId: string, userIds: readonly string[]): Promise<ReadWithUnread[]>;
  /** Every thread read state of the users, with unread counts. */
  threadUnreads(appId: string, userIds: readonly string[]): Promise<ReadWithUnread[]>;
  /** Channel unread totals of several users in one query (users without read states get zeros). */
  totalsFor(appId: string, userIds: readonly string[]): Promise<Map<string, UnreadTotals>>;
  threadReads(appId: string, parentIds: readonly string[]): Promise<Map<string, ReadWithUnread[]>>;
  markAllRead(executor: Executor, appId: string, userId: string, at: string): Promise<string[]>;
}

interface UnreadSql {
  channel: RawBuilder<number>;
  thread: RawBuilder<number>;
}

/** The unread-count expressions of one version of an app's type list (built once per list, reused until it changes). */
function unreadSqlCache(
  types: ChannelTypeLookup | undefined,
  exclusions: readonly UnreadExclusion[],
): (appId: string) => UnreadSql {
  const built = new WeakMap<readonly ChannelType[], UnreadSql>();
  const builtins = Object.values(BUILTIN_CHANNEL_TYPES);
  return (appId) => {
    const list = types ? types.list(appId) : builtins;
    let entry = built.get(list);
    if (!entry) {
      const counts = countsUnreadFor(list);
      const counted = notExcluded(exclusions);
      entry = {
        channel: unreadChannelOf(counts, counted),
        thread: unreadThreadOf(counts, counted),
      };
      built.set(list, entry);
    }
    return entry;
  };
}

/**
 * `types`: the live channel types, whose `read_events` decide which channels keep unread counts; `exclusions`: what
 * extensions leave out of the counts (the list is read when a statement is first built).
 */
export function createReadsRepo(
  db: Db,
  types?: ChannelTypeLookup,
  exclusions: readonly UnreadExclusion[] = [],
): ReadsRepo {
  const unreadSql = unreadSqlCache(types, exclusions);
  // Channel-level read states of current members only: a former member's leftover read row must not count.
  const memberChannelReads = (appId: string, executor: Db = db) =>
    executor
      .selectFrom('reads as r')
      .innerJoin('members as mb', (join) =>
        join
          .onRef('mb.app_id', '=', 'r.app_id')
          .onRef('mb.cid', '=', 'r.cid')
          .onRef('mb.user_id', '=', 'r.user_id'),
      )
      .where('r.app_id', '=', appId)
      .where('r.thread_id', '=', '');
  // Every watch of one channel reads its read states: built and compiled once per version of the unread expression
  // (db/reusable-query.ts), whose text only changes with the app's types.
  const oneChannel = new WeakMap<UnreadSql, ReusableQuery<[string, string], ReadRowWithCount>>();
  const oneChannelReads = (appId: string) => {
    const unread = unreadSql(appId);
    let query = oneChannel.get(unread);
    if (!query) {
      query = reusableQuery<[string, string], ReadRowWithCount>(2, (executor, app, cid) =>
        memberChannelReads(app, executor)
          .selectAll('r')
          .select(unread.channel.as('unread'))
          .where('r.cid', '=', cid),
      );
      oneChannel.set(unread, query);
    }
    return query;
  };
  // Every connect reads its user's channel and thread unreads (`me`): compiled once per unread expression as well.
  const oneUser = new WeakMap<
    UnreadSql,
    Record<'channels' | 'threads', ReusableQuery<[string, string], ReadRowWithCount>>
  >();
  const oneUserUnreads = (appId: string) => {
    const unread = unreadSql(appId);
    let queries = oneUser.get(unread);
    if (!queries) {
      queries = {
        channels: reusableQuery<[string, string], ReadRowWithCount>(2, (executor, app, userId) =>
          memberChannelReads(app, executor)
            .selectAll('r')
            .select(unread.channel.as('unread'))
            .where('r.user_id', '=', userId),
        ),
        threads: reusableQuery<[string, string], ReadRowWithCount>(2, (executor, app, userId) =>
          executor
            .selectFrom('reads as r')
            .selectAll('r')
            .select(unread.thread.as('unread'))
            .where('r.app_id', '=', app)
            .where('r.user_id', '=', userId)
            .where('r.thread_id', '<>', ''),
        ),
      };
      oneUser.set(unread, queries);
    }
    return queries;
  };

  return {
    async upsert(executor, row) {
      await executor
        .insertInto('reads')
        .values({ ...row, first_unread_message_id: row.first_unread_message_id ?? null })
        .onConflict((oc) =>
          oc.columns(['app_id', 'cid', 'user_id', 'thread_id']).doUpdateSet({
            last_read: row.last_read,
            last_read_message_id: row.last_read_message_id,
            first_unread_message_id: row.first_unread_message_id ?? null,
          }),
        )
        .execute();
    },

    async ensure(executor, row) {
      await executor
        .insertInto('reads')
        .values({ ...row, last_read_message_id: null, first_unread_message_id: null })
        .onConflict((oc) => oc.columns(['app_id', 'cid', 'user_id', 'thread_id']).doNothing())
        .execute();
    },

    async forChannels(appId, cids) {
      const result = new Map<string, ReadWithUnread[]>(cids.map((cid) => [cid, []]));
      if (cids.length === 0) return result;
      const rows =
        cids.length === 1
          ? await oneChannelReads(appId).execute(db, appId, cids[0]!)
          : await memberChannelReads(appId)
              .selectAll('r')
              .select(unreadSql(appId).channel.as('unread'))
              .where('r.cid', 'in', [...cids])
              .execute();
      for (const row of rows) result.get(row.cid)?.push({ ...row, unread: Number(row.unread) });
      return result;
    },

    async forUser(appId, userId, cid) {
      const row = await db
        .selectFrom('reads as r')
        .selectAll('r')
        .select(unreadSql(appId).channel.as('unread'))
        .where('r.app_id', '=', appId)
        .where('r.cid', '=', cid)
        .where('r.user_id', '=', userId)
        .where('r.thread_id', '=', '')
        .executeTakeFirst();
      return row ? { ...row, unread: Number(row.unread) } : undefined;
    },

    async channelUnreads(appId, userIds) {
      if (userIds.length === 0) return [];
      const rows =
        userIds.length === 1
          ? await oneUserUnreads(appId).channels.execute(db, appId, userIds[0]!)
          : await memberChannelReads(appId)
              .selectAll('r')
              .select(unreadSql(appId).channel.as('unread'))
              .where('r.user_id', 'in', [...userIds])
              .execute();
      return rows.map((row) => ({ ...row, unread: Number(row.unread) }));
    },

    async threadUnreads(appId, userIds) {
      if (userIds.length === 0) return [];
      const rows =
        userIds.length === 1
          ? await oneUserUnreads(appId).threads.execute(db, appId, userIds[0]!)
          : await db
              .selectFrom('reads as r')
              .selectAll('r')
              .select(unreadSql(appId).thread.as('unread'))
              .where('r.app_id', '=', appId)
              .where('r.user_id', 'in', [...userIds])
              .where('r.thread_id', '<>', '')
              .execute();
      return rows.map((row) => ({ ...row, unread: Number(row.unread) }));
    },

    async totalsFor(appId, userIds) {
      const result = new Map<string, UnreadTotals>(
        userIds.map((id) => [id, { total: 0, channels: 0 }]),
      );
      if (userIds.length === 0) return result;
      const rows = await memberChannelReads(appId)
        .select('r.user_id')
        .select(unreadSql(appId).channel.as('unread'))
        .where('r.user_id', 'in', [...userIds])
        .execute();
      for (const row of rows) {
        const unread = Number(row.unread);
        const totals = result.get(row.user_id);
        if (!totals || unread === 0) continue;
        totals.total += unread;
        totals.channels += 1;
      }
      return result;
    },

    async threadReads(appId, parentIds) {
      const result = new Map<string, ReadWithUnread[]>();
      if (parentIds.length === 0) return result;
      const rows = await db
        .selectFrom('reads as r')
        .selectAll('r')
        .select(unreadSql(appId).thread.as('unread'))
        .where('r.app_id', '=', appId)
        .where('r.thread_id', 'in', [...parentIds])
        .execute();
      for (const row of rows) {
        const list = result.get(row.thread_id) ?? [];
        list.push({ ...row, unread: Number(row.unread) });
        result.set(row.thread_id, list);
      }
      return result;
    },

    async markAllRead(executor, appId, userId, at) {
      const rows = await executor
        .selectFrom('members')
        .select('cid')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .execute();
      await executor
        .updateTable('reads')
        .set({ last_read: at, first_unread_message_id: null })
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .execute();
      return rows.map((r) => r.cid);
    },
  };
}
