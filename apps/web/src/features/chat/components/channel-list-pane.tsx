import { isSectChannel, sidebarChannelFilter, type ChannelRef } from '@daohuu/domain';
import { CircleAlertIcon, LogInIcon, SquarePenIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import type {
  Channel as StreamChannel,
  ChannelFilters,
  ChannelOptions,
  ChannelSort,
} from 'stream-chat';
import {
  ChannelList,
  ChannelListItemUI,
  WithComponents,
  useChatContext,
  type ChannelListItemUIProps,
  type LoadingErrorIndicatorProps,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { useLoginDialog } from '@/lib/login-dialog';
import { useT, type MessageKey } from '@/i18n';
import { lazyDialog } from '@/lib/lazy-component';
import { MentionMarker, unreadMentionsOf } from '../people/mention-marker';
import { ChatSearchButton } from '../search/chat-search-button';
import { channelEmblem } from '../utils/channel-emblem';
import { chatChannelHref } from '../utils/chat-paths';
import { ChannelDraftMarker } from './channel-draft-marker';
import { ChatPanelState } from './chat-states';
import { DraftPreviewsProvider } from './draft-previews';
import { useSectChannels } from './sect-channels-context';

// Opened from a button: its user search and forms download on first use.
const NewConversationDialog = lazyDialog(
  async () => (await import('./new-conversation-dialog')).NewConversationDialog,
);

const SORT: ChannelSort = [{ last_message_at: -1 }];
// docs/product-rules.md §9: the channel list pages by 10.
const OPTIONS: ChannelOptions = { limit: 10, state: true, watch: true, presence: true };

function ChannelGroup({ labelKey, children }: { labelKey: MessageKey; children: React.ReactNode }) {
  const t = useT();
  const label = t(labelKey);
  return (
    <div role="group" aria-label={label} className="dh-channel-group">
      <div aria-hidden="true" className="dh-channel-group__label">
        {label}
      </div>
      {children}
    </div>
  );
}

/**
 * The official sect channels come first, then the cultivator's own conversations. A channel counts as a sect only
 * when GET /api/chat/config lists it, whatever its type.
 */
function renderGroupedChannels(
  channels: StreamChannel[],
  renderItem: (channel: StreamChannel) => React.ReactNode,
  sects: readonly ChannelRef[],
): React.ReactNode {
  const publicChannels = channels.filter((channel) => isSectChannel(channel, sects));
  const conversations = channels.filter((channel) => !isSectChannel(channel, sects));
  return (
    <>
      {publicChannels.length > 0 ? (
        <ChannelGroup labelKey="chat.list.sectChannels">
          {publicChannels.map(renderItem)}
        </ChannelGroup>
      ) : null}
      {conversations.length > 0 ? (
        <ChannelGroup labelKey="chat.list.conversations">
          {conversations.map(renderItem)}
        </ChannelGroup>
      ) : null}
    </>
  );
}

/** Opening a channel goes through the URL, so the address bar always names the open channel. */
function LinkedChannelListItem(props: ChannelListItemUIProps) {
  const navigate = useNavigate();
  const { channel } = props;
  const sects = useSectChannels();
  const onSelect = React.useCallback(() => {
    if (channel.id) navigate(chatChannelHref(channel.type, channel.id));
  }, [channel, navigate]);
  const emblem = channelEmblem(channel, sects);
  // Recounted whenever the row re-renders, which the list does for every new message and read.
  const mentions = unreadMentionsOf(channel);
  const item = emblem ? (
    <ChannelListItemUI
      {...props}
      displayImage={emblem}
      groupChannelDisplayInfo={undefined}
      onSelect={onSelect}
    />
  ) : (
    <ChannelListItemUI {...props} onSelect={onSelect} />
  );
  const marked = (
    <ChannelDraftMarker cid={channel.cid} active={props.active === true}>
      {item}
    </ChannelDraftMarker>
  );
  if (mentions === 0) return marked;
  return (
    <div className="dh-channel-item--mentioned">
      {marked}
      <MentionMarker count={mentions} />
    </div>
  );
}

function ChannelListHeader({ isGuest }: { isGuest: boolean }) {
  const [dialogOpen, setDialogOpen] = React.useState(false);
  const { openLogin } = useLoginDialog();
  const t = useT();
  return (
    <div className="str-chat__channel-list__header dh-channel-list-header">
      <h2 className="dh-channel-list-header__title">{t('chat.list.title')}</h2>
      {isGuest ? (
        <Button size="sm" variant="gold" onClick={() => openLogin()}>
          <LogInIcon aria-hidden="true" />
          {t('common.signIn')}
        </Button>
      ) : (
        <>
          <ChatSearchButton />
          <Button
            size="icon-sm"
            variant="ghost"
            aria-label={t('chat.list.newConversation')}
            title={t('chat.list.newConversation')}
            onClick={() => setDialogOpen(true)}
          >
            <SquarePenIcon aria-hidden="true" />
          </Button>
          <NewConversationDialog open={dialogOpen} onOpenChange={setDialogOpen} />
        </>
      )}
    </div>
  );
}

function ChannelListError({ error }: LoadingErrorIndicatorProps) {
  const t = useT();
  if (!error) return null;
  return (
    <ChatPanelState
      icon={CircleAlertIcon}
      tone="warning"
      title={t('chat.list.loadFailedTitle')}
      description={t('chat.list.loadFailedDescription')}
    />
  );
}

function GuestNotice() {
  const { openLogin } = useLoginDialog();
  const t = useT();
  return (
    <div className="dh-guest-notice">
      <p>{t('chat.list.guestNotice')}</p>
      <Button size="sm" variant="outline" onClick={() => openLogin('sign-up')}>
        {t('chat.list.createAccount')}
      </Button>
    </div>
  );
}

/** The left column: public sect channels, then DMs and groups, with unread badges and last-message previews. */
export function ChannelListPane({ isGuest }: { isGuest: boolean }) {
  const { client } = useChatContext();
  const userId = client.userID;
  const sects = useSectChannels();
  const filters = React.useMemo(
    () => sidebarChannelFilter(isGuest ? undefined : userId, sects) as ChannelFilters,
    [isGuest, userId, sects],
  );
  const renderChannels = React.useCallback(
    (channels: StreamChannel[], renderItem: (channel: StreamChannel) => React.ReactNode) =>
      renderGroupedChannels(channels, renderItem, sects),
    [sects],
  );
  const overrides = React.useMemo(
    () => ({
      ChannelListHeader: () => <ChannelListHeader isGuest={isGuest} />,
      ChannelListItemUI: LinkedChannelListItem,
      LoadingErrorIndicator: ChannelListError,
    }),
    [isGuest],
  );
  return (
    <div className="dh-chat__list">
      <DraftPreviewsProvider client={client}>
        <WithComponents overrides={overrides}>
          <ChannelList
            filters={filters}
            sort={SORT}
            options={OPTIONS}
            setActiveChannelOnMount={false}
            renderChannels={renderChannels}
          />
        </WithComponents>
      </DraftPreviewsProvider>
      {isGuest ? <GuestNotice /> : null}
    </div>
  );
}
