import { sql, type Selectable, type Transaction, type Updateable, type RawBuilder } from 'kysely';
import type { Database, Db, ThreadParticipantsTable, ThreadsTable } from '../../../db/schema.ts';

export type ThreadRow = Selectable<ThreadsTable>;
export type ThreadParticipantRow = Selectable<ThreadParticipantsTable>;
type Trx = Transaction<Database>;

/** One reply as the thread rows record it. */
export interface ReplyRecord {
  appId: string;
  cid: string;
  parentId: string;
  parentUserId: string;
  userId: string;
  at: string;
  countsReply: boolean;
}

export interface ThreadsRepo {
  get(appId: string, parentId: string): Promise<ThreadRow | undefined>;
  /** Creates the thread on its first reply, or bumps counters; adds the replier as participant. */
  recordReply(trx: Trx, reply: ReplyRecord): Promise<void>;
  participants(
    appId: string,
    parentIds: readonly string[],
  ): Promise<Map<string, ThreadParticipantRow[]>>;
  update(appId: string, parentId: string, patch: Updateable<ThreadsTable>): Promise<void>;
  /** Threads a user takes part in, newest activity first. */
  forUser(
    appId: string,
    userId: string,
    where: RawBuilder<boolean>,
    limit: number,
    offset: number,
    /** ORDER BY terms before the tie-break; newest activity first when empty. */
    order?: readonly RawBuilder<unknown>[],
  ): Promise<ThreadRow[]>;
}

/** The replier joins the thread (their last reply moves); the parent's author takes part too, as in Stream. */
async function addParticipants(trx: Trx, reply: ReplyRecord): Promise<void> {
  const { appId, parentId, parentUserId, userId, at } = reply;
  for (const participant of new Set([parentUserId, userId])) {
    await trx
      .insertInto('thread_participants')
      .values({
        app_id: appId,
        parent_message_id: parentId,
        user_id: participant,
        created_at: at,
        last_thread_message_at: participant === userId ? at : null,
      })
      .onConflict((oc) =>
        participant === userId
          ? oc
              .columns(['app_id', 'parent_message_id', 'user_id'])
              .doUpdateSet({ last_thread_message_at: at })
          : oc.columns(['app_id', 'parent_message_id', 'user_id']).doNothing(),
      )
      .execute();
  }
}

async function recordReply(trx: Trx, reply: ReplyRecord): Promise<void> {
  const { appId, cid, parentId, userId, at, countsReply } = reply;
  await trx
    .insertInto('threads')
    .values({
      app_id: appId,
      parent_message_id: parentId,
      cid,
      // Stream: a thread is created by its first reply, whose author it names.
      created_by_id: userId,
      custom: '{}',
      participant_count: 0,
      reply_count: countsReply ? 1 : 0,
      last_message_at: at,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc.columns(['app_id', 'parent_message_id']).doUpdateSet({
        reply_count: countsReply ? sql`threads.reply_count + 1` : sql`threads.reply_count`,
        last_message_at: at,
        updated_at: at,
      }),
    )
    .execute();
  await addParticipants(trx, reply);
  await trx
    .updateTable('threads')
    .set({
      participant_count: sql`(select count(*) from thread_participants tp where tp.app_id = ${appId} and tp.parent_message_id = ${parentId})`,
    })
    .where('app_id', '=', appId)
    .where('parent_message_id', '=', parentId)
    .execute();
}

export function createThreadsRepo(db: Db): ThreadsRepo {
  return {
    get: (appId, parentId) =>
      db
        .selectFrom('threads')
        .selectAll()
        .where('app_id', '=', appId)
        .where('parent_message_id', '=', parentId)
        .executeTakeFirst(),

    recordReply,

    async participants(appId, parentIds) {
      const result = new Map<string, ThreadParticipantRow[]>();
      const unique = [...new Set(parentIds)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .selectFrom('thread_participants')
          .selectAll()
          .where('app_id', '=', appId)
          .where('parent_message_id', 'in', unique.slice(i, i + 500))
          .orderBy('created_at')
          .execute();
        for (const row of rows) {
          const list = result.get(row.parent_message_id) ?? [];
          list.push(row);
          result.set(row.parent_message_id, list);
        }
      }
      return result;
    },

    async update(appId, parentId, patch) {
      await db
        .updateTable('threads')
        .set(patch)
        .where('app_id', '=', appId)
        .where('parent_message_id', '=', parentId)
        .execute();
    },

    forUser: (appId, userId, where, limit, offset, order = []) => {
      let query = db
        .selectFrom('threads')
        .selectAll()
        .where('app_id', '=', appId)
        .where('deleted_at', 'is', null)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('thread_participants as tp')
              .select('tp.user_id')
              .whereRef('tp.app_id', '=', 'threads.app_id')
              .whereRef('tp.parent_message_id', '=', 'threads.parent_message_id')
              .where('tp.user_id', '=', userId),
          ),
        )
        .where(where);
      if (order.length === 0) query = query.orderBy('last_message_at', 'desc');
      for (const term of order) query = query.orderBy(term);
      return query.orderBy('parent_message_id', 'desc').limit(limit).offset(offset).execute();
    },
  };
}
