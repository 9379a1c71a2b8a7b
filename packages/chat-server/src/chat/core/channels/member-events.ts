import { reportActivity } from '../extension-points.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelUseCaseContext } from './context.ts';
import type { ChannelRow, MemberRow } from './repo.ts';
import { toMemberResponse, type MemberResponse } from './serialize.ts';

type EventsContext = Pick<
  ChannelUseCaseContext,
  'repo' | 'users' | 'events' | 'baseEvent' | 'eventChannel' | 'activity'
>;

/**
 * `member.added` to the channel and `notification.added_to_channel` to each newcomer; an invitee also gets
 * `notification.invited` (the channel list shows the pending invitation through the first, clients that react to
 * invitations listen for the second).
 */
export async function publishMembersAdded(
  ctx: EventsContext,
  actor: Actor,
  cid: string,
  added: MemberRow[],
): Promise<void> {
  if (added.length === 0) return;
  const channel = (await ctx.repo.get(actor.appId, cid))!;
  const usersById = await ctx.users.responses(
    actor.appId,
    added.map((m) => m.user_id),
  );
  const channelObject = await ctx.eventChannel(channel);
  for (const member of added) {
    const memberResponse = toMemberResponse(member, usersById);
    ctx.events.toChannel(
      actor.appId,
      cid,
      ctx.baseEvent('member.added', channel, { member: memberResponse, user: memberResponse.user }),
    );
    const payload = { channel: channelObject, member: memberResponse, user: memberResponse.user };
    const own = ctx.baseEvent('notification.added_to_channel', channel, payload);
    ctx.events.toUser(actor.appId, member.user_id, own);
    if (member.invited === 1)
      ctx.events.toUser(
        actor.appId,
        member.user_id,
        ctx.baseEvent('notification.invited', channel, payload),
      );
  }
  reportActivity(ctx.activity, {
    kind: 'members-added',
    appId: actor.appId,
    cid,
    actorId: actor.userId,
    userIds: added.map((m) => m.user_id),
  });
}

/** `member.removed` to the channel and `notification.removed_from_channel` to each one removed. */
export async function publishMembersRemoved(
  ctx: EventsContext,
  actor: Actor,
  channel: ChannelRow,
  removed: string[],
): Promise<void> {
  if (removed.length === 0) return;
  const usersById = await ctx.users.responses(actor.appId, removed);
  const fresh = (await ctx.repo.get(actor.appId, channel.cid)) ?? channel;
  const channelObject = await ctx.eventChannel(fresh);
  for (const userId of removed) {
    const user = usersById.get(userId);
    ctx.events.toChannel(
      actor.appId,
      channel.cid,
      ctx.baseEvent('member.removed', fresh, { user, member: { user_id: userId, user } }),
    );
    ctx.events.toUser(
      actor.appId,
      userId,
      ctx.baseEvent('notification.removed_from_channel', fresh, {
        channel: channelObject,
        user,
        member: { user_id: userId, user },
      }),
    );
  }
}

/** `member.updated` to the channel and to the member's own connections; returns the member as sent. */
export async function publishMemberUpdated(
  ctx: EventsContext,
  appId: string,
  channel: ChannelRow,
  userId: string,
): Promise<MemberResponse> {
  const member = (await ctx.repo.member(appId, channel.cid, userId))!;
  const usersById = await ctx.users.responses(appId, [userId]);
  const response = toMemberResponse(member, usersById);
  const event = ctx.baseEvent('member.updated', channel, {
    member: response,
    user: response.user,
  });
  // The member may not be watching (pinning from the channel list): their own connections learn it too.
  ctx.events.together(appId, (out) => {
    out.toChannel(channel.cid, event);
    out.toUser(userId, event, { skipWatchersOf: channel.cid });
  });
  return response;
}

/** `notification.invite_accepted` / `notification.invite_rejected` to the answering member's own connections. */
export async function publishInviteAnswered(
  ctx: EventsContext,
  appId: string,
  channel: ChannelRow,
  answer: { userId: string; accepted: boolean },
): Promise<void> {
  const member = await ctx.repo.member(appId, channel.cid, answer.userId);
  if (!member) return;
  const usersById = await ctx.users.responses(appId, [answer.userId]);
  const response = toMemberResponse(member, usersById);
  ctx.events.toUser(
    appId,
    answer.userId,
    ctx.baseEvent(
      answer.accepted ? 'notification.invite_accepted' : 'notification.invite_rejected',
      channel,
      { channel: await ctx.eventChannel(channel), member: response, user: response.user },
    ),
  );
}
