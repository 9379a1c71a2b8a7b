import * as React from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { useChannelActionContext, useChannelStateContext } from 'stream-chat-react';

interface ThreadEntryState {
  dhThread?: string;
}

function threadOfEntry(state: unknown): string | undefined {
  return typeof state === 'object' && state !== null
    ? (state as ThreadEntryState).dhThread
    : undefined;
}

/**
 * An open thread is a screen of its own on a phone, so opening one adds a history entry (same URL, the thread's id in
 * its state): the browser's back button or a phone's back gesture closes the thread, and closing it from its header
 * steps back over that entry. Renders nothing; it sits inside the channel.
 */
export function ThreadHistory() {
  const { thread } = useChannelStateContext();
  const { closeThread } = useChannelActionContext();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const location = useLocation();
  const threadId = thread?.id;
  const entry = threadOfEntry(location.state);
  const seen = React.useRef({ threadId, entry });
  const here = `${location.pathname}${location.search}${location.hash}`;

  const follow = React.useEffectEvent(() => {
    const before = seen.current;
    seen.current = { threadId, entry };
    if (threadId !== before.threadId) {
      // The thread changed on screen: record it, or step back over its entry when it was closed.
      if (threadId && entry !== threadId) {
        void navigate(here, { state: { dhThread: threadId }, replace: Boolean(entry) });
      } else if (!threadId && entry) {
        void navigate(-1);
      }
      return;
    }
    // The history moved back (or forward) off the thread's entry while the thread is open: close it. Replacing the
    // entry (a search result dropping its parameters) is not leaving the thread.
    if (navigationType === 'POP' && threadId && entry !== threadId) closeThread();
  });

  React.useEffect(() => follow(), [threadId, entry, location.key]);
  return null;
}
