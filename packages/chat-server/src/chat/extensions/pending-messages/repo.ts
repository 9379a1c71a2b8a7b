import { sql, type Transaction } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db } from '../../../db/schema.ts';
import type { MessageRow } from '../../core/messages/repo.ts';

/** Stream returns at most this many pending messages per channel, the most recently sent. */
export const PENDING_PER_CHANNEL = 100;

export interface PendingMessagesRepo {
  /** The author's pending messages in each of `cids`, newest first, at most PENDING_PER_CHANNEL per channel. */
  ofAuthor(appId: string, userId: string, cids: readonly string[]): Promise<MessageRow[]>;
  /** Clears the flag of a message still pending; false when it was not (committed meanwhile, or never pending). */
  release(trx: Transaction<Database>, appId: string, messageId: string): Promise<boolean>;
}

/**
 * The flag as a literal, never a bound parameter: the partial index `messages_pending_idx` (migration 0019) only
 * applies when the planner sees `pending = 1`, and SQLite re-plans a statement whose plan depended on a bound value
 * each time that parameter is bound again, which costs a full prepare per watch.
 */
const PENDING = sql.lit(1);

// Every watch of one channel asks for its author's pending messages: built and compiled once (db/reusable-query.ts).
const pendingInOneChannel = reusableQuery<[string, string, string], MessageRow>(
  3,
  (executor, appId, userId, cid) =>
    executor
      .selectFrom('messages')
      .selectAll()
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('cid', '=', cid)
      .where('pending', '=', PENDING)
      .orderBy('created_at', 'desc')
      .limit(PENDING_PER_CHANNEL),
);

export function createPendingMessagesRepo(db: Db): PendingMessagesRepo {
  return {
    async ofAuthor(appId, userId, cids) {
      if (cids.length === 0) return [];
      if (cids.length === 1) return pendingInOneChannel.execute(db, appId, userId, cids[0]!);
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('app_id', '=', appId)
        .where('user_id', '=', userId)
        .where('cid', 'in', cids)
        .where('pending', '=', PENDING)
        .orderBy('created_at', 'desc')
        .limit(PENDING_PER_CHANNEL * cids.length)
        .execute();
      const perChannel = new Map<string, number>();
      return rows.filter((row) => {
        const count = (perChannel.get(row.cid) ?? 0) + 1;
        perChannel.set(row.cid, count);
        return count <= PENDING_PER_CHANNEL;
      });
    },

    async release(trx, appId, messageId) {
      const result = await trx
        .updateTable('messages')
        .set({ pending: 0, pending_metadata: null })
        .where('app_id', '=', appId)
        .where('id', '=', messageId)
        .where('pending', '=', PENDING)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
