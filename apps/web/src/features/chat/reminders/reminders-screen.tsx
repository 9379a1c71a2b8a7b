import { formatAmount, formatReminderDue } from '@daohuu/domain';
import { BellIcon, BookmarkIcon, CircleAlertIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ReminderResponse, StreamChat } from 'stream-chat';
import { PageHeader } from '@/components/page-header';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useNow } from '@/hooks/use-now';
import { useMe } from '@/lib/auth';
import { ChatPanelState } from '../components/chat-states';
import { useChatConnection } from '../session/chat-session';
import { UNNAMED_CHANNEL, useChannelNames } from './reminder-channel-names';
import { groupReminders, reminderMessageHref } from './reminder-groups';
import { REMINDERS_PAGE_SIZE, useReminders } from './use-reminders';

const dateTime = new Intl.DateTimeFormat('vi-VN', { dateStyle: 'short', timeStyle: 'short' });

// "Đến hạn sau 2 phút" moves on by itself while the screen is open.
const NOW_TICK_MS = 30_000;

function DueLine({ remindAt, now }: { remindAt: string; now: number }) {
  const at = new Date(remindAt);
  return (
    <p className="text-sm" data-testid="reminder-due">
      <span className="font-medium">{formatReminderDue(at.getTime() - now)}</span>
      <span className="text-muted-foreground"> · {dateTime.format(at)}</span>
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
  const text = reminder.message?.text?.trim() || 'Tin nhắn không có chữ';
  const [removing, setRemoving] = React.useState(false);
  async function remove() {
    setRemoving(true);
    try {
      await client.reminders.deleteReminder(reminder.message_id);
    } catch {
      toast.error('Không xóa được lời nhắc');
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
        aria-label={reminder.remind_at ? 'Xóa lời nhắc' : 'Bỏ lưu để xem sau'}
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
              channelName={names.get(reminder.channel_cid) ?? UNNAMED_CHANNEL}
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
        title="Không tải được lời nhắc"
        description="Máy chủ trò chuyện chưa trả lời. Đạo hữu thử lại sau giây lát."
      >
        <Button variant="outline" onClick={reload}>
          Thử lại
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
        title="Sắp tới"
        empty="Chưa có lời nhắc nào sắp đến giờ."
        reminders={groups.upcoming}
        client={client}
        names={names}
        now={at}
      />
      <ReminderSection
        title="Quá hạn"
        empty="Không có lời nhắc nào đã quá giờ."
        reminders={groups.overdue}
        client={client}
        names={names}
        now={at}
      />
      <ReminderSection
        title="Đã lưu để xem sau"
        empty="Chưa lưu tin nhắn nào. Chọn “Lưu để xem sau” trong menu của một tin nhắn."
        reminders={groups.saved}
        client={client}
        names={names}
        now={at}
      />
      {state.reminders.length >= REMINDERS_PAGE_SIZE ? (
        <p className="text-muted-foreground text-sm">
          Chỉ hiện {formatAmount(REMINDERS_PAGE_SIZE, 1)} lời nhắc đầu tiên.
        </p>
      ) : null}
    </div>
  );
}

/** The /nhac-nho screen: the cultivator's upcoming and overdue reminders and saved messages, with links to each. */
export function RemindersScreen() {
  const me = useMe();
  const session = useChatConnection();
  let body: React.ReactNode;
  if (me.isPending) body = <Skeleton className="h-64 w-full" aria-busy="true" />;
  else if (!me.data) {
    return (
      <SignInPrompt
        title="Đăng nhập để xem lời nhắc"
        description="Lời nhắc và tin nhắn đã lưu để xem sau là của riêng mỗi đạo hữu."
      />
    );
  } else if (session.status === 'error') {
    body = (
      <ChatPanelState
        icon={CircleAlertIcon}
        tone="warning"
        title="Không kết nối được trò chuyện"
        description="Đạo hữu thử lại sau giây lát."
      >
        <Button variant="outline" onClick={session.retry}>
          Thử lại
        </Button>
      </ChatPanelState>
    );
  } else if (session.status !== 'ready' || !session.client) {
    body = <Skeleton className="h-64 w-full" aria-busy="true" />;
  } else body = <ReminderLists key={session.client.userID} client={session.client} />;
  return (
    <>
      <PageHeader
        title="Nhắc nhở"
        description={
          <>
            <BellIcon aria-hidden="true" className="mr-1 inline size-4" />
            Tin nhắn đạo hữu hẹn xem lại, và{' '}
            <BookmarkIcon aria-hidden="true" className="mx-1 inline size-4" />
            những tin đã lưu để xem sau.
          </>
        }
      />
      {body}
    </>
  );
}
