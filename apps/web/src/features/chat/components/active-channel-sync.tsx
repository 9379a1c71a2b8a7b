import * as React from 'react';
import type { StreamChat } from 'stream-chat';
import { useChatContext } from 'stream-chat-react';

/**
 * Whether `cid` names a channel that already exists for this user. Watching a channel creates it, and its creator
 * owns it, so a mistyped or stale link would otherwise open a new empty channel instead of saying it does not exist.
 * Hidden channels (hidden by the user, or a conversation with someone they blocked) still count.
 */
export async function channelExists(client: StreamChat, cid: string): Promise<boolean> {
  // client.channel() registers a channel before it is watched: only a watched one is known to exist.
  if (client.activeChannels[cid]?.initialized) return true;
  const options = { limit: 1, watch: false, state: false, presence: false };
  const [shown, hidden] = await Promise.all([
    client.queryChannels({ cid }, {}, options),
    client.queryChannels({ cid, hidden: true }, {}, options),
  ]);
  return shown.length > 0 || hidden.length > 0;
}

/**
 * The URL names the open channel: this makes the chat's active channel follow it (deep links, back and forward).
 * Picking a channel in the list navigates, so the two never disagree for long. With no channel in the URL the
 * active channel is cleared. A signed-in user's link to a channel that does not exist reports `onMissing(true)`
 * instead of creating it; guests cannot create channels, so theirs go straight to the channel (and its error).
 */
export function ActiveChannelSync({
  type,
  id,
  isGuest,
  publicCids,
  onMissing,
}: {
  type: string | null;
  id: string | null;
  isGuest: boolean;
  /** The public sect channels: they always exist, so opening them needs no check. */
  publicCids: readonly string[];
  onMissing: (missing: boolean) => void;
}) {
  const { client, channel, setActiveChannel } = useChatContext();
  const activeCid = channel?.cid ?? null;
  React.useEffect(() => {
    onMissing(false);
    if (!type || !id) {
      if (activeCid !== null) void setActiveChannel(undefined);
      return;
    }
    if (activeCid === `${type}:${id}`) return;
    let cancelled = false;
    const open = async () => {
      try {
        const cid = `${type}:${id}`;
        if (!isGuest && !publicCids.includes(cid) && !(await channelExists(client, cid))) {
          if (!cancelled) onMissing(true);
          return;
        }
        if (!cancelled) void setActiveChannel(client.channel(type, id));
      } catch (error) {
        // A malformed type or id in the URL, or the lookup failed: the channel pane shows its error state.
        console.error('The URL does not name a channel that can be opened.', error);
        if (!cancelled) onMissing(true);
      }
    };
    void open();
    return () => {
      cancelled = true;
    };
  }, [type, id, activeCid, client, setActiveChannel, isGuest, publicCids, onMissing]);
  return null;
}
