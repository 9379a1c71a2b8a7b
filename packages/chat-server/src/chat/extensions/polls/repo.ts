import { sql, type Insertable, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type {
  Database,
  Db,
  PollOptionsTable,
  PollsTable,
  PollVotesTable,
} from '../../../db/schema.ts';

export type PollRow = Selectable<PollsTable>;
export type PollOptionRow = Selectable<PollOptionsTable>;
export type PollVoteRow = Selectable<PollVotesTable>;
type Trx = Transaction<Database>;
type Executor = Trx | Db;

/** How many votes per option and answers per poll a poll response embeds. */
export const LATEST_PER_GROUP = 10;

/** Everything a poll response needs besides the poll row, loaded for many polls at once. */
export interface PollAggregate {
  options: PollOptionRow[];
  countsByOption: Map<string, number>;
  answersCount: number;
  latestByOption: Map<string, PollVoteRow[]>;
  latestAnswers: PollVoteRow[];
}

function chunks<T>(items: readonly T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

export interface PollsRepo {
  get(executor: Executor, appId: string, id: string): Promise<PollRow | undefined>;
  getMany(appId: string, ids: readonly string[]): Promise<Map<string, PollRow>>;
  aggregates(appId: string, pollIds: readonly string[]): Promise<Map<string, PollAggregate>>;
  ownVotes(
    appId: string,
    pollIds: readonly string[],
    userId: string,
  ): Promise<Map<string, PollVoteRow[]>>;
  insert(trx: Trx, row: Insertable<PollsTable>): Promise<void>;
  update(trx: Trx, appId: string, id: string, patch: Partial<PollRow>): Promise<void>;
  remove(trx: Trx, appId: string, id: string): Promise<void>;
  options(executor: Executor, appId: string, pollId: string): Promise<PollOptionRow[]>;
  insertOption(trx: Trx, row: Insertable<PollOptionsTable>): Promise<void>;
  updateOption(
    trx: Trx,
    appId: string,
    pollId: string,
    id: string,
    patch: Partial<PollOptionRow>,
  ): Promise<void>;
  removeOption(trx: Trx, appId: string, pollId: string, id: string): Promise<void>;
  votesOf(trx: Executor, appId: string, pollId: string, userId: string): Promise<PollVoteRow[]>;
  vote(executor: Executor, appId: string, id: string): Promise<PollVoteRow | undefined>;
  insertVote(trx: Trx, row: Insertable<PollVotesTable>): Promise<void>;
  updateVote(trx: Trx, appId: string, id: string, patch: Partial<PollVoteRow>): Promise<void>;
  removeVote(trx: Trx, appId: string, id: string): Promise<void>;
  queryVotes(
    appId: string,
    pollId: string,
    where: RawBuilder<boolean>,
    orderBy: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<PollVoteRow[]>;
  queryPolls(
    appId: string,
    where: RawBuilder<boolean>,
    orderBy: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<PollRow[]>;
}

export function createPollsRepo(db: Db): PollsRepo {
  return {
    get: (executor, appId, id) =>
      executor
        .selectFrom('polls')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),

    async getMany(appId, ids) {
      const result = new Map<string, PollRow>();
      for (const part of chunks([...new Set(ids)])) {
        const rows = await db
          .selectFrom('polls')
          .selectAll()
          .where('app_id', '=', appId)
          .where('id', 'in', part)
          .execute();
        for (const row of rows) result.set(row.id, row);
      }
      return result;
    },

    async aggregates(appId, pollIds) {
      const result = new Map<string, PollAggregate>();
      const unique = [...new Set(pollIds)];
      for (const id of unique) {
        result.set(id, {
          options: [],
          countsByOption: new Map(),
          answersCount: 0,
          latestByOption: new Map(),
          latestAnswers: [],
        });
      }
      for (const part of chunks(unique)) {
        const [options, counts, latest] = await Promise.all([
          db
            .selectFrom('poll_options')
            .selectAll()
            .where('app_id', '=', appId)
            .where('poll_id', 'in', part)
            .orderBy('position')
            .orderBy('created_at')
            .orderBy('id')
            .execute(),
          db
            .selectFrom('poll_votes')
            .select(['poll_id', 'option_id', 'is_answer', sql<number>`count(*)`.as('n')])
            .where('app_id', '=', appId)
            .where('poll_id', 'in', part)
            .groupBy(['poll_id', 'option_id', 'is_answer'])
            .execute(),
          db
            .selectFrom((eb) =>
              eb
                .selectFrom('poll_votes')
                .selectAll()
                .select(
                  sql<number>`row_number() over (partition by poll_id, is_answer, option_id order by created_at desc, id)`.as(
                    'rn',
                  ),
                )
                .where('app_id', '=', appId)
                .where('poll_id', 'in', part)
                .as('ranked'),
            )
            .selectAll()
            .where('rn', '<=', LATEST_PER_GROUP)
            .orderBy('created_at', 'desc')
            .orderBy('id')
            .execute(),
        ]);
        for (const option of options) result.get(option.poll_id)?.options.push(option);
        for (const row of counts) {
          const aggregate = result.get(row.poll_id);
          if (!aggregate) continue;
          if (row.is_answer === 1) aggregate.answersCount += Number(row.n);
          else if (row.option_id) aggregate.countsByOption.set(row.option_id, Number(row.n));
        }
        for (const { rn: _rn, ...vote } of latest) {
          const aggregate = result.get(vote.poll_id);
          if (!aggregate) continue;
          if (vote.is_answer === 1) aggregate.latestAnswers.push(vote);
          else if (vote.option_id) {
            const list = aggregate.latestByOption.get(vote.option_id) ?? [];
            list.push(vote);
            aggregate.latestByOption.set(vote.option_id, list);
          }
        }
      }
      return result;
    },

    async ownVotes(appId, pollIds, userId) {
      const result = new Map<string, PollVoteRow[]>();
      for (const part of chunks([...new Set(pollIds)])) {
        const rows = await db
          .selectFrom('poll_votes')
          .selectAll()
          .where('app_id', '=', appId)
          .where('user_id', '=', userId)
          .where('poll_id', 'in', part)
          .orderBy('created_at', 'desc')
          .execute();
        for (const row of rows) {
          const list = result.get(row.poll_id) ?? [];
          list.push(row);
          result.set(row.poll_id, list);
        }
      }
      return result;
    },

    async insert(trx, row) {
      await trx.insertInto('polls').values(row).execute();
    },

    async update(trx, appId, id, patch) {
      await trx
        .updateTable('polls')
        .set(patch)
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },

    async remove(trx, appId, id) {
      await trx
        .deleteFrom('poll_votes')
        .where('app_id', '=', appId)
        .where('poll_id', '=', id)
        .execute();
      await trx
        .deleteFrom('poll_options')
        .where('app_id', '=', appId)
        .where('poll_id', '=', id)
        .execute();
      await trx.deleteFrom('polls').where('app_id', '=', appId).where('id', '=', id).execute();
    },

    options: (executor, appId, pollId) =>
      executor
        .selectFrom('poll_options')
        .selectAll()
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .orderBy('position')
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    async insertOption(trx, row) {
      await trx.insertInto('poll_options').values(row).execute();
    },

    async updateOption(trx, appId, pollId, id, patch) {
      await trx
        .updateTable('poll_options')
        .set(patch)
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .where('id', '=', id)
        .execute();
    },

    async removeOption(trx, appId, pollId, id) {
      await trx
        .deleteFrom('poll_votes')
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .where('option_id', '=', id)
        .execute();
      await trx
        .deleteFrom('poll_options')
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .where('id', '=', id)
        .execute();
    },

    votesOf: (executor, appId, pollId, userId) =>
      executor
        .selectFrom('poll_votes')
        .selectAll()
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),

    vote: (executor, appId, id) =>
      executor
        .selectFrom('poll_votes')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),

    async insertVote(trx, row) {
      await trx.insertInto('poll_votes').values(row).execute();
    },

    async updateVote(trx, appId, id, patch) {
      await trx
        .updateTable('poll_votes')
        .set(patch)
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },

    async removeVote(trx, appId, id) {
      await trx.deleteFrom('poll_votes').where('app_id', '=', appId).where('id', '=', id).execute();
    },

    queryVotes(appId, pollId, where, orderBy, limit, offset) {
      let query = db
        .selectFrom('poll_votes')
        .selectAll()
        .where('app_id', '=', appId)
        .where('poll_id', '=', pollId)
        .where(where);
      for (const item of orderBy.length ? orderBy : [sql`created_at desc`])
        query = query.orderBy(item);
      return query.orderBy('id').limit(limit).offset(offset).execute();
    },

    queryPolls(appId, where, orderBy, limit, offset) {
      let query = db.selectFrom('polls').selectAll().where('app_id', '=', appId).where(where);
      for (const item of orderBy.length ? orderBy : [sql`created_at desc`])
        query = query.orderBy(item);
      return query.orderBy('id').limit(limit).offset(offset).execute();
    },
  };
}
