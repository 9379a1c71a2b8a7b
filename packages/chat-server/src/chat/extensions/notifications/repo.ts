import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';

export const NOTIFICATION_KINDS = [
  'mention',
  'reply',
  'reaction',
  'added_to_channel',
  'reminder_due',
  'campaign',
  'breakthrough',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

// A type alias (not an interface): `withTables` needs an index-compatible record type.
export type NotificationsTable = {
  app_id: string;
  id: string;
  user_id: string;
  kind: string;
  cid: string | null;
  message_id: string | null;
  parent_id: string | null;
  actor_id: string | null;
  created_at: string;
  read_at: string | null;
  /** JSON object of a notification the product server created (POST /daohuu/notifications); null otherwise. */
  data: string | null;
};

export type NotificationRow = Selectable<NotificationsTable>;

/** A user keeps their newest notifications only: older ones go as new ones come. */
export const NOTIFICATIONS_KEPT_PER_USER = 500;

/** Where a page starts: strictly older than this notification. */
export interface PageCursor {
  createdAt: string;
  id: string;
}

type Executor = Kysely<Database> | Transaction<Database>;

/** Writes take the write queue's transaction (deps.writes); reads go to the database directly. */
export interface NotificationsRepo {
  insert(executor: Executor, row: NotificationRow): Promise<void>;
  get(appId: string, id: string): Promise<NotificationRow | undefined>;
  /** The user's notifications, newest first, strictly older than `before` when given. */
  page(
    appId: string,
    userId: string,
    limit: number,
    before?: PageCursor,
  ): Promise<NotificationRow[]>;
  unreadCount(appId: string, userId: string): Promise<number>;
  /** Marks the user's own unread notifications read: those listed, or all of them when `ids` is undefined. */
  markRead(
    executor: Executor,
    appId: string,
    userId: string,
    ids: string[] | undefined,
    now: string,
  ): Promise<void>;
  /** Drops the user's notifications beyond the newest NOTIFICATIONS_KEPT_PER_USER. */
  trim(executor: Executor, appId: string, userId: string): Promise<void>;
}

type Tables = { notifications: NotificationsTable };

export function createNotificationsRepo(db: Kysely<Database>): NotificationsRepo {
  const tables = db.withTables<Tables>();
  const writer = (executor: Executor) => executor.withTables<Tables>();
  const own = (appId: string, userId: string, executor: Executor = db) =>
    writer(executor)
      .selectFrom('notifications')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId);
  return {
    async insert(executor, row) {
      await writer(executor).insertInto('notifications').values(row).execute();
    },
    get: (appId, id) =>
      tables
        .selectFrom('notifications')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),
    page(appId, userId, limit, before) {
      let query = own(appId, userId).selectAll();
      if (before)
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.createdAt),
            eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)]),
          ]),
        );
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    async unreadCount(appId, userId) {
      const row = await own(appId, userId)
        .where('read_at', 'is', null)
        .select(sql<number>`count(*)`.as('count'))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    async markRead(executor, appId, userId, ids, now) {
      if (ids && ids.length === 0) return;
      let query = writer(executor)
        .updateTable('notifications')
        .set({ read_at: now })
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null);
      if (ids) query = query.where('id', 'in', ids);
      await query.execute();
    },
    async trim(executor, appId, userId) {
      const oldestKept = await own(appId, userId, executor)
        .select(['created_at', 'id'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(NOTIFICATIONS_KEPT_PER_USER - 1)
        .limit(1)
        .executeTakeFirst();
      if (!oldestKept) return;
      await writer(executor)
        .deleteFrom('notifications')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('created_at', '<', oldestKept.created_at)
        .execute();
    },
  };
}
