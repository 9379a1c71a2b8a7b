import { formatAmount } from '@daohuu/domain';
import { PinIcon, UsersIcon } from 'lucide-react';
import {
  TypingIndicatorHeader,
  useChannelPreviewInfo,
  useChannelStateContext,
  useChatContext,
  useTranslationContext,
  useTypingContext,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { directPeerOf, useLivePeer } from '../people/direct-peer';
import { PresenceLine } from '../people/presence-line';
import { channelEmblem } from '../utils/channel-emblem';
import { BackToList } from './back-to-list';
import { ChannelAvatar } from './group-avatar';
import { useSectChannels } from './sect-channels-context';

/** The member count for the header: the server's `member_count`, else the members loaded with the channel. */
export function memberCountOf(
  memberCount: unknown,
  members: Record<string, unknown> | undefined,
): number {
  if (typeof memberCount === 'number' && Number.isFinite(memberCount)) return memberCount;
  return Object.keys(members ?? {}).length;
}

function HeaderSubtitle() {
  const { channel, channelConfig, members, watcher_count: watcherCount } = useChannelStateContext();
  const { client } = useChatContext();
  const { typing = {} } = useTypingContext();
  const { t } = useTranslationContext();
  const someoneTyping =
    channelConfig?.typing_events !== false &&
    Object.values(typing).some(({ parent_id, user }) => !parent_id && user?.id !== client.user?.id);
  if (someoneTyping) return <TypingIndicatorHeader />;
  // A 1:1 conversation says how the other person is doing; "2 members" would count the viewer too.
  const peer = directPeerOf(channel, members, client.userID);
  if (peer) return <DirectPeerStatus peer={peer} />;

  const count = memberCountOf(channel.data?.member_count, members);
  // The chat's own wording ("{{ memberCount }} members") keeps the English switch working; the figure is vi-VN.
  const membersText = t('{{ memberCount }} members', { memberCount: formatAmount(count, 1) });
  const online =
    typeof watcherCount === 'number' && watcherCount > 0
      ? t('{{ watcherCount }} online', { watcherCount: formatAmount(watcherCount, 1) })
      : null;
  return (
    <span>
      <span data-testid="channel-member-count">{membersText}</span>
      {online ? <span className="dh-channel-header__online"> · {online}</span> : null}
    </span>
  );
}

function DirectPeerStatus({ peer }: { peer: NonNullable<ReturnType<typeof directPeerOf>> }) {
  const live = useLivePeer(peer);
  return <PresenceLine user={live ?? peer} className="dh-channel-header__presence" />;
}

/**
 * The channel header: back to the list (on phones), the channel's avatar and name, members and who is online (or
 * who is typing), and the pinned-messages toggle.
 */
export function ChatChannelHeader({
  pinnedOpen,
  onTogglePinned,
  membersOpen,
  onToggleMembers,
}: {
  pinnedOpen: boolean;
  onTogglePinned: () => void;
  membersOpen: boolean;
  onToggleMembers: () => void;
}) {
  const { channel, pinnedMessages } = useChannelStateContext();
  const { t } = useTranslationContext();
  const { displayImage, displayTitle, groupChannelDisplayInfo } = useChannelPreviewInfo({
    channel,
  });
  const pinnedCount = pinnedMessages?.length ?? 0;
  const emblem = channelEmblem(channel, useSectChannels());
  return (
    <div className="str-chat__channel-header dh-channel-header">
      <BackToList />
      <ChannelAvatar
        className="str-chat__avatar--channel-header"
        displayMembers={emblem ? undefined : groupChannelDisplayInfo?.members}
        imageUrl={emblem ?? displayImage}
        size="lg"
        userName={displayTitle}
      />
      <div className="str-chat__channel-header__data dh-channel-header__data">
        <h2 className="str-chat__channel-header__data__title dh-channel-header__title">
          {displayTitle}
        </h2>
        <div className="str-chat__channel-header__data__subtitle">
          <HeaderSubtitle />
        </div>
      </div>
      <Button
        size="sm"
        variant={pinnedOpen ? 'secondary' : 'ghost'}
        aria-pressed={pinnedOpen}
        aria-label={t('Pinned messages')}
        title={t('Pinned messages')}
        onClick={onTogglePinned}
        className="dh-channel-header__pins"
      >
        <PinIcon aria-hidden="true" />
        {pinnedCount > 0 ? (
          <span className="tabular-nums">{formatAmount(pinnedCount, 1)}</span>
        ) : null}
      </Button>
      <Button
        size="icon-sm"
        variant={membersOpen ? 'secondary' : 'ghost'}
        aria-pressed={membersOpen}
        aria-label={t('Members')}
        title={t('Members')}
        onClick={onToggleMembers}
        className="dh-channel-header__members"
      >
        <UsersIcon aria-hidden="true" />
      </Button>
    </div>
  );
}
