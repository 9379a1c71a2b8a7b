import { parseCid } from '@daohuu/domain';
import type { Channel, MessageResponse, StreamChat } from 'stream-chat';
import { chatChannelHref } from '../utils/chat-paths';

/** The search parameter naming the message a search result opens (`/chat/:type/:id?ket-qua=<id>`). */
export const RESULT_SEARCH_PARAM = 'ket-qua';

/** With it, the parent whose thread holds that message (`&chuoi=<parent id>`). */
export const THREAD_SEARCH_PARAM = 'chuoi';

/** Whether a message lives only in its thread (a reply not also shown in the channel). */
export function isThreadOnlyReply(message: Pick<MessageResponse, 'parent_id' | 'show_in_channel'>) {
  return Boolean(message.parent_id) && !message.show_in_channel;
}

/**
 * Where a message result leads: its channel, scrolled to the message and highlighted. A reply that lives only in
 * its thread cannot be scrolled to, so its parent is, and its thread opens.
 */
export function messageResultHref(message: MessageResponse): string | null {
  const channel = message.cid ? parseCid(message.cid) : null;
  if (!channel) return null;
  const params = new URLSearchParams({ [RESULT_SEARCH_PARAM]: message.id });
  if (isThreadOnlyReply(message) && message.parent_id) {
    params.set(THREAD_SEARCH_PARAM, message.parent_id);
  }
  return `${chatChannelHref(channel.type, channel.id)}?${params.toString()}`;
}

/** A channel's name as the channel list shows it: its own name, else the other members' names. */
export function channelTitle(channel: Channel | undefined, myId: string | undefined): string {
  if (!channel) return '';
  const name = channel.data?.name;
  if (typeof name === 'string' && name.trim()) return name;
  const others = Object.values(channel.state.members)
    .map((member) => member.user)
    .filter((user) => user && user.id !== myId)
    .map((user) => user?.name || user?.id || '');
  return others.filter(Boolean).join(', ') || channel.id || '';
}

/** The name of the channel a message result belongs to, once the search has loaded that channel. */
export function messageChannelTitle(client: StreamChat, message: MessageResponse): string {
  return message.cid ? channelTitle(client.activeChannels[message.cid], client.userID) : '';
}
