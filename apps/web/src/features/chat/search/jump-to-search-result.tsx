import * as React from 'react';
import { useSearchParams } from 'react-router';
import { formatMessage, type Channel, type LocalMessage } from 'stream-chat';
import { useChannelActionContext, useChannelStateContext } from 'stream-chat-react';
import { RESULT_SEARCH_PARAM, THREAD_SEARCH_PARAM } from './result-links';

/** How long the message a search opened stays highlighted; the SDK's 0.5 s is easy to miss after a jump. */
export const SEARCH_HIGHLIGHT_MS = 4000;

async function findMessage(channel: Channel, id: string): Promise<LocalMessage> {
  return (
    channel.state.findMessage(id) ??
    formatMessage((await channel.getClient().getMessage(id)).message)
  );
}

function withoutSearchParams(current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete(RESULT_SEARCH_PARAM);
  next.delete(THREAD_SEARCH_PARAM);
  return next;
}

/**
 * Opens the open channel at the message a search result names (`?ket-qua=<id>`) and highlights it; for a reply that
 * lives only in its thread (`&chuoi=<parent id>`) at its parent, with the thread open. Then drops the parameters,
 * so a reload starts at the bottom. Renders nothing; it sits inside the channel.
 */
export function JumpToSearchResult() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { channel } = useChannelStateContext();
  const { jumpToMessage, openThread } = useChannelActionContext();
  const messageId = searchParams.get(RESULT_SEARCH_PARAM);
  const parentId = searchParams.get(THREAD_SEARCH_PARAM);
  // One jump per result. jumpToMessage re-renders the channel, which hands out a new openThread, and React Router
  // commits the dropped parameter in a transition that those urgent re-renders keep postponing: keyed on the
  // functions, the effect jumped again on every render and the page never settled.
  const jumped = React.useRef<string | null>(null);
  const jump = React.useEffectEvent(async (id: string, parent: string | null) => {
    await jumpToMessage(parent ?? id, undefined, SEARCH_HIGHLIGHT_MS);
    if (!parent) return;
    const message = await findMessage(channel, parent);
    if (message.cid === channel.cid) openThread(message);
  });
  const dropParams = React.useEffectEvent(() =>
    setSearchParams(withoutSearchParams, { replace: true }),
  );

  React.useEffect(() => {
    if (!messageId) {
      jumped.current = null;
      return;
    }
    const key = `${channel.cid}/${messageId}/${parentId ?? ''}`;
    if (jumped.current === key) return;
    jumped.current = key;
    jump(messageId, parentId)
      .catch((error: unknown) => console.error('Could not open the search result.', error))
      .finally(dropParams);
  }, [messageId, parentId, channel.cid]);

  return null;
}
