import { avatarSource } from '@daohuu/domain';
import { clsx } from 'clsx';
import * as React from 'react';
import type { LocalMessage } from 'stream-chat';
import {
  Attachment as DefaultAttachment,
  Avatar as DefaultAvatar,
  ErrorBadge,
  MessageActions as DefaultMessageActions,
  MessageAlsoSentInChannelIndicator as DefaultAlsoSentInChannelIndicator,
  MessageBlocked as DefaultMessageBlocked,
  MessageBounceModal,
  MessageBouncePrompt as DefaultMessageBouncePrompt,
  MessageDeletedBubble as DefaultMessageDeletedBubble,
  MessageEditedIndicator as DefaultMessageEditedIndicator,
  MessageReactions as DefaultMessageReactions,
  MessageRepliesCountButton as DefaultMessageRepliesCountButton,
  MessageStatus as DefaultMessageStatus,
  MessageText,
  MessageTimestamp as DefaultMessageTimestamp,
  MessageTranslationIndicator as DefaultMessageTranslationIndicator,
  PinIndicator as DefaultPinIndicator,
  Poll,
  QuotedMessage as DefaultQuotedMessage,
  ReminderNotification as DefaultReminderNotification,
  StreamedMessageText as DefaultStreamedMessageText,
  areMessageUIPropsEqual,
  countEmojis,
  isDateSeparatorMessage,
  isMessageBlocked,
  isMessageBounced,
  isMessageDeleted,
  isMessageEdited,
  isMessageErrorRetryable,
  messageHasAttachments,
  messageHasGiphyAttachment,
  messageHasQuotedMessage,
  messageHasReactions,
  messageHasSingleAttachment,
  messageTextHasEmojisOnly,
  useChatContext,
  useComponentContext,
  useMessageContext,
  useMessageReminder,
  useTranslationContext,
  type MessageContextValue,
  type MessageUIComponentProps,
} from 'stream-chat-react';
import { useOpenProfile } from '../people/profile-card-context';
import { MessageAuthorHeader } from './message-author-header';
import { SendFailureNote, isRefusedMessage } from './send-failure-note';

/** The author header sits on the first message of a run by the same author (or a message on its own). */
function startsGroup(groupStyles: MessageContextValue['groupStyles']): boolean {
  const style = groupStyles?.[0];
  return !style || style === 'top' || style === 'single';
}

/** The author's avatar only when the avatar rule allows it (packages/domain), else their initials. */
function displayInfo(user: LocalMessage['user']) {
  const image = user?.image;
  return {
    id: user?.id,
    imageUrl: avatarSource(image),
    userName: user?.name ?? user?.id,
  };
}

/**
 * stream-chat-react 14's default MessageUI, rebuilt from its public parts so the message can carry a header with
 * the author's đạo hiệu and realm badge (the default prints the name only in the footer, and only in groups). Every
 * slot still comes from the ComponentContext, so other overrides keep working.
 */
