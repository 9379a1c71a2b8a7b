import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../access/access.ts';
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
  ctx: ReadsContext,
  actor: Actor,
  requestedUserId: string | undefined,
): Promise<UnreadCountsResponse> {
  const userId = actor.isServer ? (requestedUserId ?? actor.userId) : actor.userId;
  if (!userId) throw chatError.input('user_id is required');
  return (await countsOf(ctx, actor.appId, [userId])).get(userId)!;
}

/** How many users one POST /unread_batch may name, as on Stream. */
export const MAX_UNREAD_BATCH_USERS = 100;

/** POST /unread_batch (client.getUnreadCountBatch): several users' counts at once, server-side only. */
export async function unreadCountsBatch(
  ctx: ReadsContext,
  actor: Actor,
  userIds: readonly string[],
): Promise<{ counts_by_user: Record<string, UnreadCountsResponse> }> {
  requireServerSide(actor, 'the unread counts of many users can only be read server-side');
  const ids = [...new Set(userIds)];
  if (ids.length === 0 || ids.length > MAX_UNREAD_BATCH_USERS)
    throw chatError.input(`user_ids must name 1 to ${MAX_UNREAD_BATCH_USERS} users`);
  if (ids.some((id) => id.length === 0 || id.length > 255))
    throw chatError.input('user_ids must hold user ids of 1 to 255 characters');
  return { counts_by_user: Object.fromEntries(await countsOf(ctx, actor.appId, ids)) };
}

/** The rows of each user, in the order read. */
function byUser(rows: readonly ReadWithUnread[]): Map<string, ReadWithUnread[]> {
  const result = new Map<string, ReadWithUnread[]>();
  for (const row of rows) {
    const list = result.get(row.user_id);
    if (list) list.push(row);
    else result.set(row.user_id, [row]);
  }
  return result;
}

/** The counts of each of `userIds`, read in two queries whatever their number. */
async function countsOf(
  { reads }: ReadsContext,
  appId: string,
  userIds: readonly string[],
): Promise<Map<string, UnreadCountsResponse>> {
  const [channelRows, threadRows] = await Promise.all([
    reads.channelUnreads(appId, userIds),
    reads.threadUnreads(appId, userIds),
  ]);
  const [channelsOf, threadsOf] = [byUser(channelRows), byUser(threadRows)];
  return new Map(
    userIds.map((id) => [id, toCounts(channelsOf.get(id) ?? [], threadsOf.get(id) ?? [])]),
  );
}

function toCounts(
  channelReads: readonly ReadWithUnread[],
  threadReads: readonly ReadWithUnread[],
): UnreadCountsResponse {
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
