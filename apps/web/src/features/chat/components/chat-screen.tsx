import 'stream-chat-react/dist/css/index.css';
import '../theme/chat-frame.css';
import '../theme/chat-theme.css';
import * as React from 'react';
import { useT } from '@/i18n';
import { useMe } from '@/lib/auth';
import { useChatConnection } from '../session/chat-session';
import { ChatUnavailable } from './chat-screen-states';
import { ChatConnecting } from './chat-states';
import { ChatWorkspace } from './chat-workspace';
import { EarlyMessages, retireEarlyMessages } from './early-messages';
import { useVisualViewportHeight } from './visual-viewport';

/**
 * The /chat and /chat/:type/:id screen. The router loads this module lazily, so stream-chat-react and its styles
 * are downloaded only when a chat screen opens.
 */
export function ChatScreen() {
  const me = useMe();
  const session = useChatConnection();
  const t = useT();
  const { client, config, status } = session;
  const frame = React.useRef<HTMLElement>(null);
  useVisualViewportHeight(frame);
  // Without knowing who is signed in there is no identity to connect as.
  const failed = status === 'error' || me.isError;
  const connecting = !failed && !(status === 'ready' && client && config);
  // The messages the page came with stay while the connection opens; the chat itself, or its failure, replaces them.
  React.useEffect(() => {
    if (!connecting) retireEarlyMessages();
  }, [connecting]);
  function retry() {
    if (me.isError) void me.refetch();
    else session.retry();
  }
  return (
    <section ref={frame} className="dh-chat-frame" aria-label={t('chat.list.title')}>
      {failed ? (
        <ChatUnavailable onRetry={retry} />
      ) : status === 'ready' && client && config ? (
        // A new client (sign-in, sign-out) starts a fresh chat UI rather than patching the old one.
        <ChatWorkspace key={client.userID ?? 'guest'} client={client} config={config} />
      ) : (
        <EarlyMessages framed={false} fallback={<ChatConnecting />} />
      )}
    </section>
  );
}
