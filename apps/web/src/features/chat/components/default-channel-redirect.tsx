import type { ChannelRef } from '@daohuu/domain';
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
  { kept, fallback }: ReturnType<typeof defaultChannel>,
  publicChannels: readonly ChannelRef[],
): Choice | null {
  const fallbackHref = fallback ? chatChannelHref(fallback.type, fallback.id) : null;
  if (!userId || !kept) return { status: 'chosen', href: fallbackHref };
  const isPublic = publicChannels.some((channel) => `${channel.type}:${channel.id}` === kept.cid);
  return isPublic ? { status: 'chosen', href: chatChannelHref(kept.type, kept.id) } : null;
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
  const choices = React.useMemo(
    () => defaultChannel(userId, publicChannels),
    [userId, publicChannels],
  );
  // Most visits are decided at once (a guest, nothing kept, a kept sect channel): no connecting state flashes by.
  const decided = decidedAtOnce(userId, choices, publicChannels);
  const needsCheck = decided === null;
  const [checked, setChecked] = React.useState<Choice>({ status: 'checking' });

  React.useEffect(() => {
    const { kept: last, fallback } = choices;
    if (!needsCheck || !userId || !last) return;
    const fallbackHref = fallback ? chatChannelHref(fallback.type, fallback.id) : null;
    let cancelled = false;
    channelExists(client, last.cid)
      .then((exists) => {
        if (cancelled) return;
        if (!exists) forgetLastChannel(userId, last.cid);
        setChecked({
          status: 'chosen',
          href: exists ? chatChannelHref(last.type, last.id) : fallbackHref,
        });
      })
      // A removed member's query is refused: the channel is no longer theirs to reopen.
      .catch(() => {
        if (cancelled) return;
        forgetLastChannel(userId, last.cid);
        setChecked({ status: 'chosen', href: fallbackHref });
      });
    return () => {
      cancelled = true;
    };
  }, [client, userId, choices, needsCheck]);

  const choice = decided ?? checked;
  if (choice.status === 'checking') return <ChatConnecting />;
  return choice.href ? <Navigate replace to={choice.href} /> : null;
}
