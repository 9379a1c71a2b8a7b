import { FlagIcon } from 'lucide-react';
import {
  ContextMenuButton,
  useContextMenuContext,
  useMessageContext,
  type ContextMenuItemProps,
} from 'stream-chat-react';
import { useT } from '@/i18n';
import { useReportMessage } from './report-dialog';

/** The message menu's "Báo cáo": asks for a reason (ReportDialogProvider) instead of flagging at once. */
export function ReportMessageAction(props: ContextMenuItemProps) {
  const { closeMenu } = useContextMenuContext();
  const { message } = useMessageContext();
  const report = useReportMessage();
  const t = useT();
  return (
    <ContextMenuButton
      {...props}
      aria-label={t('chat.message.reportMessage')}
      className="str-chat__message-actions-list-item-button"
      Icon={FlagIcon}
      onClick={() => {
        closeMenu();
        report({ id: message.id, authorName: message.user?.name ?? message.user?.id });
      }}
    >
      {t('chat.message.report')}
    </ContextMenuButton>
  );
}
