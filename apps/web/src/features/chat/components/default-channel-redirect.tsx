import { isSectChannel, type ChannelRef } from '@daohuu/domain';
import * as React from 'react';
import { Navigate } from 'react-router';
import type { StreamChat } from 'stream-chat';
import { chatChannelHref } from '../utils/chat-paths';
import { channelExists } from './active-channel-sync';
import { ChatConnecting } from './chat-states';
import { defaultChannel, forgetLastChannel } from './last-channel';

type Choice = { status: 'checking' } | { status: 'chosen'; href: string | null };

/** The choice when it needs no check (a guest, nothing kept, a kept public sect channel), else null. */
function decidedAtOnce(
  userId: string | undefined,
  kept: ReturnType<typeof defaultChannel>['kept'],
  fallbackHref: string | null,
  publicChannels: readonly ChannelRef[],
): Choice | null {
  if (!userId || !kept) return { status: 'chosen', href: fallbackHref };
  return isSectChannel(kept, publicChannels)
    ? { status: 'chosen', href: chatChannelHref(kept.type, kept.id) }
    : null;
}

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
  // Read once: what this browser keeps, and the fallback.
  const { kept, fallbackHref } = React.useMemo(() => {
    const { kept, fallback } = defaultChannel(userId, publicChannels);
    return { kept, fallbackHref: fallback ? chatChannelHref(fallback.type, fallback.id) : null };
  }, [userId, publicChannels]);
  // Most visits are decided at once (a guest, nothing kept, a kept sect channel): no connecting state flashes by.
  const decided = decidedAtOnce(userId, kept, fallbackHref, publicChannels);
  const needsCheck = decided === null;
  const [checked, setChecked] = React.useState<Choice>({ status: 'checking' });

  React.useEffect(() => {
    if (!needsCheck || !userId || !kept) return;
    let cancelled = false;
    channelExists(client, kept.cid)
      .then((exists) => {
        if (cancelled) return;
        if (!exists) forgetLastChannel(userId, kept.cid);
        setChecked({
          status: 'chosen',
          href: exists ? chatChannelHref(kept.type, kept.id) : fallbackHref,
        });
      })
      // A removed member's query is refused: the channel is no longer theirs to reopen.
      .catch(() => {
        if (cancelled) return;
        forgetLastChannel(userId, kept.cid);
        setChecked({ status: 'chosen', href: fallbackHref });
      });
    return () => {
      cancelled = true;
    };
  }, [client, userId, kept, fallbackHref, needsCheck]);

  const choice = decided ?? checked;
  if (choice.status === 'checking') return <ChatConnecting />;
  return choice.href ? <Navigate replace to={choice.href} /> : null;
}
