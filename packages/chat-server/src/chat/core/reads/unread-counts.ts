import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { UnreadCountsResponse } from '../wire/types.ts';
import type { ReadsContext } from './context.ts';
import type { ReadWithUnread } from './repo.ts';

function byChannelType(
  channelReads: readonly ReadWithUnread[],
): UnreadCountsResponse['channel_type'] {
  const byType = new Map<string, { channel_count: number; unread_count: number }>();
  for (const read of channelReads) {
    const type = read.cid.split(':')[0]!;
    const entry = byType.get(type) ?? { channel_count: 0, unread_count: 0 };
    entry.channel_count += read.unread > 0 ? 1 : 0;
    entry.unread_count += read.unread;
    byType.set(type, entry);
  }
  return [...byType].map(([channel_type, v]) => ({ channel_type, ...v }));
}

/** GET /unread: a server may ask for any user, a user only for themselves. */
export async function unreadCounts(
  { reads }: ReadsContext,
  actor: Actor,
  requestedUserId: string | undefined,
): Promise<UnreadCountsResponse> {
  const userId = actor.isServer ? (requestedUserId ?? actor.userId) : actor.userId;
  if (!userId) throw chatError.input('user_id is required');
  const [channelReads, threadReads] = await Promise.all([
    reads.channelUnreads(actor.appId, userId),
    reads.threadUnreads(actor.appId, userId),
  ]);
  return {
    total_unread_count: channelReads.reduce((sum, r) => sum + r.unread, 0),
    total_unread_threads_count: threadReads.filter((r) => r.unread > 0).length,
    channels: channelReads
      .filter((r) => r.unread > 0)
      .map((r) => ({ channel_id: r.cid, last_read: r.last_read, unread_count: r.unread })),
    channel_type: byChannelType(channelReads),
    threads: threadReads
      .filter((r) => r.unread > 0)
      .map((r) => ({
        parent_message_id: r.thread_id,
        last_read: r.last_read,
        last_read_message_id: r.last_read_message_id,
        unread_count: r.unread,
      })),
  } satisfies UnreadCountsResponse;
}
