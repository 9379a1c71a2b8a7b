import '../theme/chat-frame.css';
import { movedSectChannel, type ChatClientConfig } from '@daohuu/domain';
import * as React from 'react';
import { useParams } from 'react-router';
import type { Channel, LocalMessage, StreamChat } from 'stream-chat';
import { DESKTOP_QUERY, useMediaQuery } from '@/hooks/use-media-query';
import { UserAvatar } from '@/components/user-avatar';
import { formatDate, useShownLanguage, useT } from '@/i18n';
import { useChatSession } from '../session/chat-session';
import { channelFromParams, type ChannelTarget } from '../utils/chat-paths';
import { ChatConnecting } from './chat-states';
import { EarlyMessages, retireEarlyMessages } from './early-messages';
import { defaultChannel } from './last-channel';

/*
 * The opening channel's latest messages, drawn while the chat screen's own code (stream-chat-react with its
 * composer, about 440 KB gzip) is still arriving. stream-chat's client is much smaller and arrives first, so the
 * chat is connected and the channel read long before the full screen can draw it: this shows that read, plain and
 * read-only, and the chat screen replaces it as soon as it renders. The read is the one the chat screen would make
 * itself (a watching query that never creates a channel), so the screen finds the channel ready and does not ask
 * again. Docs: docs/decisions/0008-web-code-splitting.md, point 14.
 */

/** More than a tall window shows: the list is drawn from the bottom like the chat's own. */
const SHOWN_MESSAGES = 30;

/**
 * The channel the chat screen will open, as it decides it: the address's channel (an old sect link's new home), or on a
 * wide screen the cultivator's last channel, else the first public sect channel. Null on a phone's list (/chat).
 */
export function openingChannel(
  params: { type?: string; id?: string },
  isDesktop: boolean,
  config: Pick<ChatClientConfig, 'publicChannels'>,
  userId: string | undefined,
): ChannelTarget | null {
  const target = channelFromParams(params);
  if (target) {
    const sect = movedSectChannel(target, config.publicChannels);
    return sect ? channelFromParams(sect) : target;
  }
  if (!isDesktop) return null;
  const { kept, fallback } = defaultChannel(userId, config.publicChannels);
  return kept ?? fallback;
}

/**
 * Reads (and watches) `cid` as the chat screen would, or null when this viewer cannot read it. A query by cid never
 * creates a channel, unlike `channel.watch()`, so a mistyped link stays a missing channel.
 */
export async function readOpeningChannel(client: StreamChat, cid: string): Promise<Channel | null> {
  const [channel] = await client.queryChannels(
    { cid },
    {},
    { limit: 1, state: true, watch: true, presence: true },
  );
  return channel ?? null;
}

/** What the preview lists: the channel's own messages, newest last, without deleted or system ones. */
export function previewMessages(channel: Channel): LocalMessage[] {
  return channel.state.messages
    .filter((message) => message.type === 'regular' || message.type === 'reply')
    .filter((message) => message.text || message.attachments?.length)
    .slice(-SHOWN_MESSAGES);
}

function PreviewMessage({ message }: { message: LocalMessage }) {
  const t = useT();
  const language = useShownLanguage();
  const author = message.user?.name || message.user?.id || '';
  const time = message.created_at
    ? formatDate(message.created_at, language, { hour: '2-digit', minute: '2-digit' })
    : '';
  return (
    <li data-message-id={message.id} className="flex items-end gap-3 px-4 py-2">
      <UserAvatar name={author} className="size-8 rounded-full" />
      <div className="flex min-w-0 flex-col items-start gap-1">
        <span className="text-xs font-semibold text-muted-foreground">{author}</span>
        <p className="max-w-xl rounded-2xl bg-muted px-3 py-2 text-[0.95rem] break-words whitespace-pre-wrap">
          {message.text || (
            <span className="text-muted-foreground italic">{t('chat.states.attachmentOnly')}</span>
          )}
        </p>
        <time
          className="text-xs text-muted-foreground"
          dateTime={message.created_at?.toISOString()}
        >
          {time}
        </time>
      </div>
    </li>
  );
}

/** Where the channel list will be, on a wide screen: its shape only, so the page does not jump when it arrives. */
function ListPlaceholder() {
  return (
    <div
      aria-hidden="true"
      className="hidden w-72 shrink-0 flex-col gap-3 border-e p-4 desktop:flex"
    >
      <div className="h-8 w-32 rounded-md bg-muted" />
      {[0, 1, 2].map((row) => (
        <div key={row} className="flex items-center gap-3 py-2">
          <div className="size-12 rounded-full bg-muted" />
          <div className="flex flex-1 flex-col gap-2">
            <div className="h-3 w-2/3 rounded bg-muted" />
            <div className="h-3 w-full rounded bg-muted" />
          </div>
        </div>
      ))}
    </div>
  );
}

function ChannelPreview({ channel, messages }: { channel: Channel; messages: LocalMessage[] }) {
  const t = useT();
  const name = (channel.data?.name as string | undefined) ?? channel.id ?? '';
  return (
    <section
      className="dh-chat-frame flex min-w-0"
      data-first-messages=""
      aria-busy="true"
      aria-label={name}
    >
      <ListPlaceholder />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 shrink-0 items-center gap-3 border-b px-4">
          <UserAvatar name={name} className="size-10 rounded-full" />
          <span className="font-display text-lg font-semibold">{name}</span>
        </header>
        <ol className="flex min-h-0 flex-1 flex-col justify-end overflow-hidden py-2">
          {messages.map((message) => (
            <PreviewMessage key={message.id} message={message} />
          ))}
        </ol>
        <p
          role="status"
          className="m-3 rounded-full border px-4 py-2.5 text-sm text-muted-foreground"
        >
          {t('chat.states.openingChannel')}
        </p>
      </div>
    </section>
  );
}

/**
 * The chat route's stand-in while the chat screen's code loads: the opening channel's latest messages once the
 * connection has read them, the connecting state before that (or when there is nothing to show).
 */
export function FirstMessages() {
  const session = useChatSession();
  const params = useParams();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const { client, config, status } = session;
  const userId = client && !client.anonymous ? client.userID : undefined;
  const known = Boolean(config) && status === 'ready';
  const target = config && known ? openingChannel(params, isDesktop, config, userId) : null;
  const cid = target?.cid ?? null;
  const [shown, setShown] = React.useState<Channel | null>(null);

  React.useEffect(() => {
    if (!client || !cid) return;
    let cancelled = false;
    readOpeningChannel(client, cid).then(
      (channel) => {
        if (!cancelled) setShown(channel);
      },
      // The chat screen asks again and explains what went wrong; until then this keeps the connecting state.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [client, cid]);

  const channel = shown && shown.cid === cid ? shown : null;
  const messages = channel ? previewMessages(channel) : [];
  const ownMessages = messages.length > 0;
  React.useEffect(() => {
    if (ownMessages) retireEarlyMessages();
  }, [ownMessages]);
  if (!channel || !ownMessages) {
    return (
      <EarlyMessages
        cid={known ? cid : undefined}
        fallback={
          <section className="dh-chat-frame flex items-center justify-center">
            <ChatConnecting />
          </section>
        }
      />
    );
  }
  return <ChannelPreview channel={channel} messages={messages} />;
}
