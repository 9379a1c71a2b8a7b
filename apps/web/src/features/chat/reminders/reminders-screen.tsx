import { formatAmount } from '@daohuu/domain';
import { BellIcon, BookmarkIcon, CircleAlertIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';
import { toast } from '@/lib/toast';
import type { ReminderResponse, StreamChat } from 'stream-chat';
import { PageHeader } from '@/components/page-header';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useNow } from '@/hooks/use-now';
import { dateFormat, useShownLanguage, useT, withNodes } from '@/i18n';
import { useMe } from '@/lib/auth';
import { ChatPanelState } from '../components/chat-states';
import { useChatConnection } from '../session/chat-session';
import { unnamedChannel, useChannelNames } from './reminder-channel-names';
import { formatReminderDueIn } from './reminder-due';
import { groupReminders, reminderMessageHref } from './reminder-groups';
import { REMINDERS_PAGE_SIZE, useReminders } from './use-reminders';

// "Đến hạn sau 2 phút" moves on by itself while the screen is open.
const NOW_TICK_MS = 30_000;

function DueLine({ remindAt, now }: { remindAt: string; now: number }) {
  const language = useShownLanguage();
  const at = new Date(remindAt);
  const moment = dateFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(at);
  return (
    <p className="text-sm" data-testid="reminder-due">
      <span className="font-medium">{formatReminderDueIn(at.getTime() - now, language)}</span>
      <span className="text-muted-foreground"> · {moment}</span>
    </p>
  );
}

function ReminderItem({
  client,
  reminder,
  channelName,
  now,
}: {
  client: StreamChat;
  reminder: ReminderResponse;
  channelName: string;
  now: number;
}) {
  const t = useT();
  const text = reminder.message?.text?.trim() || t('chat.reminders.noText');
  const [removing, setRemoving] = React.useState(false);
  async function remove() {
    setRemoving(true);
    try {
      await client.reminders.deleteReminder(reminder.message_id);
    } catch {
      toast.error(t('chat.reminders.deleteFailed'));
      setRemoving(false);
    }
  }
  return (
    <li className="flex items-start gap-3 rounded-lg border p-3" data-testid="reminder-item">
      <div className="min-w-0 flex-1">
        <Link
          to={reminderMessageHref(reminder.channel_cid, reminder.message_id)}
          className="line-clamp-2 font-medium hover:underline"
        >
          {text}
        </Link>
        {reminder.remind_at ? <DueLine remindAt={reminder.remind_at} now={now} /> : null}
        <p className="text-muted-foreground mt-1 text-sm" data-testid="reminder-channel">
          {channelName}
          {reminder.message?.user?.name ? ` · ${reminder.message.user.name}` : ''}
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label={t(reminder.remind_at ? 'chat.reminders.delete' : 'chat.reminders.unsave')}
        disabled={removing}
        onClick={() => void remove()}
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
    </li>
  );
}

function ReminderSection({
  title,
  empty,
  reminders,
  client,
  names,
  now,
}: {
  title: string;
  empty: string;
  reminders: ReminderResponse[];
  client: StreamChat;
  names: Map<string, string>;
  now: number;
}) {
  const headingId = React.useId();
  return (
    <section aria-labelledby={headingId} className="grid gap-3">
      <h2 id={headingId} className="text-xl font-semibold">
        {title}{' '}
        <span className="text-muted-foreground text-base">
          ({formatAmount(reminders.length, 1)})
        </span>
      </h2>
      {reminders.length === 0 ? (
        <p className="text-muted-foreground text-sm">{empty}</p>
      ) : (
        <ul className="grid gap-2">
          {reminders.map((reminder) => (
            <ReminderItem
              key={reminder.message_id}
              client={client}
              reminder={reminder}
              channelName={names.get(reminder.channel_cid) ?? unnamedChannel()}
              now={now}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReminderLists({ client }: { client: StreamChat }) {
  const { state, reload } = useReminders(client);
  const t = useT();
  const now = useNow(NOW_TICK_MS);
  const names = useChannelNames(
    client,
    state.status === 'ready' ? state.reminders.map((reminder) => reminder.channel_cid) : [],
  );
  if (state.status === 'loading') return <Skeleton className="h-64 w-full" aria-busy="true" />;
  if (state.status === 'error') {
    return (
      <ChatPanelState
        icon={CircleAlertIcon}
        tone="warning"
        title={t('chat.reminders.loadFailedTitle')}
        description={t('chat.reminders.loadFailedDescription')}
      >
        <Button variant="outline" onClick={reload}>
          {t('common.retry')}
        </Button>
      </ChatPanelState>
    );
  }
  // The clock ticks between loads, so a reminder that just came due moves to "Quá hạn" with its wording.
  const at = Math.max(now, state.loadedAt);
  const groups = groupReminders(state.reminders, at);
  return (
    <div className="grid gap-8">
      <ReminderSection
        title={t('chat.reminders.upcoming')}
        empty={t('chat.reminders.upcomingEmpty')}
        reminders={groups.upcoming}
        client={client}
        names={names}
        now={at}
      />
      <ReminderSection
        title={t('chat.reminders.overdue')}
        empty={t('chat.reminders.overdueEmpty')}
        reminders={groups.overdue}
        client={client}
        names={names}
        now={at}
      />
      <ReminderSection
        title={t('chat.reminders.saved')}
        empty={t('chat.reminders.savedEmpty')}
        reminders={groups.saved}
        client={client}
        names={names}
        now={at}
      />
      {state.reminders.length >= REMINDERS_PAGE_SIZE ? (
        <p className="text-muted-foreground text-sm">
          {t('chat.reminders.firstOnly', { count: formatAmount(REMINDERS_PAGE_SIZE, 1) })}
        </p>
      ) : null}
    </div>
  );
}

/** The /nhac-nho screen: the cultivator's upcoming and overdue reminders and saved messages, with links to each. */
export function RemindersScreen() {
  const me = useMe();
  const session = useChatConnection();
  const t = useT();
  let body: React.ReactNode;
  if (me.isPending) body = <Skeleton className="h-64 w-full" aria-busy="true" />;
  else if (!me.data) {
    return (
      <SignInPrompt
        title={t('chat.reminders.signInTitle')}
        description={t('chat.reminders.signInDescription')}
      />
    );
  } else if (session.status === 'error') {
    body = (
      <ChatPanelState
        icon={CircleAlertIcon}
        tone="warning"
        title={t('chat.states.unavailableTitle')}
        description={t('chat.reminders.chatUnavailableDescription')}
      >
        <Button variant="outline" onClick={session.retry}>
          {t('common.retry')}
        </Button>
      </ChatPanelState>
    );
  } else if (session.status !== 'ready' || !session.client) {
    body = <Skeleton className="h-64 w-full" aria-busy="true" />;
  } else body = <ReminderLists key={session.client.userID} client={session.client} />;
  return (
    <>
      <PageHeader
        title={t('chat.reminders.title')}
        description={withNodes(t('chat.reminders.description'), {
          bell: <BellIcon aria-hidden="true" className="mr-1 inline size-4" />,
          bookmark: <BookmarkIcon aria-hidden="true" className="mx-1 inline size-4" />,
        })}
      />
      {body}
    </>
  );
}
