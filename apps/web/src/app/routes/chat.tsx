import { lazy, Suspense } from 'react';
import { ChatConnectingFrame } from '@/features/chat';
import { loadCataloguePart } from '@/i18n';

// stream-chat-react and its styles load only when a chat screen opens, so "/" does not pay for them.
// The chat screen's own messages (its part of the catalogue) come with its code.
const ChatScreen = lazy(async () => {
  const [module] = await Promise.all([
    import('@/features/chat/components/chat-screen'),
    loadCataloguePart('chat'),
  ]);
  return { default: module.ChatScreen };
});

export function ChatRoute() {
  return (
    <Suspense fallback={<ChatConnectingFrame />}>
      <ChatScreen />
    </Suspense>
  );
}
