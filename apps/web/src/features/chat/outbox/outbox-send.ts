import type { Channel, Message, SendMessageOptions, StreamChat } from 'stream-chat';
import type { SendErrorLike } from '../messages/send-failure';
import { outbox as defaultOutbox, type Outbox, type OutboxEntry } from './outbox-store';

type SendResult = Awaited<ReturnType<Channel['sendMessage']>>;

function statusOf(error: SendErrorLike): number {
  return error.status ?? error.response?.status ?? 0;
}

/** Stream's numeric error code; axios's own string codes ("ERR_NETWORK") mean no server answered. */
function codeOf(error: SendErrorLike): number | null {
  const data = (error.response?.data ?? {}) as { code?: unknown };
  if (typeof data.code === 'number') return data.code;
  return typeof error.code === 'number' ? error.code : null;
}

/**
 * Whether the send failed because nobody answered (no connection: status 0) or the server or a proxy in front of it
 * was down (502–504): worth sending again by itself. A refusal (4xx with a code) is not, the bubble says why.
 */
export function isConnectionFailure(error: unknown): boolean {
  const failure = (error ?? {}) as SendErrorLike;
  const status = statusOf(failure);
  if (status === 0) return codeOf(failure) === null;
  return status === 502 || status === 503 || status === 504;
}

/**
 * stream-chat-react's `doSendMessageRequest`: the ordinary send, plus the outbox. A send that fails for want of a
 * connection is queued (and still fails, so the bubble shows "Chưa gửi được · Thử lại"); any answer from the
 * server takes it out again.
 */
export function createOutboxSend(store: Outbox = defaultOutbox) {
  return async function sendThroughOutbox(
    channel: Channel,
    message: Message,
    options?: SendMessageOptions,
  ): Promise<SendResult> {
    const userId = channel.getClient().userID;
    const id = message.id;
    try {
      const result = await channel.sendMessage(message, options);
      if (userId && id) store.remove(userId, id);
      return result;
    } catch (error) {
      if (userId && id) {
        if (isConnectionFailure(error) && channel.cid) {
          store.put(userId, { cid: channel.cid, message: { ...message, id }, options });
        } else {
          store.remove(userId, id);
        }
      }
      throw error;
    }
  };
}

export const sendThroughOutbox = createOutboxSend();

/**
 * Puts the server's copy in a channel the app holds, in place of the failed bubble of the same id (the websocket's
 * message.new does the same; this covers a socket that missed it).
 */
function showDelivered(client: StreamChat, entry: OutboxEntry, result: SendResult): void {
  const channel = client.activeChannels[entry.cid];
  if (!channel?.initialized || !result.message) return;
  channel.state.addMessageSorted({ ...result.message, status: 'received' }, true);
}

/**
 * Sends every queued message of the signed-in user once, oldest first. An entry leaves the outbox when the server
 * answers (stored, already stored, or refused); it stays when the connection is still down.
 * Returns how many entries are left.
 */
export async function flushOutbox(
  client: StreamChat,
  store: Outbox = defaultOutbox,
): Promise<number> {
  const userId = client.userID;
  if (!userId) return 0;
  for (const entry of store.list(userId)) {
    const [type = '', id = ''] = entry.cid.split(':');
    try {
      const result = await client.channel(type, id).sendMessage(entry.message, entry.options);
      store.remove(userId, entry.message.id);
      showDelivered(client, entry, result);
    } catch (error) {
      if (isConnectionFailure(error)) break;
      // Stored already, or refused: either way sending it again cannot help.
      store.remove(userId, entry.message.id);
    }
  }
  return store.list(userId).length;
}
