import { requireFeature } from '../channel-types/features.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { isLargeChannel } from '../channels/large-channel.ts';
import { assertChannelId, assertChannelType } from '../channels/service.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { privacyAllows } from '../users/privacy.ts';
import { channelEvent, userEvent } from '../wire/events.ts';
import { counters, threadOf, userOf, type ReadsContext } from './context.ts';

async function latestVisible(
  { messages }: ReadsContext,
  appId: string,
  cid: string,
  parentId: string | null,
): Promise<{ id: string; created_at: string } | undefined> {
  const [latest] = await messages.page({ appId, cid, parentId }, { limit: 1, offset: 0 });
  return latest;
}

export async function markRead(
  context: ReadsContext,
  actor: Actor,
  typeName: string,
  id: string,
  body: JsonObject,
): Promise<{ event: object }> {
  const { deps, reads, channels, users, events } = context;
  assertChannelType(typeName);
  assertChannelId(id);
  const userId = userOf(actor);
  const access = await channels.access(actor, `${typeName}:${id}`);
  requirePermission(access.permissions, 'read-channel', 'marking the channel read');
  requireFeature(access.type, 'read_events');
  const channel = access.channel;
  const threadId = threadOf(body);
  const now = deps.clock.now();
  let lastReadMessageId: string | null = null;
  if (typeof body.message_id === 'string' && body.message_id) lastReadMessageId = body.message_id;
  else
    lastReadMessageId =
      (await latestVisible(context, actor.appId, channel.cid, threadId))?.id ?? null;
  await deps.writes.run((trx) =>
    reads.upsert(trx, {
      app_id: actor.appId,
      cid: channel.cid,
      user_id: userId,
      thread_id: threadId ?? '',
      last_read: now,
      last_read_message_id: lastReadMessageId,
    }),
  );
  const user = await users.response(actor.appId, userId);
  const event = channelEvent('message.read', channel, now, {
    user,
    last_read_message_id: lastReadMessageId ?? undefined,
    ...(threadId ? { thread: { parent_message_id: threadId, channel_cid: channel.cid } } : {}),
  });
  const totals = await counters(context, actor.appId, userId);
  // The reader's own sockets get message.read with their updated totals; other watchers get the shared frame.
  // A reader who turned read receipts off keeps their read state, but others are not told; nor is anyone in a large
  // channel (Stream's automatic feature throttling).
  if (privacyAllows(user, 'read_receipts') && !isLargeChannel(deps, actor.appId, channel.cid))
    events.toChannel(actor.appId, channel.cid, event, { skipUserIds: [userId] });
  events.toUser(actor.appId, userId, { ...event, ...totals }, { onlyWatchersOf: channel.cid });
  events.toUser(
    actor.appId,
    userId,
    channelEvent('notification.mark_read', channel, now, {
      ...(threadId ? { thread_id: threadId } : {}),
      user,
      last_read_message_id: lastReadMessageId ?? undefined,
      ...totals,
    }),
  );
  return { event };
}

export async function markAllRead(
  context: ReadsContext,
  actor: Actor,
  body: JsonObject,
): Promise<void> {
  const { deps, reads, users, events } = context;
  const userId = userOf(actor);
  const byChannel = body.read_by_channel;
  const now = deps.clock.now();
  if (isPlainObject(byChannel) && Object.keys(byChannel).length > 0) {
    for (const [cid, messageId] of Object.entries(byChannel)) {
      const [typeName, id] = cid.split(':');
      if (!typeName || !id) throw chatError.input(`invalid cid ${cid}`);
      await markRead(
        context,
        actor,
        typeName,
        id,
        typeof messageId === 'string' ? { message_id: messageId } : {},
      );
    }
    return;
  }
  await deps.writes.run((trx) => reads.markAllRead(trx, actor.appId, userId, now));
  // No cid: the client zeroes every channel's badge.
  const user = await users.response(actor.appId, userId);
  const totals = await counters(context, actor.appId, userId);
  events.toUser(actor.appId, userId, userEvent('notification.mark_read', now, { user, ...totals }));
}
