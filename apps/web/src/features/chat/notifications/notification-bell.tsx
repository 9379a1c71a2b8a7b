import { BellIcon, BellRingIcon, CheckCheckIcon } from 'lucide-react';
import * as React from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useShownLanguage, useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { useChatSession } from '../session/chat-session';
import { formatUnreadCount } from '../utils/unread-count';
import {
  notificationHref,
  notificationText,
  notificationWhen,
  type AppNotification,
} from './notification-text';
import {
  useBrowserNotifications,
  type BrowserNotificationsState,
} from './use-browser-notifications';
import { useNotifications } from './use-notifications';

/** The panel's switch for browser notifications: the browser's permission is asked from this click only. */
function BrowserNotificationsItem({
  permission,
  optedIn,
  enable,
  disable,
}: BrowserNotificationsState) {
  const t = useT();
  if (permission === 'unsupported') return null;
  const on = optedIn && permission === 'granted';
  const label = t(
    permission === 'denied'
      ? 'chat.notifications.browserBlocked'
      : on
        ? 'chat.notifications.browserOff'
        : 'chat.notifications.browserOn',
  );
  return (
    <DropdownMenuItem
      data-testid="browser-notifications-toggle"
      data-state={on ? 'on' : 'off'}
      disabled={permission === 'denied'}
      className="gap-2 text-xs text-muted-foreground"
      onSelect={(event) => {
        event.preventDefault();
        if (on) disable();
        else void enable().catch(() => {});
      }}
    >
      <BellRingIcon aria-hidden="true" />
      {label}
    </DropdownMenuItem>
  );
}

function NotificationRow({
  notification,
  onOpen,
}: {
  notification: AppNotification;
  onOpen: (notification: AppNotification) => void;
}) {
  const unread = !notification.read_at;
  const t = useT();
  const language = useShownLanguage();
  return (
    <DropdownMenuItem
      data-testid="notification-item"
      data-unread={unread ? 'true' : 'false'}
      className="items-start gap-3 py-2"
      onSelect={() => onOpen(notification)}
    >
      <span
        aria-hidden="true"
        className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-gold' : 'bg-transparent')}
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        <span className={cn('text-sm leading-snug', unread && 'font-medium')}>
          {notificationText(notification, t)}
        </span>
        <time dateTime={notification.created_at} className="text-xs text-muted-foreground">
          {notificationWhen(notification.created_at, Date.now(), language)}
        </time>
      </span>
    </DropdownMenuItem>
  );
}

function isOnScreen(href: string, pathname: string): boolean {
  return (
    document.visibilityState === 'visible' &&
    new URL(href, window.location.origin).pathname === pathname
  );
}

/**
 * The header's bell: the unread notification count, and a panel listing the cultivator's notifications, each
 * opening its message. New ones also show a toast. Guests have no notifications and see no bell.
 */
export function NotificationBell() {
  const { client } = useChatSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = React.useState(false);
  const t = useT();
  const showToast = React.useCallback(
    (notification: AppNotification) => {
      // A due reminder already has its own toast, with its own action (reminders/reminder-due-toasts.tsx): a
      // second one on top would hide that one's button.
      if (notification.kind === 'reminder_due') return;
      const href = notificationHref(notification);
      // The cultivator is looking at that conversation: what happened there is on screen, and the toast would only
      // cover the composer. The bell still counts it.
      if (href && isOnScreen(href, pathname)) return;
      toast(notificationText(notification), {
        id: `notification-${notification.id}`,
        ...(href
          ? { action: { label: t('chat.notifications.view'), onClick: () => void navigate(href) } }
          : {}),
      });
    },
    [navigate, pathname, t],
  );
  const { items, unreadCount, hasMore, loadMore, refresh, markRead, markAllRead } =
    useNotifications(showToast);
  // Here and not in the panel's item: the panel's content is mounted only while it is open, and the browser
  // notifications must listen while it is closed (the tab is hidden then).
  const browserNotifications = useBrowserNotifications();
  if (!client || client.anonymous) return null;

  const openNotification = (notification: AppNotification) => {
    if (!notification.read_at) void markRead([notification.id]).catch(() => {});
    const href = notificationHref(notification);
    if (href) void navigate(href);
  };
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // Opening re-reads the list, so what another device marked read shows as read here too.
    if (next) void refresh().catch(() => {});
  };
  const count = formatUnreadCount(unreadCount);

  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative size-8"
          aria-label={
            unreadCount > 0
              ? t('chat.notifications.bellUnread', { count: unreadCount })
              : t('chat.notifications.title')
          }
          data-testid="notification-bell"
        >
          <BellIcon aria-hidden="true" />
          {count ? (
            <span
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-gold px-1 text-[0.625rem] font-semibold text-gold-foreground tabular-nums"
            >
              {count}
            </span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent
        align="end"
        className="w-80 max-w-[calc(100vw-2rem)]"
        data-testid="notification-panel"
      >
        <div className="flex items-center justify-between gap-2">
          <DropdownMenuLabel>{t('chat.notifications.title')}</DropdownMenuLabel>
          {unreadCount > 0 ? (
            <Button
              variant="ghost"
              size="sm"
              className="h-7 text-xs"
              onClick={() => void markAllRead().catch(() => {})}
            >
              <CheckCheckIcon aria-hidden="true" />
              {t('chat.notifications.markAllRead')}
            </Button>
          ) : null}
        </div>
        <DropdownMenuSeparator />
        {items.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-muted-foreground">
            {t('chat.notifications.empty')}
          </p>
        ) : (
          items.map((notification) => (
            <NotificationRow
              key={notification.id}
              notification={notification}
              onOpen={openNotification}
            />
          ))
        )}
        {hasMore ? (
          <DropdownMenuItem
            data-testid="notification-more"
            className="justify-center text-sm"
            onSelect={(event) => {
              // Stays open: the older ones appear below.
              event.preventDefault();
              void loadMore().catch(() => {});
            }}
          >
            {t('chat.notifications.more')}
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuSeparator />
        <BrowserNotificationsItem {...browserNotifications} />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
