import {
  QuickMessageActionsButton,
  useComponentContextIcons,
  useMessageContext,
  useTranslationContext,
} from 'stream-chat-react';
import { useLoginDialog } from '@/lib/login-dialog';

/**
 * A guest's message actions: reacting asks them to sign in; a thread can still be opened to read it (its reply box
 * is the guest composer).
 */
export function GuestMessageActions() {
  const { openLogin } = useLoginDialog();
  const { handleOpenThread, message, threadList } = useMessageContext();
  const { t } = useTranslationContext();
  const { IconEmoji, IconReply } = useComponentContextIcons();
  if (message.type === 'deleted' || message.status === 'sending') return null;
  return (
    <div className="str-chat__message-options">
      {!threadList && message.reply_count ? (
        <QuickMessageActionsButton aria-label={t('aria/Open Thread')} onClick={handleOpenThread}>
          <IconReply className="str-chat__message-action-icon" />
        </QuickMessageActionsButton>
      ) : null}
      <QuickMessageActionsButton
        aria-label={t('aria/Open Reaction Selector')}
        data-testid="guest-react-action"
        onClick={() => openLogin()}
      >
        <IconEmoji className="str-chat__message-action-icon" />
      </QuickMessageActionsButton>
    </div>
  );
}
