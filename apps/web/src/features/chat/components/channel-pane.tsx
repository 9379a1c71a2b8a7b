import { CircleAlertIcon, LogInIcon } from 'lucide-react';
import * as React from 'react';
import { Link } from 'react-router';
import {
  Channel,
  MessageComposer,
  MessageList,
  Thread,
  Window,
  WithComponents,
  ChannelActionProvider,
  useChannelActionContext,
  useChannelStateContext,
  type LoadingErrorIndicatorProps,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { useScreenContentShown } from '@/lib/idle';
import { lazyComponent } from '@/lib/lazy-component';
import { useLoginDialog } from '@/lib/login-dialog';
import { UploadInProgressWarning } from '../attachments/upload-in-progress-warning';
import { ChannelDraftSync } from '../drafts/channel-draft-sync';
import { dropRepeatedDaySeparator } from '../messages/day-separators';
import { sendThroughOutbox } from '../outbox/outbox-send';
import { JumpToLinkedMessage } from '../reminders/jump-to-linked-message';
import { useMentionClick } from '../people/mention-click';
import { useT } from '@/i18n';
import { JumpToSearchResult } from '../search/jump-to-search-result';
import { CHAT_PATH } from '../utils/chat-paths';
import { ChatChannelHeader } from './chat-channel-header';
import { NoChannelSelected } from './chat-screen-states';
import { ChatPanelState } from './chat-states';
import { PinnedMessagesPanel } from './pinned-messages-panel';
import { ReadOnArrival } from './read-on-arrival';
import { ThreadHistory } from './thread-history';

// The members panel (Radix's sheet) opens from the header: its code is not part of the chat's first load.
const MembersPanel = lazyComponent(
  async () => (await import('../people/members-panel')).MembersPanel,
);

function ChannelError({ error, isGuest }: LoadingErrorIndicatorProps & { isGuest: boolean }) {
  const { openLogin } = useLoginDialog();
  const t = useT();
  useScreenContentShown();
  if (!error) return null;
  return (
    <ChatPanelState
      icon={CircleAlertIcon}
      tone="warning"
      title={t('chat.channel.openFailedTitle')}
      description={isGuest ? t('chat.channel.notPublic') : t('chat.channel.notFound')}
    >
      {isGuest ? (
        <Button variant="gold" onClick={() => openLogin()}>
          <LogInIcon aria-hidden="true" />
          {t('common.signIn')}
        </Button>
      ) : null}
      <Button variant="outline" asChild>
        <Link to={CHAT_PATH}>{t('chat.list.backToList')}</Link>
      </Button>
    </ChatPanelState>
  );
}

/** How long a message stays highlighted after a jump to it (a pin, a quote); the SDK's 0.5 s is easy to miss. */
export const JUMP_HIGHLIGHT_MS = 2500;

/** The channel's actions, with every jump to a message highlighting it for JUMP_HIGHLIGHT_MS unless told otherwise. */
function LongerJumpHighlight({ children }: { children: React.ReactNode }) {
  const actions = useChannelActionContext();
  const value = React.useMemo(
    () => ({
      ...actions,
      jumpToMessage: (id: string, limit?: number, highlightMs: number = JUMP_HIGHLIGHT_MS) =>
        actions.jumpToMessage(id, limit, highlightMs),
    }),
    [actions],
  );
  return <ChannelActionProvider value={value}>{children}</ChannelActionProvider>;
}

/**
 * Everything inside one open channel. It lives under stream-chat-react's Channel, which remounts it for every
 * channel, so the pinned panel starts closed in each.
 */
function ChannelBody() {
  const { thread } = useChannelStateContext();
  // Channel renders this once the channel's messages are loaded: the list below shows them in the same commit.
  useScreenContentShown();
  const { closeThread } = useChannelActionContext();
  const [panel, setPanel] = React.useState<'pins' | 'members' | null>(null);
  // One side panel at a time: opening a thread hides the pins or members, opening either closes the thread.
  const shown = thread ? null : panel;
  function toggle(which: 'pins' | 'members') {
    if (shown === which) {
      setPanel(null);
      return;
    }
    if (thread) closeThread();
    setPanel(which);
  }
  return (
    <>
      <Window>
        <ChatChannelHeader
          pinnedOpen={shown === 'pins'}
          onTogglePinned={() => toggle('pins')}
          membersOpen={shown === 'members'}
          onToggleMembers={() => toggle('members')}
        />
        <MessageList reviewProcessedMessage={dropRepeatedDaySeparator} />
        <MessageComposer />
        <ChannelDraftSync />
        <JumpToLinkedMessage />
        <JumpToSearchResult />
        <UploadInProgressWarning />
        <ReadOnArrival />
        <ThreadHistory />
      </Window>
      <Thread />
      {shown === 'pins' ? <PinnedMessagesPanel onClose={() => setPanel(null)} /> : null}
      {shown === 'members' ? <MembersPanel onClose={() => setPanel(null)} /> : null}
    </>
  );
}

/** The open channel (or a hint to pick one), with its thread and pinned-messages panels. */
export function ChannelPane({
  isGuest,
  missing,
  hasTarget,
}: {
  isGuest: boolean;
  missing: boolean;
  /** The address names a channel: the placeholder shows only until it opens. */
  hasTarget: boolean;
}) {
  const overrides = React.useMemo(
    () => ({
      LoadingErrorIndicator: (props: LoadingErrorIndicatorProps) => (
        <ChannelError {...props} isGuest={isGuest} />
      ),
    }),
    [isGuest],
  );
  const onMentionsClick = useMentionClick();
  if (missing) {
    return (
      <div className="dh-chat__channel">
        <ChannelError error={new Error('channel does not exist')} isGuest={isGuest} />
      </div>
    );
  }
  return (
    <div className="dh-chat__channel">
      <WithComponents overrides={overrides}>
        <Channel
          EmptyPlaceholder={<NoChannelSelected final={!hasTarget} />}
          onMentionsClick={onMentionsClick}
          doSendMessageRequest={sendThroughOutbox}
        >
          <LongerJumpHighlight>
            <ChannelBody />
          </LongerJumpHighlight>
        </Channel>
      </WithComponents>
    </div>
  );
}
