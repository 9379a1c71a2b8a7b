import * as React from 'react';
import { useNavigate } from 'react-router';
import type { Event } from 'stream-chat';
import { t } from '@/i18n';
import { useChatSession } from '../session/chat-session';
import { reminderMessageHref } from './reminder-groups';

/** A short preview of the message a reminder is about. */
function preview(text: string | undefined): string {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return t('chat.reminders.dueToastFallback');
  return trimmed.length > 120 ? `${trimmed.slice(0, 119)}…` : trimmed;
}

/**
 * A toast on any screen when one of the cultivator's reminders comes due (the chat server sends
 * notification.reminder_due to the user's connections), with a link to the message. Renders nothing.
 */
export function ReminderDueToasts() {
  const { client } = useChatSession();
  const navigate = useNavigate();
  const navigateRef = React.useRef(navigate);
  React.useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  React.useEffect(() => {
    if (!client || client.anonymous) return;
    const subscription = client.on('notification.reminder_due', (event: Event) => {
      const reminder = event.reminder;
      if (!reminder) return;
      const href = reminderMessageHref(reminder.channel_cid, reminder.message_id);
      // sonner loads on demand, so the first screen does not carry it (src/app/provider.tsx).
      void import('sonner').then(({ toast }) =>
        toast(t('chat.reminders.dueToastTitle'), {
          id: `reminder-due-${reminder.message_id}-${reminder.remind_at ?? ''}`,
          description: preview(reminder.message?.text),
          action: {
            label: t('chat.reminders.viewMessage'),
            onClick: () => void navigateRef.current(href),
          },
        }),
      );
    });
    return () => subscription.unsubscribe();
  }, [client]);

  return null;
}
