import type { Actor } from '../../core/access/access.ts';
import {
  eventMessageRef,
  toWatchersWhoSee,
  type EventMessageRef,
} from '../../core/access/visibility.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import { channelActivityEvent, channelKeysOf, userEvent } from '../../core/wire/events.ts';
import type { PollEventType, PollsCoreContext } from './core.ts';
import { pollResponse } from './core-responses.ts';
import type { PollRow, PollVoteRow } from './repo.ts';
import {
  isAnonymous,
  toVoteResponse,
  type PollResponse,
  type PollVoteResponse,
} from './serialize.ts';

/** Who acted on a poll, as its events carry it: the vote and its voter, or the user who changed the poll. */
interface ActedFields {
  poll_vote?: PollVoteResponse;
  user?: UserResponse;
}

/** One poll event being sent: its type, the poll as everyone sees it, and when it happened. */
interface PollAnnouncement {
  type: PollEventType;
  poll: PollRow;
  shared: PollResponse;
  now: string;
  vote: PollVoteRow | undefined;
}

/**
 * What the voter (or the acting user) sees of the act, and what everyone else sees: the same, except that on an
 * anonymous poll the others get the vote without its voter.
 */
async function actedFields(
  { users }: PollsCoreContext,
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
async function carrier(
  { deps }: PollsCoreContext,
  appId: string,
  poll: PollRow,
): Promise<EventMessageRef | string> {
  if (!poll.message_id) return '';
  return (await eventMessageRef(deps.db, appId, poll.message_id)) ?? '';
}

/** The event as one audience gets it: a channel event for a poll on a message, a user event otherwise. */
function buildEvent({ type, poll, shared, now }: PollAnnouncement, acted: ActedFields) {
  return poll.cid
    ? channelActivityEvent(type, channelKeysOf(poll.cid), now, {
        poll: shared,
        message_id: poll.message_id ?? undefined,
        ...acted,
      })
    : userEvent(type, now, { poll: shared, ...acted });
}

/** A poll on no message concerns its creator alone, and the voter when that is someone else. */
function announceToOwner(
  { events }: PollsCoreContext,
  appId: string,
  announcement: PollAnnouncement,
  fields: { voter: ActedFields; others: ActedFields },
): void {
  const { poll, vote } = announcement;
  events.toUser(appId, vote?.user_id ?? poll.created_by_id, buildEvent(announcement, fields.voter));
  if (vote && vote.user_id !== poll.created_by_id)
    events.toUser(appId, poll.created_by_id, buildEvent(announcement, fields.others));
}

/** Like its message, the poll stays hidden from the watchers who cannot see that message. */
async function announceToWatchers(
  context: PollsCoreContext,
  appId: string,
  announcement: PollAnnouncement,
  fields: { voter: ActedFields; others: ActedFields },
): Promise<void> {
  const { deps, events } = context;
  const { poll, vote } = announcement;
  const message = await carrier(context, appId, poll);
  const channel = { cid: poll.cid! };
  const others = buildEvent(announcement, fields.others);
  if (vote && isAnonymous(poll)) {
    await toWatchersWhoSee(deps.db, events, appId, channel, message, others, [vote.user_id]);
    events.toUser(appId, vote.user_id, buildEvent(announcement, fields.voter));
  } else {
    await toWatchersWhoSee(deps.db, events, appId, channel, message, others);
  }
}

/**
 * Emits a poll.* event with the recomputed poll to the watchers of the channel carrying it (or to the creator while
 * it is on no message). For anonymous polls the watchers get the vote without its voter, the voter gets it whole.
 */
export async function announcePoll(
  context: PollsCoreContext,
  actor: Actor,
  type: PollEventType,
  poll: PollRow,
  vote?: PollVoteRow,
): Promise<PollResponse> {
  const shared = await pollResponse(context, actor.appId, poll, null);
  const now = context.deps.clock.now();
  const fields = await actedFields(context, actor, poll, vote);
  const announcement: PollAnnouncement = { type, poll, shared, now, vote };
  if (!poll.cid) announceToOwner(context, actor.appId, announcement, fields);
  else await announceToWatchers(context, actor.appId, announcement, fields);
  return shared;
}
