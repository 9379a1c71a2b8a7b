import * as React from 'react';
import type { ReminderResponse, StreamChat } from 'stream-chat';

export type RemindersState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; reminders: ReminderResponse[]; loadedAt: number };

// One page covers any realistic list; the screen says so when there are more.
export const REMINDERS_PAGE_SIZE = 100;

const REFRESH_EVENTS = [
  'reminder.created',
  'reminder.updated',
  'reminder.deleted',
  'notification.reminder_due',
] as const;

/**
 * The cultivator's reminders and saved messages, queried from the chat server and queried again whenever one is
 * created, changed, deleted or comes due (from this tab or another device).
 */
export function useReminders(client: StreamChat): { state: RemindersState; reload: () => void } {
  const [state, setState] = React.useState<RemindersState>({ status: 'loading' });
  const [attempt, setAttempt] = React.useState(0);

  React.useEffect(() => {
    let cancelled = false;
    let generation = 0;
    const load = () => {
      const current = ++generation;
      client
        .queryReminders({ sort: [{ remind_at: 1 }], limit: REMINDERS_PAGE_SIZE })
        .then(({ reminders }) => {
          if (!cancelled && current === generation) {
            setState({ status: 'ready', reminders, loadedAt: Date.now() });
          }
        })
        .catch((error: unknown) => {
          if (!cancelled && current === generation) setState({ status: 'error', error });
        });
    };
    load();
    const subscriptions = REFRESH_EVENTS.map((type) => client.on(type, load));
    return () => {
      cancelled = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
  }, [client, attempt]);

  const reload = React.useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  }, []);
  return { state, reload };
}
