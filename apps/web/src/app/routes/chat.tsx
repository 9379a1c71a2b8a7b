import { lazy, Suspense } from 'react';
import { ChatConnectingFrame } from '@/features/chat';
import { withCatalogueParts } from '@/i18n';

// stream-chat-react and its styles load only when a chat screen opens, so "/" does not pay for them.
// The chat screen's own messages (its part of the catalogue) come with its code.
const ChatScreen = lazy(
  withCatalogueParts(
    async () => ({
      default: (await import('@/features/chat/components/chat-screen')).ChatScreen,
    }),
    'chat',
  ),
);

export function ChatRoute() {
  return (
    <Suspense fallback={<ChatConnectingFrame />}>
      <ChatScreen />
    </Suspense>
  );
}
