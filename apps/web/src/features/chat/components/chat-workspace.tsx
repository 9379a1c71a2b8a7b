import type { ChatClientConfig } from '@daohuu/domain';
import * as React from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import type { StreamChat } from 'stream-chat';
import {
  Chat,
  WithComponents,
  defaultReactionOptions,
  type ComponentContextValue,
} from 'stream-chat-react';
import { DESKTOP_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { useTheme } from '@/hooks/use-theme';
import { lazyComponent } from '@/lib/lazy-component';
import { ComposerEmojiPicker } from '../emoji/composer-emoji-picker';
import { withEveryEmoji } from '../emoji/emoji-reactions';
import { FullReactionPicker } from '../emoji/full-reaction-picker';
import { createStreami18n } from '../i18n';
import { useChatLanguage } from '../language/chat-language';
import { MemberMessageActions } from '../messages/member-message-actions';
import { vietnameseReactionOptions } from '../messages/reaction-options';
import { RealmMessageUI } from '../messages/realm-message-ui';
import { ComposerLinkPreviews } from '../attachments/composer-link-previews';
import { ViFileSizeIndicator } from '../attachments/file-size-indicator';
import { LiveLocationSharing } from '../location/live-location-sharing';
import { LocationAwareAttachment } from '../location/location-attachment';
import { MemberComposer, SlowModeCountdown } from '../moderation/member-composer';
import { OutboxFlusher } from '../outbox/outbox-flusher';
import { ReportDialogProvider } from '../moderation/report-dialog';
import { ProfileCardProvider } from '../people/profile-card-context';
import { ViReminderNotification } from '../reminders/reminder-notification';
import { channelFromParams, movedSectChannelHref } from '../utils/chat-paths';
import { ActiveChannelSync } from './active-channel-sync';
import { ChannelListPane } from './channel-list-pane';
import { ChatContextMenu } from './channel-list-context-menu';
import { ChannelPane } from './channel-pane';
import { ChatThreadHeader } from './chat-thread-header';
import { ChatToasts } from './chat-toasts';
import { ConnectionBanner } from './connection-banner';
import { DefaultChannelRedirect } from './default-channel-redirect';
import { ChannelAvatar } from './group-avatar';
import { GuestComposer } from './guest-composer';
import { GuestMessageActions } from './guest-message-actions';
import { useRememberLastChannel } from './last-channel';
import { SectChannelsProvider } from './sect-channels-context';

// Rarely opened: their code downloads when stream-chat-react first renders them.
const PollCreationDialog = lazyComponent(
  async () => (await import('../polls/poll-creation-dialog')).PollCreationDialog,
);
const ShareLocationDialog = lazyComponent(
  async () => (await import('../location/share-location-dialog')).ShareLocationDialog,
);

// Notifications become app toasts (ChatToasts); the SDK's own toast lists stay empty.
const hideSdkNotificationLists = () => false;

const MEMBER_OVERRIDES: Partial<ComponentContextValue> = {
  MessageUI: RealmMessageUI,
  MessageActions: MemberMessageActions,
  ThreadHeader: ChatThreadHeader,
  PollCreationDialog,
  Attachment: LocationAwareAttachment,
  ShareLocationDialog,
  MessageComposerUI: MemberComposer,
  CooldownTimer: SlowModeCountdown,
  ReminderNotification: ViReminderNotification,
  FileSizeIndicator: ViFileSizeIndicator,
  Avatar: ChannelAvatar,
  EmojiPicker: ComposerEmojiPicker,
  LinkPreviewList: ComposerLinkPreviews,
  ReactionSelectorExtendedList: FullReactionPicker,
  ContextMenu: ChatContextMenu,
};
const GUEST_OVERRIDES: Partial<ComponentContextValue> = {
  ...MEMBER_OVERRIDES,
  MessageComposerUI: GuestComposer,
  MessageActions: GuestMessageActions,
};

// The six quick reactions, and every emoji behind their "+" (emoji/emoji-reactions.ts).
const VI_REACTION_OPTIONS = withEveryEmoji(vietnameseReactionOptions());
const EN_REACTION_OPTIONS = withEveryEmoji(defaultReactionOptions);

/** The chat UI for one connected client: channel list, open channel, thread and pins. */
export function ChatWorkspace({
  client,
  config,
}: {
  client: StreamChat;
  config: ChatClientConfig;
}) {
  const params = useParams();
  const location = useLocation();
  const target = channelFromParams(params);
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const [language] = useChatLanguage();
  const i18n = React.useMemo(() => createStreami18n(language), [language]);
  const { resolvedTheme } = useTheme();
  const isGuest = client.anonymous;
  // The URL's channel turned out not to exist (ActiveChannelSync checks before opening, so nothing is created).
  const [missing, setMissing] = React.useState(false);
  const publicCids = React.useMemo(
    () => config.publicChannels.map((channel) => `${channel.type}:${channel.id}`),
    [config.publicChannels],
  );
  const overrides = React.useMemo<Partial<ComponentContextValue>>(
    () => ({
      ...(isGuest ? GUEST_OVERRIDES : MEMBER_OVERRIDES),
      // English keeps the SDK's own reaction names.
      reactionOptions: language === 'vi' ? VI_REACTION_OPTIONS : EN_REACTION_OPTIONS,
    }),
    [isGuest, language],
  );

  useRememberLastChannel(isGuest ? undefined : client.userID, target?.cid ?? null, missing);

  const moved = movedSectChannelHref(target, config.publicChannels);
  if (moved) return <Navigate replace to={`${moved}${location.search}`} />;

  // On a wide screen there is room for a channel, so /chat reopens the last channel (or the first public sect
  // channel); on a phone /chat is the channel list itself.
  if (!target && isDesktop && config.publicChannels.length > 0) {
    return <DefaultChannelRedirect client={client} publicChannels={config.publicChannels} />;
  }

  return (
    <SectChannelsProvider sects={config.publicChannels}>
      <Chat
        client={client}
        i18nInstance={i18n}
        theme={resolvedTheme === 'dark' ? 'str-chat__theme-dark' : 'str-chat__theme-light'}
        notificationDisplayFilter={hideSdkNotificationLists}
      >
        <ActiveChannelSync
          type={target?.type ?? null}
          id={target?.id ?? null}
          isGuest={isGuest}
          publicCids={publicCids}
          onMissing={setMissing}
        />
        <ChatToasts />
        {isGuest ? null : <LiveLocationSharing />}
        {isGuest ? null : <OutboxFlusher client={client} />}
        <ReportDialogProvider client={client}>
          <ProfileCardProvider enabled={!isGuest}>
            <WithComponents overrides={overrides}>
              <div className="dh-chat" data-view={target ? 'channel' : 'list'}>
                <ConnectionBanner />
                <div className="dh-chat__panes">
                  <ChannelListPane isGuest={isGuest} />
                  <ChannelPane isGuest={isGuest} missing={missing} hasTarget={target !== null} />
                </div>
              </div>
            </WithComponents>
          </ProfileCardProvider>
        </ReportDialogProvider>
      </Chat>
    </SectChannelsProvider>
  );
}
