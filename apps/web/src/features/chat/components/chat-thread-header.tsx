import { ArrowLeftIcon, XIcon } from 'lucide-react';
import {
  TypingIndicatorHeader,
  useChannelPreviewInfo,
  useChannelStateContext,
  useChatContext,
  useTranslationContext,
  useTypingContext,
  type ThreadHeaderProps,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/**
 * The thread's header: "Thread", the channel and the reply count (or who is typing in the thread), and a close
 * button. It replaces the SDK's, which expects a ChatView around it that this app does not use. Where the thread
 * covers the channel (a narrow channel pane, chat-theme.css) the close button gives way to a back arrow on the left.
 */
export function ChatThreadHeader({ closeThread, thread, overrideTitle }: ThreadHeaderProps) {
  const { t } = useTranslationContext();
  const appT = useT();
  const { channel, channelConfig } = useChannelStateContext();
  const { client } = useChatContext();
  const { typing = {} } = useTypingContext();
  const { displayTitle } = useChannelPreviewInfo({ channel });
  const title = overrideTitle ?? displayTitle ?? thread.user?.name;
  const replies = t('replyCount', { count: thread.reply_count ?? 0 });
  const someoneTyping =
    channelConfig?.typing_events !== false &&
    Object.values(typing).some(
      ({ parent_id, user }) => parent_id === thread.id && user?.id !== client.user?.id,
    );
  return (
    <div className="str-chat__thread-header dh-thread-header">
      <Button
        size="icon-sm"
        variant="ghost"
        className="dh-thread-header__back"
        aria-label={appT('chat.channel.backToChannel')}
        onClick={closeThread}
      >
        <ArrowLeftIcon aria-hidden="true" />
      </Button>
      <div className="dh-thread-header__data">
        <h3 className="dh-thread-header__title">{t('Thread')}</h3>
        <div className="dh-thread-header__subtitle">
          {someoneTyping ? (
            <TypingIndicatorHeader threadList />
          ) : title ? (
            `${title} · ${replies}`
          ) : (
            replies
          )}
        </div>
      </div>
      <Button
        size="icon-sm"
        variant="ghost"
        className="dh-thread-header__close"
        aria-label={t('aria/Close thread')}
        data-testid="close-thread-button"
        onClick={closeThread}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
