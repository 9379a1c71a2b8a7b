import { sql, type Insertable, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { Database, Db, ReactionsTable } from '../../../db/schema.ts';

export type ReactionRow = Selectable<ReactionsTable>;
type Trx = Transaction<Database>;

export interface ReactionGroup {
  count: number;
  sum_scores: number;
  first_reaction_at: string;
  last_reaction_at: string;
}

export interface ReactionsRepo {
  /** The newest `limit` reactions of each message, newest first, in one query. */
  latestFor(
    appId: string,
    messageIds: readonly string[],
    limit: number,
  ): Promise<Map<string, ReactionRow[]>>;
  ownFor(
    appId: string,
    messageIds: readonly string[],
    userId: string,
  ): Promise<Map<string, ReactionRow[]>>;
  byUser(trx: Trx, appId: string, messageId: string, userId: string): Promise<ReactionRow[]>;
  upsert(trx: Trx, row: Insertable<ReactionsTable>): Promise<void>;
  remove(
    trx: Trx,
    appId: string,
    messageId: string,
    userId: string,
    type?: string,
  ): Promise<number>;
  /** Recomputes the per-type aggregate of one message from its rows. */
  groups(trx: Trx | Db, appId: string, messageId: string): Promise<Record<string, ReactionGroup>>;
  query(
    appId: string,
    messageId: string,
    where: RawBuilder<boolean>,
    limit: number,
    offset: number,
  ): Promise<ReactionRow[]>;
}

export function createReactionsRepo(db: Db): ReactionsRepo {
  return {
    async latestFor(appId, messageIds, limit) {
      const result = new Map<string, ReactionRow[]>();
      if (messageIds.length === 0 || limit <= 0) return result;
      const unique = [...new Set(messageIds)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .selectFrom((eb) =>
            eb
              .selectFrom('reactions')
              .selectAll()
              .select(
                sql<number>`row_number() over (partition by message_id order by created_at desc, user_id)`.as(
                  'rn',
                ),
              )
              .where('app_id', '=', appId)
              .where('message_id', 'in', unique.slice(i, i + 500))
              .as('ranked'),
          )
          .selectAll()
          .where('rn', '<=', limit)
          .orderBy('created_at', 'desc')
          .execute();
        for (const { rn: _rn, ...row } of rows) {
          const list = result.get(row.message_id) ?? [];
          list.push(row);
          result.set(row.message_id, list);
        }
      }
      return result;
    },

    async ownFor(appId, messageIds, userId) {
      const result = new Map<string, ReactionRow[]>();
      if (messageIds.length === 0) return result;
      const unique = [...new Set(messageIds)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .selectFrom('reactions')
          .selectAll()
          .where('app_id', '=', appId)
          .where('user_id', '=', userId)
          .where('message_id', 'in', unique.slice(i, i + 500))
          .orderBy('created_at', 'desc')
          .execute();
        for (const row of rows) {
          const list = result.get(row.message_id) ?? [];
          list.push(row);
          result.set(row.message_id, list);
        }
      }
      return result;
    },

    byUser: (trx, appId, messageId, userId) =>
      trx
        .selectFrom('reactions')
        .selectAll()
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId)
        .execute(),

    async upsert(trx, row) {
      await trx
        .insertInto('reactions')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['app_id', 'message_id', 'user_id', 'type']).doUpdateSet({
            score: row.score ?? 1,
            custom: row.custom ?? '{}',
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },

    async remove(trx, appId, messageId, userId, type) {
      let q = trx
        .deleteFrom('reactions')
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId);
      if (type !== undefined) q = q.where('type', '=', type);
      const result = await q.executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async groups(executor, appId, messageId) {
      const rows = await executor
        .selectFrom('reactions')
        .select([
          'type',
          sql<number>`count(*)`.as('count'),
          sql<number>`sum(score)`.as('sum_scores'),
          sql<string>`min(created_at)`.as('first_reaction_at'),
          sql<string>`max(created_at)`.as('last_reaction_at'),
        ])
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .groupBy('type')
        .execute();
      const groups: Record<string, ReactionGroup> = {};
      for (const row of rows) {
        groups[row.type] = {
          count: Number(row.count),
          sum_scores: Number(row.sum_scores),
          first_reaction_at: row.first_reaction_at,
          last_reaction_at: row.last_reaction_at,
        };
      }
      return groups;
    },

    query: (appId, messageId, where, limit, offset) =>
      db
        .selectFrom('reactions')
        .selectAll()
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .where(where)
        .orderBy('created_at', 'desc')
        .orderBy('user_id')
        .limit(limit)
        .offset(offset)
        .execute(),
  };
}
