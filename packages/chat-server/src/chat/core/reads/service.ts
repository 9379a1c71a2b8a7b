import { isoJustBefore, normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { assertChannelId, assertChannelType, type ChannelsService } from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import type { MessagesRepo } from '../messages/repo.ts';
import { isHidden, historyBound } from '../access/visibility.ts';
import { unreadSummary } from '../users/me.ts';
import type { UsersService } from '../users/service.ts';
import { channelEvent, userEvent } from '../wire/events.ts';
import type { UnreadCountsResponse } from '../wire/types.ts';
import type { ReadsRepo } from './repo.ts';

export interface ReadsService {
  markRead(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ event: object }>;
  markUnread(actor: Actor, typeName: string, id: string, body: JsonObject): Promise<void>;
  markAllRead(actor: Actor, body: JsonObject): Promise<void>;
  unreadCounts(actor: Actor, userId?: string): Promise<UnreadCountsResponse>;
}

/** What the reads service needs from the rest of the core. */
export interface ReadsContext {
  deps: ChatDeps;
  reads: ReadsRepo;
  messages: MessagesRepo;
  channels: ChannelsService;
  users: UsersService;
  events: EventPublisher;
}

/** The receiver's own unread totals, as Stream puts them on read events. */
interface UnreadCounters {
  total_unread_count: number;
  unread_count: number;
  unread_channels: number;
  unread_threads: number;
}

export function createReadsService({
  deps,
  reads,
  messages,
  channels,
  users,
  events,
}: ReadsContext): ReadsService {
  async function counters(appId: string, userId: string): Promise<UnreadCounters> {
    const summary = await unreadSummary(deps, appId, userId);
    return {
      total_unread_count: summary.total,
      unread_count: summary.total,
      unread_channels: summary.channels,
      unread_threads: summary.threads,
    };
  }

  function userOf(actor: Actor): string {
    if (!actor.userId) throw chatError.input('user_id is required');
    return actor.userId;
  }

  async function latestVisible(
    appId: string,
    cid: string,
    parentId: string | null,
  ): Promise<{ id: string; created_at: string } | undefined> {
    const [latest] = await messages.page({ appId, cid, parentId }, { limit: 1, offset: 0 });
    return latest;
  }

  return {
    async markRead(actor, typeName, id, body) {
      assertChannelType(typeName);
      assertChannelId(id);
      const userId = userOf(actor);
      const access = await channels.access(actor, `${typeName}:${id}`);
      requirePermission(access.permissions, 'read-channel', 'marking the channel read');
      const channel = access.channel;
      const threadId = typeof body.thread_id === 'string' && body.thread_id ? body.thread_id : null;
      const now = deps.clock.now();
      let lastReadMessageId: string | null = null;
      if (typeof body.message_id === 'string' && body.message_id)
        lastReadMessageId = body.message_id;
      else
        lastReadMessageId = (await latestVisible(actor.appId, channel.cid, threadId))?.id ?? null;
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
      const totals = await counters(actor.appId, userId);
      // The reader's own sockets get message.read with their updated totals; other watchers get the shared frame.
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
    },

    async markUnread(actor, typeName, id, body) {
      assertChannelType(typeName);
      assertChannelId(id);
      const userId = userOf(actor);
      const access = await channels.access(actor, `${typeName}:${id}`);
      requirePermission(access.permissions, 'read-channel', 'marking the channel unread');
      const channel = access.channel;
      const threadId = typeof body.thread_id === 'string' && body.thread_id ? body.thread_id : null;
      const bound = historyBound(channel, access.membership);
      let from: { id: string | null; created_at: string };
      if (typeof body.message_id === 'string' && body.message_id) {
        const message = await messages.get(actor.appId, body.message_id);
        // A message hidden from the reader (truncation, hide_history, clear_history) does not exist for them.
        if (!message || message.cid !== channel.cid || isHidden(message, bound))
          throw chatError.notFound(`message ${body.message_id} does not exist in this channel`);
        from = { id: message.id, created_at: message.created_at };
      } else if (typeof body.message_timestamp === 'string') {
        const at = normalizeIso(body.message_timestamp);
        if (!at) throw chatError.input('message_timestamp must be a date');
        from = { id: null, created_at: at };
      } else {
        throw chatError.input('either message_id or message_timestamp is required');
      }
      const lastRead = isoJustBefore(from.created_at);
      const previous = (
        await messages.page(
          { appId: actor.appId, cid: channel.cid, parentId: threadId, visibleAfter: bound },
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
      const totals = await counters(actor.appId, userId);
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
    },

    async markAllRead(actor, body) {
      const userId = userOf(actor);
      const byChannel = body.read_by_channel;
      const now = deps.clock.now();
      if (isPlainObject(byChannel) && Object.keys(byChannel).length > 0) {
        for (const [cid, messageId] of Object.entries(byChannel)) {
          const [typeName, id] = cid.split(':');
          if (!typeName || !id) throw chatError.input(`invalid cid ${cid}`);
          await this.markRead(
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
      const totals = await counters(actor.appId, userId);
      events.toUser(
        actor.appId,
        userId,
        userEvent('notification.mark_read', now, { user, ...totals }),
      );
    },

    async unreadCounts(actor, requestedUserId) {
      const userId = actor.isServer ? (requestedUserId ?? actor.userId) : actor.userId;
      if (!userId) throw chatError.input('user_id is required');
      const [channelReads, threadReads] = await Promise.all([
        reads.channelUnreads(actor.appId, userId),
        reads.threadUnreads(actor.appId, userId),
      ]);
      const byType = new Map<string, { channel_count: number; unread_count: number }>();
      for (const read of channelReads) {
        const type = read.cid.split(':')[0]!;
        const entry = byType.get(type) ?? { channel_count: 0, unread_count: 0 };
        entry.channel_count += read.unread > 0 ? 1 : 0;
        entry.unread_count += read.unread;
        byType.set(type, entry);
      }
      return {
        total_unread_count: channelReads.reduce((sum, r) => sum + r.unread, 0),
        total_unread_threads_count: threadReads.filter((r) => r.unread > 0).length,
        channels: channelReads
          .filter((r) => r.unread > 0)
          .map((r) => ({ channel_id: r.cid, last_read: r.last_read, unread_count: r.unread })),
        channel_type: [...byType].map(([channel_type, v]) => ({ channel_type, ...v })),
        threads: threadReads
          .filter((r) => r.unread > 0)
          .map((r) => ({
            parent_message_id: r.thread_id,
            last_read: r.last_read,
            last_read_message_id: r.last_read_message_id,
            unread_count: r.unread,
          })),
      } satisfies UnreadCountsResponse;
    },
  };
}
