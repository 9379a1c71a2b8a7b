import { sql, type RawBuilder } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { readableChannel, visibleToViewer } from '../../core/access/visibility.ts';
import type { ChannelTypeLookup } from '../../core/channel-types.ts';
import type { JsonObject } from '../../core/json.ts';
import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import { compileFilter, type FilterSchema } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import {
  isAnonymous,
  toVoteResponse,
  type PollResponse,
  type PollVoteResponse,
} from './serialize.ts';
import type { PollVotesContext } from './votes.ts';

/** The fields a poll-votes filter may name, and the columns they read. */
const VOTE_FILTER_FIELDS: FilterSchema['fields'] = {
  id: { kind: 'column', ref: 'id', type: 'text' },
  option_id: { kind: 'column', ref: 'option_id', type: 'text', nullable: true },
  is_answer: { kind: 'column', ref: 'is_answer', type: 'boolean' },
  user_id: { kind: 'column', ref: 'user_id', type: 'text' },
  created_by_id: { kind: 'column', ref: 'user_id', type: 'text' },
  created_at: { kind: 'column', ref: 'created_at', type: 'date' },
  updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
};

/** The fields a polls filter may name (others are looked up in the custom data). */
const POLL_FILTER_FIELDS: FilterSchema['fields'] = {
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
};

export async function queryVotes(
  { deps, core, users }: PollVotesContext,
  actor: Actor,
  pollId: string,
  body: JsonObject,
): Promise<{ votes: PollVoteResponse[]; next?: string }> {
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
    fields: VOTE_FILTER_FIELDS,
  });
  const orderBy = compileSort(parseSort(body.sort), {
    dialect: deps.dialect,
    entity: 'poll votes',
    fields: { created_at: sql`created_at`, updated_at: sql`updated_at` },
  });
  const rows = await core.repo.queryVotes(actor.appId, pollId, where, orderBy, limit + 1, offset);
  const page = rows.slice(0, limit);
  const usersById = await users.responses(
    actor.appId,
    page.map((v) => v.user_id),
  );
  const result: { votes: PollVoteResponse[]; next?: string } = {
    votes: page.map((v) => toVoteResponse(v, usersById, !anonymous || v.user_id === actor.userId)),
  };
  if (rows.length > limit) result.next = encodeOffsetCursor(offset + limit);
  return result;
}

/**
 * A user sees the polls they created and those on messages they can see: in a channel they may read, and not hidden
 * from them (truncation, hide_history, clear_history).
 */
function visiblePolls(actor: Actor, types: ChannelTypeLookup): RawBuilder<boolean> {
  const onVisibleMessage = sql<boolean>`exists (select 1 from messages pm where pm.app_id = polls.app_id and pm.id = polls.message_id and pm.cid = polls.cid and ${visibleToViewer('pm', actor.userId)} and ${readableChannel(actor, sql.ref('pm.app_id'), sql.ref('pm.cid'), types)})`;
  if (actor.isServer) return sql<boolean>`1 = 1`;
  return actor.userId
    ? sql<boolean>`(created_by_id = ${actor.userId} or ${onVisibleMessage})`
    : onVisibleMessage;
}

export async function queryPolls(
  { deps, core }: PollVotesContext,
  actor: Actor,
  body: JsonObject,
): Promise<{ polls: PollResponse[]; next?: string }> {
  const limit = pageLimit(body.limit, 10, 100);
  const offset = decodeOffsetCursor(body.next, 'next');
  const filter = compileFilter(body.filter ?? {}, {
    dialect: deps.dialect,
    entity: 'polls',
    customColumn: 'custom',
    fields: POLL_FILTER_FIELDS,
  });
  const visible = visiblePolls(actor, deps.channelTypes);
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
  const rows = await core.repo.queryPolls(
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
}
