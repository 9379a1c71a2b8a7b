import type { LocalMessage } from 'stream-chat';
import type { MessageListProps } from 'stream-chat-react';

type ReviewProcessedMessage = NonNullable<MessageListProps['reviewProcessedMessage']>;
type Review = Parameters<ReviewProcessedMessage>[0];
type Rendered = Review['changes'][number];

function isUnreadDaySeparator(item: Rendered): boolean {
  return (
    'customType' in item && item.customType === 'message.date' && 'unread' in item && item.unread
  );
}

function sameDay(a: Date | undefined, b: Date | undefined): boolean {
  return Boolean(a && b && a.toDateString() === b.toDateString());
}

/**
 * The SDK puts a day separator ("Hôm nay") before the first unread message from someone else even when a separator
 * for that day is already above it, so a message arriving while the channel is open got a second "Hôm nay". The
 * unread position has its own marker (the "new messages" separator), so that extra day separator is dropped unless
 * the unread message also starts a new day, where it is the day's only separator.
 */
export const dropRepeatedDaySeparator: ReviewProcessedMessage = ({ changes, index, messages }) => {
  const previous = messages[index - 1];
  const current = messages[index];
  const repeated = previous !== undefined && sameDay(previous.created_at, current?.created_at);
  const kept = repeated ? changes.filter((item) => !isUnreadDaySeparator(item)) : changes;
  // The SDK's own type says LocalMessage[], but it renders the separators it hands in as well.
  return kept as LocalMessage[];
};
