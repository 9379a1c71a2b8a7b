import { formatReminderDue } from '@daohuu/domain';
import { BellIcon } from 'lucide-react';
import type { ReminderState } from 'stream-chat';
import {
  ReminderNotification,
  useStateStore,
  type ReminderNotificationProps,
} from 'stream-chat-react';
import { useNow } from '@/hooks/use-now';
import { useT } from '@/i18n';
import { useChatLanguage } from '../language/chat-language';

const selectTimeLeft = (state: ReminderState) => ({ timeLeftMs: state.timeLeftMs });

// The SDK's reminder timer stops refreshing a while after the reminder is due; "Đã quá hạn …" keeps counting.
const TICK_MS = 30_000;

function ViReminderLine({ remindAt }: { remindAt: Date }) {
  const now = useNow(TICK_MS);
  const t = useT();
  return (
    <p className="str-chat__message-reminder" data-testid="message-reminder">
      <BellIcon aria-hidden="true" className="size-3.5" />
      <span>{t('chat.reminders.set')}</span>
      <span> · </span>
      <span className="str-chat__message-reminder__time-left">
        {formatReminderDue(remindAt.getTime() - now)}
      </span>
    </p>
  );
}

/**
 * The line under a message with a reminder. stream-chat-react words it with dayjs ("Đến hạn trong 7 phút tới",
 * "Đã đến hạn từ 7 phút trước"); in Vietnamese this says "Đến hạn sau 2 phút" / "Đã quá hạn 7 phút" instead
 * (formatReminderDue). English and "saved for later" keep the SDK's line.
 */
export function ViReminderNotification({ reminder }: ReminderNotificationProps) {
  // The app's chat language (the SDK's userLanguage follows the browser, not the chosen translation).
  const [language] = useChatLanguage();
  // Re-renders as the SDK's timer ticks (every minute while the reminder is near).
  useStateStore(reminder?.state, selectTimeLeft);
  if (language !== 'vi' || !reminder?.remindAt) {
    return <ReminderNotification reminder={reminder} />;
  }
  return <ViReminderLine remindAt={reminder.remindAt} />;
}
