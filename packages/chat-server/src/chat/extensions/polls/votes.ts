import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { PollsCore } from './core.ts';
import type { PollResponse, PollVoteResponse } from './serialize.ts';
import { castVote, removeVote } from './vote-cast.ts';
import { queryPolls, queryVotes } from './vote-queries.ts';

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

/** What voting and the poll queries depend on; the use cases in vote-cast.ts and vote-queries.ts take it first. */
export interface PollVotesContext {
  deps: ChatDeps;
  core: PollsCore;
  messages: MessagesService;
  users: UsersService;
}

export function createPollVotesService(context: PollVotesContext): PollVotesService {
  return {
    cast: (actor, messageId, pollId, body) => castVote(context, actor, messageId, pollId, body),
    remove: (actor, messageId, pollId, voteId, userId) =>
      removeVote(context, actor, { messageId, pollId, voteId, userId }),
    queryVotes: (actor, pollId, body) => queryVotes(context, actor, pollId, body),
    queryPolls: (actor, body) => queryPolls(context, actor, body),
  };
}
