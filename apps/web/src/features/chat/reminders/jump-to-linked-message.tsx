import * as React from 'react';
import { useSearchParams } from 'react-router';
import { useChannelActionContext } from 'stream-chat-react';
import { MESSAGE_SEARCH_PARAM } from './reminder-groups';

/**
 * Opens the open channel at the message a link names (`?tin-nhan=<id>`, from the reminders screen and the
 * reminder toast) and highlights it, then drops the parameter so a reload or a later visit starts at the bottom.
 * Renders nothing; it sits inside the channel.
 */
export function JumpToLinkedMessage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { jumpToMessage } = useChannelActionContext();
  const messageId = searchParams.get(MESSAGE_SEARCH_PARAM);

  React.useEffect(() => {
    if (!messageId) return;
    void jumpToMessage(messageId).finally(() => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(MESSAGE_SEARCH_PARAM);
          return next;
        },
        { replace: true },
      );
    });
  }, [messageId, jumpToMessage, setSearchParams]);

  return null;
}
