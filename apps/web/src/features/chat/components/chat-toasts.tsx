import * as React from 'react';
import { toast } from '@/lib/toast';
import type { Notification } from 'stream-chat';
import { hasSystemNotificationTag, useChatContext, useTranslationContext } from 'stream-chat-react';

function show(severity: Notification['severity'], text: string) {
  switch (severity) {
    case 'error':
      return toast.error(text);
    case 'warning':
      return toast.warning(text);
    case 'success':
      return toast.success(text);
    default:
      return toast(text);
  }
}

/**
 * Shows the chat client's in-app notifications (composer warnings, upload errors, "message pinned"…) as the app's
 * toasts, translated with the chat's translator, for the toaster's 3 seconds (docs/product-rules.md §8). The SDK's own
 * lists are switched off (`notificationDisplayFilter`), and system notices such as "connection lost" have their own
 * banner.
 */
export function ChatToasts() {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const translate = React.useRef(t);
  React.useEffect(() => {
    translate.current = t;
  }, [t]);

  React.useEffect(() => {
    const shown = new Set<string>();
    const present = (notifications: Notification[]) => {
      for (const notification of notifications) {
        if (shown.has(notification.id) || hasSystemNotificationTag(notification)) continue;
        shown.add(notification.id);
        const text = translate.current('translationBuilderTopic/notification', {
          notification,
          value: notification.message,
        });
        show(notification.severity, text);
        // The toast now owns it; leaving it in the store would only grow the list. Removed after the store has
        // finished notifying its subscribers.
        queueMicrotask(() => client.notifications.remove(notification.id));
      }
    };
    present(client.notifications.notifications);
    return client.notifications.store.subscribeWithSelector(
      (state) => ({ notifications: state.notifications }),
      ({ notifications }) => present(notifications),
    );
  }, [client]);

  return null;
}
