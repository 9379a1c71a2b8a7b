import * as React from 'react';
import {
  DateSeparator,
  UnreadMessagesNotification,
  useMessageListContext,
  type DateSeparatorProps,
  type UnreadMessagesNotificationProps,
} from 'stream-chat-react';

/**
 * The SDK floats the current date and the "N unread" button over the top of the message list, where they hide the
 * first lines of text. Here each takes a strip of its own above the list instead; while one is shown the list is
 * scrolled by its height, so the messages stay exactly where they were on screen.
 */
function useRoomAboveList(strip: React.RefObject<HTMLDivElement | null>): void {
  const { listElement } = useMessageListContext();
  React.useLayoutEffect(() => {
    const height = strip.current?.offsetHeight ?? 0;
    if (!listElement || height === 0) return;
    listElement.scrollTop += height;
    return () => {
      listElement.scrollTop -= height;
    };
  }, [listElement, strip]);
}

function FloatingDateStrip(props: DateSeparatorProps) {
  const strip = React.useRef<HTMLDivElement>(null);
  useRoomAboveList(strip);
  return (
    <div ref={strip} className="dh-list-strip dh-list-strip--date">
      <DateSeparator {...props} />
    </div>
  );
}

/** In the list, the SDK's separator; floating over it, a strip of its own. */
export function ListDateSeparator(props: DateSeparatorProps) {
  return props.floating ? <FloatingDateStrip {...props} /> : <DateSeparator {...props} />;
}

/** "N chưa đọc · ×" in a strip above the list rather than over its first messages. */
export function UnreadMessagesStrip(props: UnreadMessagesNotificationProps) {
  const strip = React.useRef<HTMLDivElement>(null);
  useRoomAboveList(strip);
  return (
    <div ref={strip} className="dh-list-strip dh-list-strip--unread">
      <UnreadMessagesNotification {...props} />
    </div>
  );
}
