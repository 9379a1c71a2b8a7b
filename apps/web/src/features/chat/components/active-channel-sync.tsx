import * as React from 'react';
import { useChatContext } from 'stream-chat-react';

/**
 * The URL names the open channel: this makes the chat's active channel follow it (deep links, back and forward).
 * Picking a channel in the list navigates, so the two never disagree for long. With no channel in the URL the
 * active channel is cleared.
 */
export function ActiveChannelSync({ type, id }: { type: string | null; id: string | null }) {
  const { client, channel, setActiveChannel } = useChatContext();
  const activeCid = channel?.cid ?? null;
  React.useEffect(() => {
    if (!type || !id) {
      if (activeCid !== null) void setActiveChannel(undefined);
      return;
    }
    if (activeCid === `${type}:${id}`) return;
    try {
      void setActiveChannel(client.channel(type, id));
    } catch (error) {
      // A malformed type or id in the URL: the channel pane shows its error state.
      console.error('The URL does not name a valid channel.', error);
      void setActiveChannel(undefined);
    }
  }, [type, id, activeCid, client, setActiveChannel]);
  return null;
}
