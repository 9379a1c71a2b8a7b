import * as React from 'react';
import { useNavigate } from 'react-router';
import { useChannelActionContext, useChannelStateContext } from 'stream-chat-react';

interface ThreadEntryState {
  dhThread?: string;
}

/**
 * The thread id kept in the browser's current history entry. Read from the browser, not from React Router's
 * location: the router renders each history move as a transition, so right after a back its location can still
 * describe the entry just left while a thread opens or closes (CI caught a thread reopened in that gap, which then
 * never got an entry of its own and stayed open on back).
 */
function currentEntryThread(): string | undefined {
  // React Router keeps the state passed to `navigate` under `usr` in the entry's history state.
  const state: unknown = window.history.state;
  const own =
    typeof state === 'object' && state !== null ? (state as { usr?: unknown }).usr : undefined;
  return typeof own === 'object' && own !== null ? (own as ThreadEntryState).dhThread : undefined;
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
  const threadId = thread?.id;
  const seen = React.useRef(threadId);

  // The thread changed on screen: record it, or step back over its entry when it was closed.
  const follow = React.useEffectEvent(() => {
    const before = seen.current;
    seen.current = threadId;
    if (threadId === before) return;
    const entry = currentEntryThread();
    const { pathname, search, hash } = window.location;
    if (threadId && entry !== threadId) {
      void navigate(`${pathname}${search}${hash}`, {
        state: { dhThread: threadId },
        replace: Boolean(entry),
      });
    } else if (!threadId && entry) {
      void navigate(-1);
    }
  });
  React.useEffect(() => follow(), [threadId]);

  // The history moved back (or forward) off the thread's entry while the thread is open: close it. Replacing the
  // entry (a search result dropping its parameters) fires no popstate, so it is not leaving the thread.
  const leave = React.useEffectEvent(() => {
    if (threadId && currentEntryThread() !== threadId) closeThread();
  });
  React.useEffect(() => {
    const onPop = () => leave();
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return null;
}