function RealmMessageUIWithContext(props: MessageContextValue) {
  const {
    groupStyles,
    endOfGroup,
    groupedByUser,
    handleAction,
    handleOpenThread,
    highlighted,
    isMessageAIGenerated,
    isMyMessage,
    message,
    onUserClick,
    onUserHover,
    renderText,
    showAvatar = 'incoming',
    threadList,
  } = props;
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const [isBounceDialogOpen, setIsBounceDialogOpen] = React.useState(false);
  const reminder = useMessageReminder(message.id);
  const openProfile = useOpenProfile();
  const author = message.user;
  // The avatar opens the author's profile card where there is one, else whatever the SDK was given.
  const onAvatarClick =
    openProfile && author ? () => openProfile(author) : (onUserClick ?? undefined);
  const {
    Attachment = DefaultAttachment,
    Avatar = DefaultAvatar,
    MessageActions = DefaultMessageActions,
    MessageAlsoSentInChannelIndicator = DefaultAlsoSentInChannelIndicator,
    MessageBlocked = DefaultMessageBlocked,
    MessageBouncePrompt = DefaultMessageBouncePrompt,
    MessageDeleted,
    MessageDeletedBubble = DefaultMessageDeletedBubble,
    MessageEditedIndicator = DefaultMessageEditedIndicator,
    MessageReactions = DefaultMessageReactions,
    MessageRepliesCountButton = DefaultMessageRepliesCountButton,
    MessageStatus = DefaultMessageStatus,
    MessageTimestamp = DefaultMessageTimestamp,
    MessageTranslationIndicator = DefaultMessageTranslationIndicator,
    PinIndicator = DefaultPinIndicator,
    QuotedMessage = DefaultQuotedMessage,
    ReminderNotification = DefaultReminderNotification,
    StreamedMessageText = DefaultStreamedMessageText,
  } = useComponentContext();

  const isAIGenerated = isMessageAIGenerated?.(message) ?? false;
  const isDeleted = isMessageDeleted(message);
  const attachments = React.useMemo(() => {
    if (!message.shared_location) return message.attachments ?? [];
    return [message.shared_location, ...(message.attachments ?? [])];
  }, [message.attachments, message.shared_location]);

  if (isDateSeparatorMessage(message)) return null;
  if (MessageDeleted && isDeleted) return <MessageDeleted message={message} />;
  if (isMessageBlocked(message)) return <MessageBlocked />;

  const poll = message.poll_id ? client.polls.fromState(message.poll_id) : undefined;
  const mine = isMyMessage();
  const hasReactions = !isDeleted && messageHasReactions(message);
  const textHasEmojisOnly = !isDeleted && messageTextHasEmojisOnly(message);
  const allowRetry = isMessageErrorRetryable(message);
  const isBounced = isMessageBounced(message);
  const isEdited = isMessageEdited(message) && !isAIGenerated;
  const showMetadata = !groupedByUser || endOfGroup;
  const showReplyCountButton = !threadList && !!message.reply_count;
  const withAvatar =
    !!message.user &&
    (showAvatar === 'incoming' ? !mine : showAvatar === 'outgoing' ? mine : showAvatar);
  const showAuthor = !!message.user && !isDeleted && startsGroup(groupStyles);

  const rootClassName = clsx(
    'str-chat__message',
    `str-chat__message--${message.type}`,
    `str-chat__message--${message.status}`,
    {
      'str-chat__message--has-attachment': !isDeleted && messageHasAttachments(message),
      'str-chat__message--has-giphy-attachment': !isDeleted && messageHasGiphyAttachment(message),
      'str-chat__message--has-no-text': !message.text,
      'str-chat__message--has-quoted-message': !isDeleted && messageHasQuotedMessage(message),
      'str-chat__message--has-single-attachment': !isDeleted && messageHasSingleAttachment(message),
      'str-chat__message--has-text': !!message.text,
      'str-chat__message--highlighted': highlighted,
      'str-chat__message--is-emoji-only': textHasEmojisOnly,
      [`str-chat__message--is-emoji-only-count-${countEmojis(message.text)}`]: textHasEmojisOnly,
      'str-chat__message--me': mine,
      'str-chat__message--other': !mine,
      'str-chat__message--pinned': message.pinned,
      'str-chat__message--with-avatar': withAvatar,
      'str-chat__message--with-reactions': hasReactions,
      'str-chat__message-send-can-be-retried':
        message.status === 'failed' && message.error?.status !== 403,
      'str-chat__message-with-thread-link': showReplyCountButton,
      'dh-message--with-author': showAuthor,
    },
  );

  const openBounceDialog = isBounced ? () => setIsBounceDialogOpen(true) : undefined;

  return (
    <>
      {isBounceDialogOpen ? (
        <MessageBounceModal
          MessageBouncePrompt={MessageBouncePrompt}
          onClose={() => setIsBounceDialogOpen(false)}
          open={isBounceDialogOpen}
        />
      ) : null}
      <div className={rootClassName} key={message.id}>
        {message.pinned ? <PinIndicator message={message} /> : null}
        {message.show_in_channel ? <MessageAlsoSentInChannelIndicator /> : null}
        {reminder ? <ReminderNotification reminder={reminder} /> : null}
        <MessageTranslationIndicator message={message} />
        {showAuthor && message.user ? (
          <MessageAuthorHeader user={message.user} mine={mine} />
        ) : null}
        {withAvatar && message.user ? (
          <Avatar
            {...displayInfo(message.user)}
            className="str-chat__avatar--with-border"
            onClick={onAvatarClick}
            onMouseOver={onUserHover}
            size="md"
          />
        ) : null}
        <div
          aria-label={openBounceDialog ? t('aria/Review bounced message') : undefined}
          className={clsx('str-chat__message-inner', {
            'str-chat__message-inner--error': allowRetry || isBounced,
          })}
          data-testid="message-inner"
          onClick={openBounceDialog}
          onKeyDown={
            openBounceDialog
              ? (event) => {
                  if (event.key !== 'Enter' && event.key !== ' ') return;
                  event.preventDefault();
                  openBounceDialog();
                }
              : undefined
          }
          role={openBounceDialog ? 'button' : undefined}
          tabIndex={openBounceDialog ? 0 : undefined}
        >
          {!isDeleted ? <MessageActions /> : null}
          {showReplyCountButton ? (
            <MessageRepliesCountButton
              onClick={handleOpenThread}
              reply_count={message.reply_count}
              thread_participants={message.thread_participants}
            />
          ) : null}
          {isDeleted ? (
            <MessageDeletedBubble />
          ) : (
            <>
              <div className="str-chat__message-bubble">
                {poll ? <Poll poll={poll} /> : null}
                {message.quoted_message ? <QuotedMessage /> : null}
                {attachments.length ? (
                  <Attachment actionHandler={handleAction} attachments={attachments} />
                ) : null}
                {isAIGenerated ? (
                  <StreamedMessageText message={message} renderText={renderText} />
                ) : (
                  <MessageText message={message} renderText={renderText} />
                )}
              </div>
              <div className="str-chat__message-reactions-host">
                {hasReactions ? <MessageReactions reverse /> : null}
              </div>
              <div className="str-chat__message-error-indicator">
                <ErrorBadge />
              </div>
            </>
          )}
        </div>
        {mine && isRefusedMessage(message) ? <SendFailureNote message={message} /> : null}
        {showMetadata ? (
          <div className="str-chat__message-metadata">
            <MessageStatus />
            <MessageTimestamp customClass="str-chat__message-metadata__timestamp" />
            {!isDeleted && isEdited ? <MessageEditedIndicator /> : null}
          </div>
        ) : null}
      </div>
    </>
  );
}

const MemoizedRealmMessageUI = React.memo(
  RealmMessageUIWithContext,
  areMessageUIPropsEqual,
) as typeof RealmMessageUIWithContext;

/** The MessageUI override: the default message with the author's name and realm badge on top. */
export function RealmMessageUI(props: MessageUIComponentProps) {
  const context = useMessageContext();
  return <MemoizedRealmMessageUI {...context} {...props} />;
}
