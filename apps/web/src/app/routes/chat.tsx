import { lazy, Suspense } from 'react';
import { ChatConnectingFrame } from '@/features/chat';

// stream-chat-react and its styles load only when a chat screen opens, so "/" does not pay for them.
const ChatScreen = lazy(() =>
  import('@/features/chat/components/chat-screen').then((module) => ({
    default: module.ChatScreen,
  })),
);

export function ChatRoute() {
  return (
    <Suspense fallback={<ChatConnectingFrame />}>
      <ChatScreen />
    </Suspense>
  );
}
