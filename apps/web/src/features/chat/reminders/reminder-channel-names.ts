import * as React from 'react';
import type { Channel, ChannelMemberResponse, StreamChat } from 'stream-chat';
import { t } from '@/i18n';
import { directPeerOf } from '../people/direct-peer';

/** What a reminder's channel is called when nothing better is known (it may be gone, or hidden). */
export function unnamedChannel(): string {
  return t('chat.reminders.unnamedChannel');
}

// A group without a name is called by its members: this many, then "…".
const NAMED_MEMBERS = 3;

/**
 * The name the channel list would show: the channel's own name ("Quảng Trường"), the other cultivator's for a 1:1,
 * the members' for an unnamed group, else unnamedChannel().
 */
export function channelDisplayName(
  channel: Pick<Channel, 'type'> & { data?: { name?: unknown; member_count?: unknown } },
  members: Record<string, ChannelMemberResponse> | undefined,
  me: string | undefined,
): string {
  const own = channel.data?.name;
  if (typeof own === 'string' && own.trim()) return own.trim();
  const peer = directPeerOf(channel, members, me);
  if (peer) return peer.name || peer.id;
  const others = Object.values(members ?? {})
    .filter((member) => (member.user_id ?? member.user?.id) !== me)
    .map((member) => member.user?.name || member.user_id || member.user?.id)
    .filter((name): name is string => Boolean(name));
  if (others.length === 0) return unnamedChannel();
  const shown = others.slice(0, NAMED_MEMBERS).join(', ');
  return others.length > NAMED_MEMBERS ? `${shown}…` : shown;
}

async function namesOf(client: StreamChat, cids: string[]): Promise<Map<string, string>> {
  const options = { limit: 30, state: true, watch: false, presence: false };
  const names = new Map<string, string>();
  // The filter takes at most 30 cids a query; hidden conversations (with a blocked cultivator) are asked for too.
  for (let start = 0; start < cids.length; start += options.limit) {
    const batch = cids.slice(start, start + options.limit);
    const found = await Promise.all([
      client.queryChannels({ cid: { $in: batch } }, {}, options),
      client.queryChannels({ cid: { $in: batch }, hidden: true }, {}, options),
    ]);
    for (const channel of found.flat()) {
      names.set(channel.cid, channelDisplayName(channel, channel.state.members, client.userID));
    }
  }
  return names;
}

/**
 * The display name of each channel the reminders are in, looked up once per set of channels (the reminders carry
 * only the channel's cid). Empty while loading or when the lookup fails; the screen then says unnamedChannel().
 */
export function useChannelNames(client: StreamChat, cids: readonly string[]): Map<string, string> {
  const key = [...new Set(cids)].sort().join('\n');
  const [names, setNames] = React.useState<Map<string, string>>(() => new Map());
  React.useEffect(() => {
    if (!key) return;
    let cancelled = false;
    namesOf(client, key.split('\n'))
      .then((found) => {
        if (!cancelled) setNames(found);
      })
      .catch((error: unknown) =>
        console.error('The reminders’ channel names could not be loaded.', error),
      );
    return () => {
      cancelled = true;
    };
  }, [client, key]);
  return names;
}
