import type { Actor } from '../access/access.ts';
import { authorOnly, privateAudience } from '../access/visibility.ts';
import { reportActivity } from '../extension-points.ts';
import { OWN_TOTALS_MEMBER_CAP, ownTotalsOfConnected } from '../reads/own-totals.ts';
import { createAnnounceOrder } from './announce-order.ts';
import type { MessagesUseCaseContext } from './context.ts';
import type { StoredMessage } from './store.ts';

/** Announces a stored message: `message.new` to watchers, notifications to members and thread participants. */
export type AnnounceNewMessage = (actor: Actor, stored: StoredMessage) => Promise<void>;

type AnnounceContext = Pick<
  MessagesUseCaseContext,
  'deps' | 'reads' | 'threads' | 'channels' | 'events' | 'lookup' | 'points'
>;

function newMessageEvent(
  { deps, lookup }: AnnounceContext,
  actor: Actor,
  { channel, row, message }: StoredMessage,
) {
  return lookup.event('message.new', channel, {
    message,
    user: message.user,
    message_id: message.id,
    watcher_count: deps.presence.watcherCountNow(actor.appId, channel.cid),
    channel_last_message_at: channel.last_message_at ?? undefined,
    ...(row.parent_id ? { parent_id: row.parent_id } : {}),
  });
}

type NewMessageEvent = ReturnType<typeof newMessageEvent>;

/** What members not watching the channel get, when any member besides the author is told. */
async function notificationOf(
  { channels, lookup }: AnnounceContext,
  { channel, row, message }: StoredMessage,
  memberIds: string[],
) {
  const inChannel = !row.parent_id || row.show_in_channel === 1;
  const others = inChannel ? memberIds.filter((id) => id !== row.user_id) : [];
  if (others.length === 0) return null;
  const event = lookup.event('notification.message_new', channel, {
    channel: await channels.eventChannel(channel),
    message,
    user: message.user,
  });
  return { event, others };
}

/**
 * Watchers get `message.new`; members connected here get their own copy with their unread totals (one grouped
 * query, capped), on their user topic and only to their sockets watching the channel. Members not watching learn
 * of it as `notification.message_new`. All of it is one bus message (`together`): a member whose watch lands
 * meanwhile gets one of the two, never neither.
 */
async function announceInChannel(
  context: AnnounceContext,
  actor: Actor,
  stored: StoredMessage,
  event: NewMessageEvent,
  audience: ReadonlySet<string> | null,
): Promise<void> {
  const { deps, reads, channels, events } = context;
  const { channel } = stored;
  // A restricted message reaches its audience alone: members outside it are not told, watchers outside it neither.
  const memberIds = (
    channel.member_count <= OWN_TOTALS_MEMBER_CAP || audience
      ? await channels.repo.memberIds(actor.appId, channel.cid)
      : []
  ).filter((id) => !audience || audience.has(id));
  const [own, notification] = await Promise.all([
    ownTotalsOfConnected(deps.hub, reads, actor.appId, memberIds),
    notificationOf(context, stored, memberIds),
  ]);
  events.together(actor.appId, (out) => {
    if (audience)
      out.toUsers(
        [...audience].filter((id) => !own.has(id)),
        event,
        { onlyWatchersOf: channel.cid },
      );
    else out.toChannel(channel.cid, event, { skipUserIds: [...own.keys()] });
    out.toEachUser(event, own, { onlyWatchersOf: channel.cid });
    if (!notification) return;
    const notWatching = { skipWatchersOf: channel.cid };
    const others = new Set(notification.others);
    const ownOfOthers = new Map([...own].filter(([id]) => others.has(id)));
    out.toEachUser(notification.event, ownOfOthers, notWatching);
    out.toUsers(
      notification.others.filter((id) => !own.has(id)),
      notification.event,
      notWatching,
    );
  });
}

/** A reply tells the thread's other participants, and its parent's reply_count and participants changed. */
async function announceInThread(
  { threads, events, lookup }: AnnounceContext,
  actor: Actor,
  { channel, row, message }: StoredMessage,
  parentId: string,
  audience: ReadonlySet<string> | null,
): Promise<void> {
  const participants = (await threads.participants(actor.appId, [parentId])).get(parentId) ?? [];
  const others = participants
    .map((p) => p.user_id)
    .filter((id) => id !== row.user_id && (!audience || audience.has(id)));
  if (others.length > 0) {
    events.toUsers(
      actor.appId,
      others,
      lookup.event('notification.thread_message_new', channel, {
        message,
        user: message.user,
        parent_id: parentId,
      }),
    );
  }
  await lookup.publishUpdated(actor, channel, parentId);
}

export function createAnnounceNew(context: AnnounceContext): AnnounceNewMessage {
  const announceInOrder = createAnnounceOrder();
  return async (actor, stored) => {
    // Built before waiting for the announcements ahead of it, as the send left its commit.
    const event = newMessageEvent(context, actor, stored);
    const key = `${actor.appId}\n${stored.channel.cid}`;
    if (authorOnly(stored.row)) {
      // A shadow-banned author sees their message as sent, an author their pending message; nobody else learns of
      // it (access/visibility.ts). A pending message is announced again, to everyone, when it is committed.
      await announceInOrder(key, async () =>
        context.events.toUser(actor.appId, stored.row.user_id, event, {
          onlyWatchersOf: stored.channel.cid,
        }),
      );
      return;
    }
    // Past the author-only case above, a private audience is a restricted message's author and listed users.
    const restricted = privateAudience(stored.row);
    const audience = restricted ? new Set(restricted) : null;
    await announceInOrder(key, () => announceInChannel(context, actor, stored, event, audience));
    // Activity feeds (in-app notifications) are built for the channel's members at large: a restricted message
    // stays out of them rather than reach someone it is not for.
    if (!audience)
      reportActivity(context.points.activity, {
        kind: 'message',
        appId: actor.appId,
        message: stored.row,
      });
    const parentId = stored.row.parent_id;
    if (parentId) await announceInThread(context, actor, stored, parentId, audience);
  };
}
