import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import type { UsersService } from '../../core/users/service.ts';
import { readableChannel, visibleToViewer } from '../../core/access/visibility.ts';
import type { PollsCore } from './core.ts';
import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import { readAnswer, readId } from './input.ts';
import type { PollVoteRow } from './repo.ts';
import {
  isAnonymous,
  toVoteResponse,
  type PollResponse,
  type PollVoteResponse,
} from './serialize.ts';

export interface PollVotesService {
  cast(
    actor: Actor,
    messageId: string,
    pollId: string,
    body: JsonObject,
  ): Promise<{ vote: PollVoteResponse; poll: PollResponse }>;
  remove(
    actor: Actor,
    messageId: string,
    pollId: string,
    voteId: string,
    userId: string | undefined,
  ): Promise<{ vote: PollVoteResponse }>;
  queryVotes(
    actor: Actor,
    pollId: string,
    body: JsonObject,
  ): Promise<{ votes: PollVoteResponse[]; next?: string }>;
  queryPolls(actor: Actor, body: JsonObject): Promise<{ polls: PollResponse[]; next?: string }>;
}

type Outcome =
  | { kind: 'unchanged'; vote: PollVoteRow }
  | { kind: 'poll.vote_casted' | 'poll.vote_changed'; vote: PollVoteRow };

