import type { ChannelRef } from '@daohuu/domain';
import * as React from 'react';
import { Navigate } from 'react-router';
import type { StreamChat } from 'stream-chat';
import { chatChannelHref } from '../utils/chat-paths';
import { channelExists } from './active-channel-sync';
import { ChatConnecting } from './chat-states';
import { defaultChannel, forgetLastChannel } from './last-channel';

type Choice = { status: 'checking' } | { status: 'chosen'; href: string | null };

/**
 * The channel /chat opens on a wide screen: the one the cultivator last had open (kept per user on this browser),
 * when it still exists and they can still read it; otherwise the first public sect channel. Guests always get the
 * sect channel. Renders the redirect, or the connecting state while the kept channel is checked.
 */
export function DefaultChannelRedirect({
  client,
  publicChannels,
}: {
  client: StreamChat;
  publicChannels: readonly ChannelRef[];
}) {
  const userId = client.anonymous ? undefined : client.userID;
  const [choice, setChoice] = React.useState<Choice>({ status: 'checking' });

  React.useEffect(() => {
    const { kept: last, fallback } = defaultChannel(userId, publicChannels);
    const fallbackHref = fallback ? chatChannelHref(fallback.type, fallback.id) : null;
    if (!userId || !last) {
      setChoice({ status: 'chosen', href: fallbackHref });
      return;
    }
    const isPublic = publicChannels.some((channel) => `${channel.type}:${channel.id}` === last.cid);
    if (isPublic) {
      setChoice({ status: 'chosen', href: chatChannelHref(last.type, last.id) });
      return;
    }
    let cancelled = false;
    channelExists(client, last.cid)
      .then((exists) => {
        if (cancelled) return;
        if (!exists) forgetLastChannel(userId, last.cid);
        setChoice({
          status: 'chosen',
          href: exists ? chatChannelHref(last.type, last.id) : fallbackHref,
        });
      })
      // A removed member's query is refused: the channel is no longer theirs to reopen.
      .catch(() => {
        if (cancelled) return;
        forgetLastChannel(userId, last.cid);
        setChoice({ status: 'chosen', href: fallbackHref });
      });
    return () => {
      cancelled = true;
    };
  }, [client, userId, publicChannels]);

  if (choice.status === 'checking') return <ChatConnecting />;
  return choice.href ? <Navigate replace to={choice.href} /> : null;
}
