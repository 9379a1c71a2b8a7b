import type { ChatClientConfig } from '@daohuu/domain';
import { StreamChat } from 'stream-chat';
import { getChatToken } from '../api/chat-api';
import { configureLinkPreviews } from '../attachments/configure-link-previews';
import { configureDrafts } from '../drafts/configure-drafts';
import { configureEmojiShortcodes } from '../emoji/configure-emoji-shortcodes';
import { configureMentions } from '../mentions/configure-mentions';

/** Who the chat connects as: the signed-in cultivator, or an anonymous read-only guest. */
export type ChatIdentity = { kind: 'user'; userId: string } | { kind: 'guest' };

/** The client's base URL: absolute (stream-chat derives the websocket URL from it), no trailing slash. */
export function resolveBaseURL(baseURL: string | null, origin: string): string | undefined {
  if (baseURL === null) return undefined;
  return new URL(baseURL, origin).toString().replace(/\/+$/, '');
}

/**
 * A new client for one identity. A fresh instance per identity (never StreamChat.getInstance) means a sign-out or a
 * switch of account cannot leak the previous user's channels, composer drafts or token into the next session.
 */
export function createChatClient(config: ChatClientConfig): StreamChat {
  const baseURL = resolveBaseURL(config.baseURL, window.location.origin);
  // When the browser is online but the websocket cannot get through (a proxy or firewall that refuses upgrades),
  // the client switches to long-polling /longpoll instead of staying disconnected.
  const client = new StreamChat(config.apiKey, {
    ...(baseURL ? { baseURL } : {}),
    enableWSFallback: true,
  });
  // Every composer (channel, thread, edit) of this client starts from the app's configuration.
  client.setMessageComposerSetupFunction(({ composer }) => {
    configureDrafts(composer);
    configureLinkPreviews(composer);
    configureMentions(composer, config.publicChannels);
    configureEmojiShortcodes(composer);
  });
  return client;
}

/**
 * Connects `client`. A signed-in cultivator connects with a token provider, so when a token expires (code 40) the
 * client fetches a new one from /api/chat/token and retries the request without the user noticing.
 */
export async function connectChatClient(client: StreamChat, identity: ChatIdentity): Promise<void> {
  if (identity.kind === 'guest') {
    await client.connectAnonymousUser();
    return;
  }
  // The first token also tells us the chat user id; it is handed to the provider's first call, so connecting costs
  // one token request, and every later call (expiry, reconnect) asks the server again.
  const first = await getChatToken();
  let unused: string | null = first.token;
  await client.connectUser({ id: first.userId }, async () => {
    if (unused !== null) {
      const token = unused;
      unused = null;
      return token;
    }
    return (await getChatToken()).token;
  });
}