export function createPollVotesService(
  deps: ChatDeps,
  core: PollsCore,
  messages: MessagesService,
  users: UsersService,
): PollVotesService {
  const { repo } = core;

  /** The poll on this message, and the actor's right to vote on it. */
  async function votable(actor: Actor, messageId: string, pollId: string) {
    const { row, access } = await messages.accessMessage(actor, messageId);
    const poll = await repo.get(deps.db, actor.appId, pollId);
    if (!poll || poll.message_id !== row.id)
      throw chatError.notFound(`poll with id ${pollId} does not exist on message ${messageId}`);
    if (!access.type.config.polls)
      throw chatError.featureNotSupported('polls are disabled for this channel type');
    requirePermission(access.permissions, 'cast-poll-vote', 'voting on a poll');
    if (poll.is_closed === 1) throw chatError.input('the poll is closed');
    return poll;
  }

  return {
    async cast(actor, messageId, pollId, body) {
      const userId = core.actingUser(actor, body.user_id);
      const input = body.vote;
      if (!isPlainObject(input)) throw chatError.input('vote is required');
      const poll = await votable(actor, messageId, pollId);
      const isAnswer = input.answer_text !== undefined && input.answer_text !== null;
      const answer = isAnswer ? readAnswer(input.answer_text) : null;
      const optionId = isAnswer ? undefined : readId(input.option_id, 'vote.option_id');
      if (isAnswer && poll.allow_answers !== 1)
        throw chatError.input('this poll does not accept answers');
      if (!isAnswer) {
        if (!optionId) throw chatError.input('vote.option_id or vote.answer_text is required');
        const options = await repo.options(deps.db, actor.appId, pollId);
        if (!options.some((o) => o.id === optionId))
          throw chatError.input(`option ${optionId} does not exist in poll ${pollId}`);
      }
      const outcome = await deps.writes.run<Outcome>(async (trx) => {
        const now = deps.clock.now();
        const mine = await repo.votesOf(trx, actor.appId, pollId, userId);
        if (answer !== null) {
          const previous = mine.find((v) => v.is_answer === 1);
          if (previous) {
            // One answer per user: a second one edits the first (same id) and counts as a change.
            await repo.updateVote(trx, actor.appId, previous.id, {
              answer_text: answer,
              updated_at: now,
            });
            return {
              kind: 'poll.vote_changed',
              vote: { ...previous, answer_text: answer, updated_at: now },
            };
          }
          const vote: PollVoteRow = {
            app_id: actor.appId,
            id: crypto.randomUUID(),
            poll_id: pollId,
            user_id: userId,
            option_id: null,
            answer_text: answer,
            is_answer: 1,
            created_at: now,
            updated_at: now,
          };
          await repo.insertVote(trx, vote);
          return { kind: 'poll.vote_casted', vote };
        }
        const optionVotes = mine.filter((v) => v.is_answer === 0);
        const same = optionVotes.find((v) => v.option_id === optionId);
        if (same) return { kind: 'unchanged', vote: same };
        const vote: PollVoteRow = {
          app_id: actor.appId,
          id: crypto.randomUUID(),
          poll_id: pollId,
          user_id: userId,
          option_id: optionId!,
          answer_text: null,
          is_answer: 0,
          created_at: now,
          updated_at: now,
        };
        if (poll.enforce_unique_vote === 1 && optionVotes.length > 0) {
          for (const old of optionVotes) await repo.removeVote(trx, actor.appId, old.id);
          await repo.insertVote(trx, vote);
          return { kind: 'poll.vote_changed', vote };
        }
        if (poll.max_votes_allowed !== null && optionVotes.length >= poll.max_votes_allowed) {
          throw chatError.input(
            `you have reached the maximum number of votes allowed (${poll.max_votes_allowed})`,
          );
        }
        await repo.insertVote(trx, vote);
        return { kind: 'poll.vote_casted', vote };
      });
      const fresh = (await repo.get(deps.db, actor.appId, pollId)) ?? poll;
      if (outcome.kind !== 'unchanged')
        await core.announce(actor, outcome.kind, fresh, outcome.vote);
      const voter = await users.responses(actor.appId, [userId]);
      return {
        vote: toVoteResponse(outcome.vote, voter, true),
        poll: await core.response(actor.appId, fresh, userId),
      };
    },

    async remove(actor, messageId, pollId, voteId, givenUser) {
      const userId = core.actingUser(actor, givenUser);
      const poll = await votable(actor, messageId, pollId);
      const vote = await repo.vote(deps.db, actor.appId, voteId);
      if (!vote || vote.poll_id !== pollId)
        throw chatError.notFound(`vote with id ${voteId} does not exist`);
      if (vote.user_id !== userId && !actor.isServer)
        throw chatError.notAllowed('you can only remove your own votes');
      await deps.writes.run((trx) => repo.removeVote(trx, actor.appId, voteId));
      await core.announce(actor, 'poll.vote_removed', poll, vote);
      const voter = await users.responses(actor.appId, [vote.user_id]);
      return { vote: toVoteResponse(vote, voter, true) };
    },

    async queryVotes(actor, pollId, body) {
      const { poll, access } = await core.readable(actor, pollId);
      if (access) requirePermission(access.permissions, 'query-poll-votes', 'querying poll votes');
      const filter = body.filter ?? {};
      const anonymous = isAnonymous(poll);
      if (anonymous && JSON.stringify(filter).includes('"user_id"'))
        throw chatError.input('votes of an anonymous poll cannot be filtered by user');
      const limit = pageLimit(body.limit, 25, 300);
      const offset = decodeOffsetCursor(body.next, 'next');
      const where = compileFilter(filter, {
        dialect: deps.dialect,
        entity: 'poll votes',
        fields: {
          id: { kind: 'column', ref: 'id', type: 'text' },
          option_id: { kind: 'column', ref: 'option_id', type: 'text', nullable: true },
          is_answer: { kind: 'column', ref: 'is_answer', type: 'boolean' },
          user_id: { kind: 'column', ref: 'user_id', type: 'text' },
          created_by_id: { kind: 'column', ref: 'user_id', type: 'text' },
          created_at: { kind: 'column', ref: 'created_at', type: 'date' },
          updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
        },
      });
      const orderBy = compileSort(parseSort(body.sort), {
        dialect: deps.dialect,
        entity: 'poll votes',
        fields: { created_at: sql`created_at`, updated_at: sql`updated_at` },
      });
      const rows = await repo.queryVotes(actor.appId, pollId, where, orderBy, limit + 1, offset);
      const page = rows.slice(0, limit);
      const usersById = await users.responses(
        actor.appId,
        page.map((v) => v.user_id),
      );
      const result: { votes: PollVoteResponse[]; next?: string } = {
        votes: page.map((v) =>
          toVoteResponse(v, usersById, !anonymous || v.user_id === actor.userId),
        ),
      };
      if (rows.length > limit) result.next = encodeOffsetCursor(offset + limit);
      return result;
    },

    async queryPolls(actor, body) {
      const limit = pageLimit(body.limit, 10, 100);
      const offset = decodeOffsetCursor(body.next, 'next');
      const filter = compileFilter(body.filter ?? {}, {
        dialect: deps.dialect,
        entity: 'polls',
        customColumn: 'custom',
        fields: {
          id: { kind: 'column', ref: 'id', type: 'text' },
          name: { kind: 'column', ref: 'name', type: 'text' },
          user_id: { kind: 'column', ref: 'created_by_id', type: 'text' },
          created_by_id: { kind: 'column', ref: 'created_by_id', type: 'text' },
          is_closed: { kind: 'column', ref: 'is_closed', type: 'boolean' },
          max_votes_allowed: {
            kind: 'column',
            ref: 'max_votes_allowed',
            type: 'number',
            nullable: true,
          },
          allow_answers: { kind: 'column', ref: 'allow_answers', type: 'boolean' },
          allow_user_suggested_options: {
            kind: 'column',
            ref: 'allow_user_suggested_options',
            type: 'boolean',
          },
          voting_visibility: { kind: 'column', ref: 'voting_visibility', type: 'text' },
          created_at: { kind: 'column', ref: 'created_at', type: 'date' },
          updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
        },
      });
      // A user sees the polls they created and those on messages they can see: in a channel they may read, and
      // not hidden from them (truncation, hide_history, clear_history).
      const onVisibleMessage = sql<boolean>`exists (select 1 from messages pm where pm.app_id = polls.app_id and pm.id = polls.message_id and pm.cid = polls.cid and ${visibleToViewer('pm', actor.userId)} and ${readableChannel(actor, sql.ref('pm.app_id'), sql.ref('pm.cid'))})`;
      const visible = actor.isServer
        ? sql<boolean>`1 = 1`
        : actor.userId
          ? sql<boolean>`(created_by_id = ${actor.userId} or ${onVisibleMessage})`
          : onVisibleMessage;
      const orderBy = compileSort(parseSort(body.sort), {
        dialect: deps.dialect,
        entity: 'polls',
        fields: {
          created_at: sql`created_at`,
          updated_at: sql`updated_at`,
          name: sql`name`,
          id: sql`id`,
          is_closed: sql`is_closed`,
        },
      });
      const rows = await repo.queryPolls(
        actor.appId,
        sql<boolean>`(${filter}) and ${visible}`,
        orderBy,
        limit + 1,
        offset,
      );
      const page = rows.slice(0, limit);
      const responses = await core.responses(actor.appId, page, actor.userId);
      const result: { polls: PollResponse[]; next?: string } = {
        polls: page.map((p) => responses.get(p.id)!),
      };
      if (rows.length > limit) result.next = encodeOffsetCursor(offset + limit);
      return result;
    },
  };
}
