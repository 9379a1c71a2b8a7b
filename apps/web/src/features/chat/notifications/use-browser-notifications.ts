import { parseCid } from '@daohuu/domain';
import * as React from 'react';
import { useNavigate } from 'react-router';
import type { Event, MessageResponse, StreamChat } from 'stream-chat';
import { t } from '@/i18n';
import { useChatSession } from '../session/chat-session';
import { chatChannelHref } from '../utils/chat-paths';
import {
  BROWSER_NOTIFICATIONS_KEY,
  browserNotificationBody,
  browserNotificationTitle,
  eventMemberCount,
  reasonToNotify,
  shouldNotify,
} from './browser-notifications';

type Permission = NotificationPermission | 'unsupported';

function currentPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

function storedOptIn(): boolean {
  try {
    return window.localStorage.getItem(BROWSER_NOTIFICATIONS_KEY) === 'on';
  } catch {
    return false;
  }
}

function storeOptIn(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(BROWSER_NOTIFICATIONS_KEY, 'on');
    else window.localStorage.removeItem(BROWSER_NOTIFICATIONS_KEY);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export interface BrowserNotificationsState {
  permission: Permission;
  optedIn: boolean;
  /** Asks the browser's permission (from the click that calls this) and turns them on if granted. */
  enable(): Promise<void>;
  disable(): void;
}

function memberCountOf(client: StreamChat, event: Event): number | undefined {
  const channel = event.cid ? client.activeChannels[event.cid] : undefined;
  return eventMemberCount(
    event as Parameters<typeof eventMemberCount>[0],
    channel?.data?.member_count ?? undefined,
  );
}

function show(client: StreamChat, event: Event, navigate: (href: string) => void): void {
  const message = event.message as MessageResponse | undefined;
  const ownUserId = client.userID;
  if (!message || !ownUserId) return;
  const channel = event.cid ? parseCid(event.cid) : null;
  const reason = reasonToNotify({
    ownUserId,
    authorId: message.user?.id,
    messageType: message.type,
    mentionedIds: (message.mentioned_users ?? []).map((u) => (typeof u === 'string' ? u : u.id)),
    channelType: event.channel_type ?? channel?.type,
    memberCount: memberCountOf(client, event),
  });
  const conditions = {
    optedIn: storedOptIn(),
    permission: currentPermission(),
    visibilityState: document.visibilityState,
    reason,
  };
  if (!reason || !shouldNotify(conditions)) return;
  const author = message.user?.name?.trim() || message.user?.id || t('chat.notifications.someone');
  const shown = new Notification(browserNotificationTitle(reason, author), {
    body: browserNotificationBody(message.text),
    // One per message, whichever event brought it.
    tag: message.id,
  });
  shown.onclick = () => {
    window.focus();
    if (channel) navigate(chatChannelHref(channel.type, channel.id));
    shown.close();
  };
}

/**
 * Browser notifications for mentions and direct messages while the tab is hidden, once the cultivator opted in
 * (remembered in this browser). Nothing asks the browser's permission until `enable` is called from a click.
 */
export function useBrowserNotifications(): BrowserNotificationsState {
  const { client } = useChatSession();
  const navigate = useNavigate();
  const [permission, setPermission] = React.useState<Permission>(currentPermission);
  const [optedIn, setOptedIn] = React.useState(storedOptIn);
  const signedIn = client && !client.anonymous ? client : null;
  const active = optedIn && permission === 'granted' && signedIn;

  React.useEffect(() => {
    if (!active) return;
    const handler = (event: Event) => show(active, event, (href) => void navigate(href));
    const fresh = active.on('message.new', handler);
    const elsewhere = active.on('notification.message_new', handler);
    return () => {
      fresh.unsubscribe();
      elsewhere.unsubscribe();
    };
  }, [active, navigate]);

  const enable = React.useCallback(async () => {
    if (typeof Notification === 'undefined') return;
    const answer = await Notification.requestPermission();
    setPermission(answer);
    storeOptIn(answer === 'granted');
    setOptedIn(answer === 'granted');
  }, []);

  const disable = React.useCallback(() => {
    storeOptIn(false);
    setOptedIn(false);
  }, []);

  return { permission, optedIn, enable, disable };
}
