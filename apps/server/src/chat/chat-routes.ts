import type { ChatClientConfig, ChatToken } from '@daohuu/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Auth } from '../auth/create-auth.ts';
import { requireSessionUserId } from '../auth/session.ts';
import type { ChatApi } from './chat-api.ts';
import type { ChatUserSync } from './chat-users.ts';
import { CHAT_PREFIX } from './embedded-chat.ts';
import { PUBLIC_CHANNELS } from './public-channels.ts';

export interface ChatRoutesOptions {
  auth: Auth;
  api: ChatApi;
  users: ChatUserSync;
  mode: 'embedded' | 'hosted';
  /** Hosted mode: STREAM_BASE_URL, or null for the client's default. Unused in embedded mode. */
  hostedBaseURL: string | null;
  tokenTtlSeconds: number;
  publicUrl: string;
}

/**
 * The embedded chat server as the browser reaches it: the same scheme and Host the page was loaded from, so the app
 * works whether it is opened at localhost, 127.0.0.1 or a LAN address.
 */
function embeddedBaseURL(request: FastifyRequest, publicUrl: string): string {
  const origin = request.host ? `${request.protocol}://${request.host}` : publicUrl;
  return `${origin}${CHAT_PREFIX}`;
}

export async function chatRoutes(
  app: FastifyInstance,
  { auth, api, users, mode, hostedBaseURL, tokenTtlSeconds, publicUrl }: ChatRoutesOptions,
): Promise<void> {
  const publicChannels = PUBLIC_CHANNELS.map(({ type, id, name }) => ({ type, id, name }));

  app.get('/api/chat/config', async (request): Promise<ChatClientConfig> => ({
    mode,
    apiKey: api.apiKey,
    baseURL: mode === 'embedded' ? embeddedBaseURL(request, publicUrl) : hostedBaseURL,
    publicChannels,
  }));

  app.get('/api/chat/token', async (request, reply): Promise<ChatToken> => {
    const userId = await requireSessionUserId(auth, request, reply);
    // Awaited so the chat user (name, role, tu_vi) exists before the client connects; a failure is logged inside
    // and retried on the next request, and the token is handed out regardless.
    await users.ensure(userId);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const token = api.createToken(userId, nowSeconds, tokenTtlSeconds);
    reply.header('cache-control', 'no-store');
    return {
      token,
      userId,
      expiresAt: new Date((nowSeconds + tokenTtlSeconds) * 1000).toISOString(),
    };
  });
}
