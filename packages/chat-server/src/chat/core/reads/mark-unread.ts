import { isoJustBefore, normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { actorWindow, inWindow, type HistoryWindow } from '../access/visibility.ts';
import { assertChannelId, assertChannelType } from '../channels/service.ts';
import type { ChannelRow } from '../channels/repo.ts';
import type { JsonObject } from '../json.ts';
import { channelEvent } from '../wire/events.ts';
import { counters, threadOf, userOf, type ReadsContext } from './context.ts';

/** The first unread message (or only its time, when the client gave a timestamp). */
interface UnreadFrom {
  id: string | null;
  created_at: string;
}

async function unreadFrom(
  { messages }: ReadsContext,
  appId: string,
  channel: ChannelRow,
  window: HistoryWindow,
  body: JsonObject,
): Promise<UnreadFrom> {
  if (typeof body.message_id === 'string' && body.message_id) {
    const message = await messages.get(appId, body.message_id);
    // A message hidden from the reader (truncation, hide_history, clear_history, restricted visibility, a shadow-banned
    // author) does not exist for them: the answer is the same as for an id that was never used.
    if (!message || message.cid !== channel.cid || !inWindow(window, message))
      throw chatError.notFound(`message ${body.message_id} does not exist in this channel`);
    return { id: message.id, created_at: message.created_at };
  }
  if (typeof body.message_timestamp === 'string') {
    const at = normalizeIso(body.message_timestamp);
    if (!at) throw chatError.input('message_timestamp must be a date');
    return { id: null, created_at: at };
  }
  // `markUnread({thread_id})` alone marks the whole thread unread, as Stream documents: every reply after its parent.
  const threadId = threadOf(body);
  if (threadId) {
    const parent = await messages.get(appId, threadId);
    if (!parent || parent.cid !== channel.cid || parent.parent_id || !inWindow(window, parent))
      throw chatError.notFound(`thread ${threadId} does not exist in this channel`);
    return { id: null, created_at: parent.created_at };
  }
  throw chatError.input('either message_id, message_timestamp or thread_id is required');
}

export async function markUnread(
  context: ReadsContext,
  actor: Actor,
  typeName: string,
  id: string,
  body: JsonObject,
): Promise<void> {
  const { deps, reads, messages, channels, users, events } = context;
  assertChannelType(typeName);
  assertChannelId(id);
  const userId = userOf(actor);
  const access = await channels.access(actor, `${typeName}:${id}`);
  requirePermission(access.permissions, 'read-channel', 'marking the channel unread');
  const channel = access.channel;
  const threadId = threadOf(body);
  const window = actorWindow(actor, access);
  const from = await unreadFrom(context, actor.appId, channel, window, body);
  const lastRead = isoJustBefore(from.created_at);
  const previous = (
    await messages.page(
      {
        appId: actor.appId,
        cid: channel.cid,
        parentId: threadId,
        visibleAfter: window.hiddenThrough,
        viewer: window.viewerId,
      },
      { limit: 1, offset: 0, createdAtBeforeOrEqual: lastRead },
    )
  )[0];
  await deps.writes.run((trx) =>
    reads.upsert(trx, {
      app_id: actor.appId,
      cid: channel.cid,
      user_id: userId,
      thread_id: threadId ?? '',
      last_read: lastRead,
      last_read_message_id: previous?.id ?? null,
      first_unread_message_id: from.id,
    }),
  );
  const own = threadId ? undefined : await reads.forUser(actor.appId, userId, channel.cid);
  const user = await users.response(actor.appId, userId);
  const totals = await counters(context, actor.appId, userId);
  events.toUser(
    actor.appId,
    userId,
    channelEvent('notification.mark_unread', channel, deps.clock.now(), {
      ...(threadId ? { thread_id: threadId } : {}),
      user,
      first_unread_message_id: from.id ?? undefined,
      last_read_at: lastRead,
      last_read_message_id: previous?.id ?? undefined,
      unread_messages: own?.unread ?? 0,
      ...totals,
    }),
  );
}
