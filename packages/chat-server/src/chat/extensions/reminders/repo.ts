import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Database, Db } from '../../../db/schema.ts';
import { visibleToViewer } from '../../core/access/visibility.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type RemindersTable = {
  app_id: string;
  user_id: string;
  message_id: string;
  cid: string;
  remind_at: string | null;
  due_sent: number;
  created_at: string;
  updated_at: string;
};

export type ReminderRow = Selectable<RemindersTable>;

/** The tables of this module, added to the shared schema type locally (the module owns its migration). */
export type RemindersTables = {
  reminders: RemindersTable;
};

type Executor = Kysely<Database> | Transaction<Database>;

export interface RemindersRepo {
  get(appId: string, userId: string, messageId: string): Promise<ReminderRow | undefined>;
  /** The user's reminders on these messages, by message id. */
  forMessages(
    appId: string,
    userId: string,
    messageIds: string[],
  ): Promise<Map<string, ReminderRow>>;
  insert(trx: Executor, row: ReminderRow): Promise<void>;
  update(
    trx: Executor,
    key: { appId: string; userId: string; messageId: string },
    patch: Partial<Pick<ReminderRow, 'remind_at' | 'due_sent' | 'updated_at'>>,
  ): Promise<void>;
  remove(trx: Executor, appId: string, userId: string, messageId: string): Promise<boolean>;
  /** Every user's reminder on a message (it was deleted). */
  removeForMessage(trx: Executor, appId: string, messageId: string): Promise<ReminderRow[]>;
  query(
    appId: string,
    userId: string,
    where: RawBuilder<boolean>,
    orderBy: RawBuilder<unknown>[],
    offset: number,
    limit: number,
  ): Promise<ReminderRow[]>;
  /** The earliest remind_at not yet announced, across apps. */
  nextDue(): Promise<string | undefined>;
  /** Reminders due at `now` not yet announced. */
  due(now: string, limit: number): Promise<ReminderRow[]>;
  /** Marks them announced; returns those still pending until now (another node may have claimed some). */
  claim(trx: Executor, rows: ReminderRow[]): Promise<ReminderRow[]>;
}

export function createRemindersRepo(db: Db): RemindersRepo {
  const tables = (executor: Executor) => executor.withTables<RemindersTables>();
  const q = tables(db);
  return {
    get: (appId, userId, messageId) =>
      q
        .selectFrom('reminders')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('message_id', '=', messageId)
        .executeTakeFirst(),
    async forMessages(appId, userId, messageIds) {
      if (messageIds.length === 0) return new Map();
      const rows = await q
        .selectFrom('reminders')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('message_id', 'in', messageIds)
        .execute();
      return new Map(rows.map((r) => [r.message_id, r]));
    },
    async insert(trx, row) {
      await tables(trx).insertInto('reminders').values(row).execute();
    },
    async update(trx, key, patch) {
      await tables(trx)
        .updateTable('reminders')
        .set(patch)
        .where('app_id', '=', key.appId)
        .where('user_id', '=', key.userId)
        .where('message_id', '=', key.messageId)
        .execute();
    },
    async remove(trx, appId, userId, messageId) {
      const result = await tables(trx)
        .deleteFrom('reminders')
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('message_id', '=', messageId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeForMessage(trx, appId, messageId) {
      const rows = await tables(trx)
        .selectFrom('reminders')
        .selectAll()
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .execute();
      if (rows.length > 0) {
        await tables(trx)
          .deleteFrom('reminders')
          .where('app_id', '=', appId)
          .where('message_id', '=', messageId)
          .execute();
      }
      return rows;
    },
    query: (appId, userId, where, orderBy, offset, limit) =>
      q
        .selectFrom('reminders')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where(where)
        // Reminders on deleted messages are gone for the client (it drops them on message.deleted), and so are
        // those on messages now hidden from the user (core/access/visibility.ts).
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('messages')
              .select('messages.id')
              .whereRef('messages.app_id', '=', 'reminders.app_id')
              .whereRef('messages.id', '=', 'reminders.message_id')
              .where('messages.deleted_at', 'is', null)
              .where(visibleToViewer('messages', sql.ref('reminders.user_id'))),
          ),
        )
        .$call((b) => orderBy.reduce((acc, item) => acc.orderBy(item), b))
        .orderBy('created_at', 'asc')
        .orderBy('message_id', 'asc')
        .offset(offset)
        .limit(limit)
        .execute(),
    async nextDue() {
      const row = await q
        .selectFrom('reminders')
        .select('remind_at')
        .where('due_sent', '=', 0)
        .where('remind_at', 'is not', null)
        .orderBy('remind_at', 'asc')
        .limit(1)
        .executeTakeFirst();
      return row?.remind_at ?? undefined;
    },
    due: (now, limit) =>
      q
        .selectFrom('reminders')
        .selectAll()
        .where('due_sent', '=', 0)
        .where('remind_at', 'is not', null)
        .where('remind_at', '<=', now)
        .orderBy('remind_at', 'asc')
        .limit(limit)
        .execute(),
    async claim(trx, rows) {
      const claimed: ReminderRow[] = [];
      for (const row of rows) {
        const result = await tables(trx)
          .updateTable('reminders')
          .set({ due_sent: 1 })
          .where('app_id', '=', row.app_id)
          .where('user_id', '=', row.user_id)
          .where('message_id', '=', row.message_id)
          .where('due_sent', '=', 0)
          // A reminder moved to a later time meanwhile stays pending.
          .where('remind_at', '=', row.remind_at)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) > 0) claimed.push(row);
      }
      return claimed;
    },
  };
}
