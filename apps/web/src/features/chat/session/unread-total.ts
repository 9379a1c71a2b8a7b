import type { Event, StreamChat } from 'stream-chat';

/** Events after which the cultivator's total unread count may have changed. */
const COUNT_CHANGING_EVENTS = new Set<string>([
  'message.new',
  'message.deleted',
  'notification.message_new',
  'notification.mark_read',
  'notification.mark_unread',
  'notification.added_to_channel',
  'notification.removed_from_channel',
  'notification.channel_deleted',
  'notification.channel_truncated',
  'channel.deleted',
  'channel.truncated',
  'connection.recovered',
]);

/** Bursts of events (a busy channel) become one request. */
export const UNREAD_REFRESH_DELAY_MS = 300;

function totalOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * Follows the signed-in cultivator's total unread count: it starts from `client.user.total_unread_count` (sent with
 * the connection) and takes the total an event carries. Stream's hosted API puts it on every `message.new` and
 * `notification.*` event; a server that leaves it out is asked (`GET /unread`) after such an event instead, so the
 * badge is right either way. Returns the unsubscribe.
 */
export function watchTotalUnread(client: StreamChat, onTotal: (total: number) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  // Bumped by every total an event carries: an answer to a request sent before it is stale.
  let version = 0;
  const initial = totalOf(
    (client.user as { total_unread_count?: unknown } | undefined)?.total_unread_count,
  );
  onTotal(initial ?? 0);

  const refresh = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      const asked = version;
      client.getUnreadCount().then(
        (response) => {
          const total = totalOf(response.total_unread_count);
          if (!stopped && asked === version && total !== null) onTotal(total);
        },
        (error: unknown) => console.warn('Could not refresh the unread count.', error),
      );
    }, UNREAD_REFRESH_DELAY_MS);
  };

  const subscription = client.on((event: Event) => {
    const total = totalOf(event.total_unread_count);
    if (total !== null) {
      version += 1;
      onTotal(total);
      return;
    }
    if (!COUNT_CHANGING_EVENTS.has(event.type)) return;
    // One's own messages never count as unread.
    if (event.type === 'message.new' && event.user?.id === client.userID) return;
    refresh();
  });

  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    subscription.unsubscribe();
  };
}
