import type { ChatClientConfig } from '@daohuu/domain';
import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import type { StreamChat } from 'stream-chat';
import { useMe } from '@/lib/auth';
import { whenIdle } from '@/lib/idle';
import { chatConfigQueryOptions } from '../api/chat-api';
import type { ChatIdentity } from './chat-client';
import { watchTotalUnread } from './unread-total';

export type ChatStatus = 'idle' | 'connecting' | 'ready' | 'error';

export interface ChatSessionValue {
  status: ChatStatus;
  /** The connected client, set only while `status` is 'ready'. */
  client: StreamChat | null;
  config: ChatClientConfig | null;
  identity: ChatIdentity | null;
  /** Total unread messages of the signed-in cultivator (0 for guests). */
  unreadCount: number;
  error: unknown;
  /** Declares that a chat screen is open (guests only connect then); returns the release. */
  request: () => () => void;
  /** Tries again after a failed connection. */
  retry: () => void;
}

const ChatSessionContext = React.createContext<ChatSessionValue | null>(null);

interface Connection {
  /** The identity this connection belongs to (see `identityKey`). */
  key: string;
  status: ChatStatus;
  client: StreamChat | null;
  config: ChatClientConfig | null;
  error: unknown;
}

const IDLE: Connection = { key: 'none', status: 'idle', client: null, config: null, error: null };

function identityKey(identity: ChatIdentity | null): string {
  if (!identity) return 'none';
  return identity.kind === 'user' ? `user:${identity.userId}` : 'guest';
}

/**
 * The one chat client of the app session. A signed-in cultivator is connected on any screen (the sidebar shows their
 * unread count); a guest is connected anonymously only while a chat screen asks for it. Signing in, out or as someone
 * else replaces the client without a page reload. stream-chat itself is loaded on demand, so pages that never need
 * chat do not download it.
 */
export function ChatSessionProvider({ children }: { children: React.ReactNode }) {
  const queryClient = useQueryClient();
  const { data: me } = useMe();
  const [requests, setRequests] = React.useState(0);
  const [attempt, setAttempt] = React.useState(0);
  const [connection, setConnection] = React.useState<Connection>(IDLE);
  const [unreadCount, setUnreadCount] = React.useState(0);

  const requestsRef = React.useRef(requests);
  requestsRef.current = requests;

  const meId = me?.id;
  const identity = React.useMemo<ChatIdentity | null>(() => {
    if (me === undefined) return null;
    if (meId) return { kind: 'user', userId: meId };
    return requests > 0 ? { kind: 'guest' } : null;
  }, [me, meId, requests]);
  const key = identityKey(identity);

  React.useEffect(() => {
    if (!identity) {
      setConnection(IDLE);
      return;
    }
    let cancelled = false;
    let client: StreamChat | null = null;
    setConnection({ ...IDLE, key, status: 'connecting' });
    (async () => {
      // Only the sidebar badge wants a signed-in client on a non-chat screen: it waits until the screen has painted.
      if (requestsRef.current === 0) await whenIdle();
      if (cancelled) return;
      const [config, { createChatClient, connectChatClient }] = await Promise.all([
        queryClient.fetchQuery(chatConfigQueryOptions()),
        import('./chat-client'),
      ]);
      if (cancelled) return;
      client = createChatClient(config);
      await connectChatClient(client, identity);
      if (!cancelled) setConnection({ key, status: 'ready', client, config, error: null });
    })().catch((error: unknown) => {
      if (cancelled) return;
      console.error('The chat could not connect.', error);
      setConnection({ ...IDLE, key, status: 'error', error });
    });
    return () => {
      cancelled = true;
      void client?.disconnectUser();
    };
    // `key` identifies `identity`; reconnecting on a new object with the same identity would drop the socket.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt, queryClient]);

  // Right after a sign-in or sign-out, until the effect above has run, `connection` still describes the previous
  // identity; its client is about to be disconnected and must not be handed out.
  const hasIdentity = identity !== null;
  const current = React.useMemo<Connection>(
    () =>
      connection.key === key
        ? connection
        : { ...IDLE, key, status: hasIdentity ? 'connecting' : 'idle' },
    [connection, key, hasIdentity],
  );
  const client = current.client;
  React.useEffect(() => {
    if (!client || client.anonymous) {
      setUnreadCount(0);
      return;
    }
    return watchTotalUnread(client, setUnreadCount);
  }, [client]);

  const request = React.useCallback(() => {
    setRequests((count) => count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      setRequests((count) => count - 1);
    };
  }, []);
  const retry = React.useCallback(() => setAttempt((count) => count + 1), []);

  const value = React.useMemo<ChatSessionValue>(
    () => ({
      status: current.status,
      client: current.client,
      config: current.config,
      identity,
      unreadCount: client ? unreadCount : 0,
      error: current.error,
      request,
      retry,
    }),
    [current, client, identity, unreadCount, request, retry],
  );
  return <ChatSessionContext.Provider value={value}>{children}</ChatSessionContext.Provider>;
}

export function useChatSession(): ChatSessionValue {
  const context = React.useContext(ChatSessionContext);
  if (!context) throw new Error('useChatSession must be used within a ChatSessionProvider.');
  return context;
}

/** Keeps the chat connected (anonymously for guests) while the calling screen is mounted. */
export function useChatConnection(): ChatSessionValue {
  const session = useChatSession();
  const { request } = session;
  React.useEffect(() => request(), [request]);
  return session;
}
