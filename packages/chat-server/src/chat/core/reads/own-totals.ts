import type { Hub } from '../../../realtime/hub.ts';
import type { ReadsRepo, UnreadTotals } from './repo.ts';

/**
 * Members of a channel with more members than this get the shared frame of `message.new` /
 * `notification.message_new`, without their own unread totals (the web app then asks `GET /unread`): a send never
 * computes totals for more users than this. The same cap already bounds the notification.message_new fan-out.
 */
export const OWN_TOTALS_MEMBER_CAP = 500;

/** The unread fields Stream puts on events for their receiver. */
export function unreadFields(totals: UnreadTotals): Record<string, number> {
  return {
    total_unread_count: totals.total,
    unread_count: totals.total,
    unread_channels: totals.channels,
  };
}

/**
 * Unread fields for the given users who have a connection on this node, from one grouped query. Users connected
 * only to other nodes (or not at all) are left out and get the shared frame, so a send never computes totals for
 * members nobody here is waiting for.
 */
export async function ownTotalsOfConnected(
  hub: Hub,
  reads: ReadsRepo,
  appId: string,
  userIds: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const connected = userIds.filter((id) => hub.userConnectionCount(appId, id) > 0);
  const totals = await reads.totalsFor(appId, connected);
  return new Map([...totals].map(([id, t]) => [id, unreadFields(t)]));
}
