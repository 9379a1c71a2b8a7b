import * as React from 'react';
import type { Event, StreamChat } from 'stream-chat';
import { useChatSession } from '../session/chat-session';
import type { AppNotification } from './notification-text';

/** The chat server's own endpoints (not Stream's) and the custom event a new notification arrives as. */
const NOTIFICATIONS_PATH = '/daohuu/notifications';
export const NOTIFICATION_EVENT = 'daohuu.notification.new';
const PAGE_SIZE = 30;

interface NotificationsPage {
  notifications: AppNotification[];
  unread_count: number;
}

type NotificationEvent = Event & { notification?: AppNotification; unread_count?: number };

export interface NotificationsState {
  /** Newest first; the pages loaded so far, plus those that arrived live. */
  items: AppNotification[];
  unreadCount: number;
  /** Whether the server may hold older ones than the last loaded (the last page was full). */
  hasMore: boolean;
  /** Loads the next older page, starting after the oldest loaded (the server's `before` cursor). */
  loadMore(): Promise<void>;
  /** Re-reads the list from the server (what other devices marked read shows up). */
  refresh(): Promise<void>;
  markRead(ids: string[]): Promise<void>;
  markAllRead(): Promise<void>;
}

function fetchPage(client: StreamChat, before?: string): Promise<NotificationsPage> {
  return client.get<NotificationsPage>(`${client.baseURL}${NOTIFICATIONS_PATH}`, {
    limit: PAGE_SIZE,
    ...(before ? { before } : {}),
  });
}

function postRead(client: StreamChat, body: { ids?: string[]; all?: boolean }) {
  return client.post<{ unread_count: number }>(`${client.baseURL}${NOTIFICATIONS_PATH}/read`, body);
}

/**
 * The signed-in cultivator's notifications: loaded from the chat server (so the same on every device and after a
 * reload), kept live through the shared chat client's `daohuu.notification.new` events. `onNew` hears each live
 * one (the toast). Empty for guests, who have none.
 */
export function useNotifications(
  onNew?: (notification: AppNotification) => void,
): NotificationsState {
  const { client } = useChatSession();
  const signedIn = client && !client.anonymous ? client : null;
  const [items, setItems] = React.useState<AppNotification[]>([]);
  const [unreadCount, setUnreadCount] = React.useState(0);
  const [hasMore, setHasMore] = React.useState(false);
  const onNewEvent = React.useEffectEvent((notification: AppNotification) => onNew?.(notification));

  const refresh = React.useCallback(async () => {
    if (!signedIn) return;
    const page = await fetchPage(signedIn);
    setItems(page.notifications);
    setUnreadCount(page.unread_count);
    setHasMore(page.notifications.length === PAGE_SIZE);
  }, [signedIn]);

  const loadMore = React.useCallback(async () => {
    const oldest = items.at(-1);
    if (!signedIn || !oldest) return;
    const page = await fetchPage(signedIn, oldest.id);
    setItems((current) => {
      const known = new Set(current.map((n) => n.id));
      return [...current, ...page.notifications.filter((n) => !known.has(n.id))];
    });
    setUnreadCount(page.unread_count);
    setHasMore(page.notifications.length === PAGE_SIZE);
  }, [signedIn, items]);

  React.useEffect(() => {
    if (!signedIn) {
      setItems([]);
      setUnreadCount(0);
      setHasMore(false);
      return;
    }
    refresh().catch((error: unknown) => console.error('Could not load notifications.', error));
    const live = signedIn.on(NOTIFICATION_EVENT as never, (event: NotificationEvent) => {
      const notification = event.notification;
      if (!notification) return;
      setItems((current) => [notification, ...current.filter((n) => n.id !== notification.id)]);
      if (typeof event.unread_count === 'number') setUnreadCount(event.unread_count);
      onNewEvent(notification);
    });
    // Whatever arrived while the connection was down is on the server.
    const recovered = signedIn.on('connection.recovered', () => void refresh().catch(() => {}));
    return () => {
      live.unsubscribe();
      recovered.unsubscribe();
    };
  }, [signedIn, refresh]);

  const markRead = React.useCallback(
    async (ids: string[]) => {
      if (!signedIn || ids.length === 0) return;
      const now = new Date().toISOString();
      setItems((current) =>
        current.map((n) => (ids.includes(n.id) && !n.read_at ? { ...n, read_at: now } : n)),
      );
      const { unread_count } = await postRead(signedIn, { ids });
      setUnreadCount(unread_count);
    },
    [signedIn],
  );

  const markAllRead = React.useCallback(async () => {
    if (!signedIn) return;
    const now = new Date().toISOString();
    setItems((current) => current.map((n) => (n.read_at ? n : { ...n, read_at: now })));
    const { unread_count } = await postRead(signedIn, { all: true });
    setUnreadCount(unread_count);
  }, [signedIn]);

  return { items, unreadCount, hasMore, loadMore, refresh, markRead, markAllRead };
}
