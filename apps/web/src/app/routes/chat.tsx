import { lazy, Suspense, useEffect } from 'react';
import {
  ChatConnectingFrame,
  EarlyMessages,
  retireEarlyMessages,
  useChatConnection,
} from '@/features/chat';
import { withCatalogueParts } from '@/i18n';
import { deferUntilScreenContent } from '@/lib/idle';
import { importWhenOnline, optionalPart } from '@/lib/lazy-component';

// stream-chat-react and its styles load only when a chat screen opens, so "/" does not pay for them.
// The chat screen's own messages (its part of the catalogue) come with its code.
// A page opened on the chat has the first messages as its first content: the shell's deferred parts (toaster, bell)
// wait for them (lib/idle.ts). React asks for the module on the route's first render, before the shell's content.
const loadChatScreen = importWhenOnline(
  withCatalogueParts(
    async () => ({
      default: (await import('@/features/chat/components/chat-screen')).ChatScreen,
    }),
    'chat',
  ),
);
const ChatScreen = lazy(() => {
  deferUntilScreenContent();
  return loadChatScreen();
});

// While the chat screen's code arrives, the opening channel's latest messages, read by the already connected client.
// Only a stand-in: if its own code cannot load, the connecting state stays in its place. Until it is in, the messages
// the server wrote into the page, if any (early-messages.tsx).
const FirstMessages = optionalPart(
  async () => (await import('@/features/chat/components/first-messages')).FirstMessages,
  <EarlyMessages fallback={<ChatConnectingFrame />} />,
);

export function ChatRoute() {
  // The connection (and stream-chat's code) starts now, while the chat screen's own code downloads, not after it.
  useChatConnection();
  // Leaving the chat before it showed its own messages: the early ones must not reappear on the way back.
  useEffect(() => retireEarlyMessages, []);
  return (
    <Suspense fallback={<FirstMessages />}>
      <ChatScreen />
    </Suspense>
  );
}
