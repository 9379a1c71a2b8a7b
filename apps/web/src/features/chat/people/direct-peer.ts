import * as React from 'react';
import type { Channel, ChannelMemberResponse, UserResponse } from 'stream-chat';
import { useChatContext } from 'stream-chat-react';

/**
 * The other cultivator of a 1:1 conversation: a `messaging` channel without a group name whose two members are the
 * viewer and one other. Null for groups, sect channels and anything else.
 */
export function directPeerOf(
  channel: Pick<Channel, 'type'> & { data?: { name?: unknown; member_count?: unknown } },
  members: Record<string, ChannelMemberResponse> | undefined,
  me: string | undefined,
): UserResponse | null {
  if (channel.type !== 'messaging' || !me) return null;
  if (typeof channel.data?.name === 'string' && channel.data.name.trim()) return null;
  const list = Object.values(members ?? {});
  const count =
    typeof channel.data?.member_count === 'number' ? channel.data.member_count : list.length;
  if (count !== 2 || list.length !== 2) return null;
  if (!list.some((member) => (member.user_id ?? member.user?.id) === me)) return null;
  return list.find((member) => (member.user_id ?? member.user?.id) !== me)?.user ?? null;
}

/** `peer` kept current with the presence events the client receives while the header is on screen. */
export function useLivePeer(peer: UserResponse | null): UserResponse | null {
  const { client } = useChatContext();
  const [live, setLive] = React.useState(peer);
  React.useEffect(() => setLive(peer), [peer]);
  const peerId = peer?.id;
  React.useEffect(() => {
    if (!peerId) return undefined;
    const subscription = client.on('user.presence.changed', (event) => {
      if (event.user?.id === peerId)
        setLive((current) => (current ? { ...current, ...event.user } : current));
    });
    return () => subscription.unsubscribe();
  }, [client, peerId]);
  return live;
}
