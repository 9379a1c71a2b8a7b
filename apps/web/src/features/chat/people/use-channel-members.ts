import * as React from 'react';
import type { Channel, ChannelMemberResponse } from 'stream-chat';
import { useChatContext } from 'stream-chat-react';

// docs/product-rules.md §9 pages lists by 10; a member row is short, so the panel takes a few more at once.
export const MEMBERS_PAGE_SIZE = 25;

export interface ChannelMembersState {
  members: ChannelMemberResponse[];
  loading: boolean;
  failed: boolean;
  hasMore: boolean;
  loadMore: () => void;
}

/**
 * The channel's members from the server (channel.queryMembers), a page at a time, by name. Presence changes that
 * arrive while the panel is open update the rows in place.
 */
export function useChannelMembers(channel: Channel): ChannelMembersState {
  const { client } = useChatContext();
  const [members, setMembers] = React.useState<ChannelMemberResponse[]>([]);
  const [loading, setLoading] = React.useState(true);
  const [failed, setFailed] = React.useState(false);
  const [hasMore, setHasMore] = React.useState(false);
  const offset = members.length;

  const load = React.useCallback(
    async (from: number, signal?: { cancelled: boolean }) => {
      setLoading(true);
      setFailed(false);
      try {
        const page = await channel.queryMembers(
          {},
          { name: 1 },
          { limit: MEMBERS_PAGE_SIZE, offset: from },
        );
        if (signal?.cancelled) return;
        setMembers((current) => [...current.slice(0, from), ...page.members]);
        setHasMore(page.members.length === MEMBERS_PAGE_SIZE);
      } catch {
        if (!signal?.cancelled) setFailed(true);
      } finally {
        if (!signal?.cancelled) setLoading(false);
      }
    },
    [channel],
  );

  React.useEffect(() => {
    const signal = { cancelled: false };
    void load(0, signal);
    return () => {
      signal.cancelled = true;
    };
  }, [load]);

  React.useEffect(() => {
    const subscription = client.on('user.presence.changed', (event) => {
      const user = event.user;
      if (!user) return;
      setMembers((current) =>
        current.map((member) =>
          member.user?.id === user.id ? { ...member, user: { ...member.user, ...user } } : member,
        ),
      );
    });
    return () => subscription.unsubscribe();
  }, [client]);

  const loadMore = React.useCallback(() => void load(offset), [load, offset]);
  return { members, loading, failed, hasMore, loadMore };
}
