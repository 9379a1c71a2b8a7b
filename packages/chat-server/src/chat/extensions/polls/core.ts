import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { ChannelAccess, ChannelsService } from '../../core/channels/service.ts';
import { isHidden, toWatchersWhoSee, historyBound } from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import type { UsersService } from '../../core/users/service.ts';
import {
  channelActivityEvent,
  channelKeysOf,
  userEvent,
  type ServerEventType,
} from '../../core/wire/events.ts';
import type { PollRow, PollsRepo, PollVoteRow } from './repo.ts';
import {
  isAnonymous,
  pollUserIds,
  toPollResponse,
  toVoteResponse,
  type PollResponse,
  type PollVoteResponse,
} from './serialize.ts';

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

/** Who acted on a poll, as its events carry it: the vote and its voter, or the user who changed the poll. */
interface ActedFields {
  poll_vote?: PollVoteResponse;
  user?: UserResponse;
}

export interface PollsCoreContext {
  deps: ChatDeps;
  repo: PollsRepo;
  channels: ChannelsService;
  users: UsersService;
  events: EventPublisher;
}

export function createPollsCore({
  deps,
  repo,
  channels,
  users,
  events,
}: PollsCoreContext): PollsCore {
  async function responses(appId: string, polls: readonly PollRow[], viewerId: string | null) {
    const result = new Map<string, PollResponse>();
    if (polls.length === 0) return result;
    const ids = polls.map((p) => p.id);
    const [aggregates, own] = await Promise.all([
      repo.aggregates(appId, ids),
      viewerId
        ? repo.ownVotes(appId, ids, viewerId)
        : Promise.resolve(new Map<string, PollVoteRow[]>()),
    ]);
    const userIds = new Set<string>();
    for (const poll of polls) {
      for (const id of pollUserIds(poll, aggregates.get(poll.id)!, own.get(poll.id) ?? []))
        userIds.add(id);
    }
    const usersById = await users.responses(appId, userIds);
    for (const poll of polls) {
      result.set(
        poll.id,
        toPollResponse(poll, aggregates.get(poll.id)!, own.get(poll.id) ?? [], usersById),
      );
    }
    return result;
  }

  async function response(appId: string, poll: PollRow, viewerId: string | null) {
    return (await responses(appId, [poll], viewerId)).get(poll.id)!;
  }

  /**
   * What the voter (or the acting user) sees of the act, and what everyone else sees: the same, except that on an
   * anonymous poll the others get the vote without its voter.
   */
  async function actedFields(
    actor: Actor,
    poll: PollRow,
    vote: PollVoteRow | undefined,
  ): Promise<{ voter: ActedFields; others: ActedFields }> {
    if (!vote) {
      const acted = actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {};
      return { voter: acted, others: acted };
    }
    const voters = await users.responses(actor.appId, [vote.user_id]);
    const whole = { poll_vote: toVoteResponse(vote, voters, true), user: voters.get(vote.user_id) };
    const others = isAnonymous(poll) ? { poll_vote: toVoteResponse(vote, voters, false) } : whole;
    return { voter: whole, others };
  }

  /** When the message carrying the poll was created ('' when it has none). */
  async function carrierCreatedAt(appId: string, poll: PollRow): Promise<string> {
    if (!poll.message_id) return '';
    const message = await deps.db
      .selectFrom('messages')
      .select('created_at')
      .where('app_id', '=', appId)
      .where('id', '=', poll.message_id)
      .executeTakeFirst();
    return message?.created_at ?? '';
  }

  const isPrivileged = (actor: Actor) =>
    actor.isServer || actor.role === 'admin' || actor.role === 'moderator';

  return {
    repo,
    responses,
    response,

    actingUser(actor, given) {
      if (actor.isServer) {
        const id = typeof given === 'string' && given ? given : actor.userId;
        if (!id) throw chatError.input('user_id is required for server-side calls');
        return id;
      }
      if (!actor.userId) throw chatError.notAllowed('anonymous users cannot use polls');
      return actor.userId;
    },

    async readable(actor, pollId) {
      const poll = await repo.get(deps.db, actor.appId, pollId);
      if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
      if (poll.cid) {
        const access = await channels.access(actor, poll.cid);
        requirePermission(access.permissions, 'read-channel', `reading poll ${pollId}`);
        // A poll is part of its message: gone with it for a viewer who can no longer see that message.
        const message = poll.message_id
          ? await deps.db
              .selectFrom('messages')
              .select(['cid', 'created_at'])
              .where('app_id', '=', actor.appId)
              .where('id', '=', poll.message_id)
              .executeTakeFirst()
          : undefined;
        if (
          !message ||
          message.cid !== poll.cid ||
          isHidden(message, historyBound(access.channel, access.membership))
        )
          throw chatError.notFound(`poll with id ${pollId} does not exist`);
        return { poll, access };
      }
      if (!isPrivileged(actor) && poll.created_by_id !== actor.userId)
        throw chatError.notFound(`poll with id ${pollId} does not exist`);
      return { poll };
    },

    async owned(actor, pollId) {
      const poll = await repo.get(deps.db, actor.appId, pollId);
      if (!poll) throw chatError.notFound(`poll with id ${pollId} does not exist`);
      if (!isPrivileged(actor) && poll.created_by_id !== actor.userId)
        throw chatError.notAllowed(`only the creator of poll ${pollId} can change it`);
      return poll;
    },

    async announce(actor, type, poll, vote) {
      const shared = await response(actor.appId, poll, null);
      const now = deps.clock.now();
      const fields = await actedFields(actor, poll, vote);
      const build = (acted: ActedFields) =>
        poll.cid
          ? channelActivityEvent(type, channelKeysOf(poll.cid), now, {
              poll: shared,
              message_id: poll.message_id ?? undefined,
              ...acted,
            })
          : userEvent(type, now, { poll: shared, ...acted });
      if (!poll.cid) {
        events.toUser(actor.appId, vote?.user_id ?? poll.created_by_id, build(fields.voter));
        if (vote && vote.user_id !== poll.created_by_id)
          events.toUser(actor.appId, poll.created_by_id, build(fields.others));
        return shared;
      }
      // Like its message, the poll stays hidden from the watchers who cannot see that message.
      const createdAt = await carrierCreatedAt(actor.appId, poll);
      const channel = { cid: poll.cid };
      if (vote && isAnonymous(poll)) {
        await toWatchersWhoSee(
          deps.db,
          events,
          actor.appId,
          channel,
          createdAt,
          build(fields.others),
          [vote.user_id],
        );
        events.toUser(actor.appId, vote.user_id, build(fields.voter));
      } else {
        await toWatchersWhoSee(
          deps.db,
          events,
          actor.appId,
          channel,
          createdAt,
          build(fields.others),
        );
      }
      return shared;
    },
  };
}
