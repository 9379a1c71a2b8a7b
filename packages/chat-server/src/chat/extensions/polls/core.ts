import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { ChannelAccess, ChannelsService } from '../../core/channels/service.ts';
import { visibleAfter } from '../../core/channels/state.ts';
import { isHidden, toWatchersWhoSee } from '../../core/access/visibility.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { PollRow, PollsRepo, PollVoteRow } from './repo.ts';
import {
  isAnonymous,
  pollUserIds,
  toPollResponse,
  toVoteResponse,
  type PollResponse,
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
  announce(actor: Actor, type: string, poll: PollRow, vote?: PollVoteRow): Promise<PollResponse>;
}

function splitCid(cid: string): { type: string; id: string } {
  const at = cid.indexOf(':');
  return { type: cid.slice(0, at), id: cid.slice(at + 1) };
}

export function createPollsCore(
  deps: ChatDeps,
  repo: PollsRepo,
  channels: ChannelsService,
  users: UsersService,
  events: EventPublisher,
): PollsCore {
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
          isHidden(message, visibleAfter(access.channel, access.membership))
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
      const base: Record<string, unknown> = { type, poll: shared, created_at: deps.clock.now() };
      if (poll.cid) {
        const { type: channelType, id } = splitCid(poll.cid);
        Object.assign(base, {
          cid: poll.cid,
          channel_id: id,
          channel_type: channelType,
          message_id: poll.message_id ?? undefined,
        });
      }
      const anonymous = isAnonymous(poll);
      let full = base;
      if (vote) {
        const voter = await users.responses(actor.appId, [vote.user_id]);
        full = {
          ...base,
          poll_vote: toVoteResponse(vote, voter, true),
          user: voter.get(vote.user_id),
        };
        if (anonymous) base.poll_vote = toVoteResponse(vote, voter, false);
        else Object.assign(base, full);
      } else if (actor.userId) {
        base.user = await users.response(actor.appId, actor.userId);
      }
      if (!poll.cid) {
        events.toUser(actor.appId, vote?.user_id ?? poll.created_by_id, full);
        if (vote && vote.user_id !== poll.created_by_id)
          events.toUser(actor.appId, poll.created_by_id, base);
        return shared;
      }
      // Like its message, the poll stays hidden from the watchers who cannot see that message.
      const message = poll.message_id
        ? await deps.db
            .selectFrom('messages')
            .select('created_at')
            .where('app_id', '=', actor.appId)
            .where('id', '=', poll.message_id)
            .executeTakeFirst()
        : undefined;
      const createdAt = message?.created_at ?? '';
      const channel = { cid: poll.cid };
      if (vote && anonymous) {
        await toWatchersWhoSee(deps.db, events, actor.appId, channel, createdAt, base, [
          vote.user_id,
        ]);
        events.toUser(actor.appId, vote.user_id, full);
      } else {
        await toWatchersWhoSee(deps.db, events, actor.appId, channel, createdAt, base);
      }
      return shared;
    },
  };
}
