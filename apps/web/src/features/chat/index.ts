// What the app shell uses from the chat feature. None of these import stream-chat or stream-chat-react at load
// time: the chat screen itself is a lazily loaded module (components/chat-screen.tsx).
export { ChatSessionProvider, useChatConnection, useChatSession } from './session/chat-session';
export { ChatUnreadBadge } from './components/chat-unread-badge';
export { formatUnreadCount } from './utils/unread-count';
export { ChatConnectingFrame } from './components/chat-states';
export { EarlyMessages, retireEarlyMessages } from './components/early-messages';
