import type { Actor } from '../../core/access/access.ts';
import type { ChannelAccess, ChannelsService } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { ServerEventType } from '../../core/wire/events.ts';
import { announcePoll } from './core-announce.ts';
import { actingUser, ownedPoll, readablePoll } from './core-access.ts';
import { pollResponse, pollResponses } from './core-responses.ts';
import type { PollRow, PollsRepo, PollVoteRow } from './repo.ts';
import type { PollResponse } from './serialize.ts';

/** What poll CRUD and voting share: who acts, who may see or change a poll, and how changes are announced. */
export interface PollsCore {
  repo: PollsRepo;
  /** The user a call acts for: the token's user, or `user_id` on server-side calls. */
  actingUser(actor: Actor, given: unknown): string;
  /** The poll, readable by the actor (its channel's readers, or only its creator while it is on no message). */
  readable(actor: Actor, pollId: string): Promise<{ poll: PollRow; access?: ChannelAccess }>;
  /** The poll, changeable by the actor (its creator, an admin or moderator, or the server). */
  owned(actor: Actor, pollId: string): Promise<PollRow>;
  /** The recomputed poll with `viewerId`'s own votes (null: none, for shared payloads). */
  response(appId: string, poll: PollRow, viewerId: string | null): Promise<PollResponse>;
  responses(
    appId: string,
    polls: readonly PollRow[],
    viewerId: string | null,
  ): Promise<Map<string, PollResponse>>;
  /**
   * Emits a poll.* event with the recomputed poll to the watchers of the channel carrying it (or to the creator while
   * it is on no message). For anonymous polls the watchers get the vote without its voter, the voter gets it whole.
   */
  announce(
    actor: Actor,
    type: PollEventType,
    poll: PollRow,
    vote?: PollVoteRow,
  ): Promise<PollResponse>;
}

/** The poll.* events, as the client names them. */
export type PollEventType = Extract<ServerEventType, `poll.${string}`>;

export interface PollsCoreContext {
  deps: ChatDeps;
  repo: PollsRepo;
  channels: ChannelsService;
  users: UsersService;
  events: EventPublisher;
}

/** Assembles the core from the module-level functions in core-access.ts, core-responses.ts and core-announce.ts. */
export function createPollsCore(context: PollsCoreContext): PollsCore {
  return {
    repo: context.repo,
    responses: (appId, polls, viewerId) => pollResponses(context, appId, polls, viewerId),
    response: (appId, poll, viewerId) => pollResponse(context, appId, poll, viewerId),
    actingUser,
    readable: (actor, pollId) => readablePoll(context, actor, pollId),
    owned: (actor, pollId) => ownedPoll(context, actor, pollId),
    announce: (actor, type, poll, vote) => announcePoll(context, actor, type, poll, vote),
  };
}
