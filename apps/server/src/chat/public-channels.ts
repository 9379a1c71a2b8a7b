import type { PublicChannel as PublicChannelRef } from '@daohuu/domain';
import type { StreamChat } from 'stream-chat';

/** A public channel as the product creates it: what `GET /api/chat/config` lists, plus its description. */
export interface PublicChannel extends PublicChannelRef {
  description: string;
}

/**
 * The sect's public channels, of the chat server's built-in `sect` type: anyone (guests included) watches and reads,
 * members write and have read state, unread counts and typing, so every signed-in user is made a member of each
 * (chat-users.ts). No image: the UI shows their initials.
 */
export const PUBLIC_CHANNELS: readonly PublicChannel[] = [
  {
    type: 'sect',
    id: 'quang-truong',
    name: 'Quảng Trường',
    description:
      'Nơi đạo hữu bốn phương gặp gỡ, chào hỏi và hàn huyên đủ chuyện trên con đường tu tiên.',
  },
  {
    type: 'sect',
    id: 'luan-dao',
    name: 'Luận Đạo',
    description:
      'Đàm luận công pháp, cảnh giới và tâm đắc tu luyện. Lời lẽ ôn hòa, lấy đạo hữu làm trọng.',
  },
  {
    type: 'sect',
    id: 'giao-dich',
    name: 'Giao Dịch',
    description:
      'Trao đổi, mua bán đan dược, pháp bảo và linh thạch giữa các đạo hữu. Giao dịch công bằng, chữ tín làm đầu.',
  },
];

/**
 * Creates the public channels that do not exist yet (get-or-create: existing ones are left as they are).
 * `creatorId` must be an existing chat user: a server-side create names one, as in Stream.
 */
export async function ensurePublicChannels(client: StreamChat, creatorId: string): Promise<void> {
  for (const { type, id, name, description } of PUBLIC_CHANNELS) {
    await client.channel(type, id, { name, description, created_by_id: creatorId }).create();
  }
}

/**
 * Makes `userId` a member of every public channel, so they can write there and have read state and unread counts
 * (adding a member twice is a no-op). Quietly: no system message, and the history stays visible to them.
 */
export async function joinPublicChannels(client: StreamChat, userId: string): Promise<void> {
  for (const { type, id } of PUBLIC_CHANNELS) {
    await client.channel(type, id).addMembers([userId], undefined, { hide_history: false });
  }
}
