import * as React from 'react';
import { useChannelStateContext } from 'stream-chat-react';

/**
 * stream-chat-react marks the open channel read through a 500 ms throttle that drops the trailing call, so a message
 * arriving just after the channel was opened stayed unread while the cultivator was looking at it. If the SDK has not
 * marked it read shortly after arrival, this does, unless the cultivator marked the channel unread meanwhile: their
 * choice wins over the arrival.
 */
const SETTLE_MS = 800;

export function ReadOnArrival() {
  const { channel } = useChannelStateContext();
  React.useEffect(() => {
    if (!channel.getConfig()?.read_events) return;
    const client = channel.getClient();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = channel.on('message.new', (event) => {
      const message = event.message;
      if (!message || message.user?.id === client.userID) return;
      if (message.parent_id && !message.show_in_channel) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (document.hidden || channel.countUnread() === 0) return;
        channel
          .markRead()
          .catch((error: unknown) => console.warn('Could not mark the channel read.', error));
      }, SETTLE_MS);
    });
    const markedUnread = client.on('notification.mark_unread', (event) => {
      if (event.cid === channel.cid) clearTimeout(timer);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
      markedUnread.unsubscribe();
    };
  }, [channel]);
  return null;
}
