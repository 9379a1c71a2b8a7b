import { expect } from 'vitest';
import type {
  MessageFlagsFilters,
  MessageResponse,
  ReviewQueueItem,
  StreamChat,
} from 'stream-chat';
import {
  channelWithMembers,
  connectUser,
  createUsers,
  nth,
  sendText,
  uniqueId,
  type ContractEnv,
} from './helpers.ts';

/** A moderator (global role, set server-side as on Stream) connected over a real socket. */
export async function connectModerator(
  env: ContractEnv,
  role: 'moderator' | 'admin' = 'moderator',
) {
  const id = uniqueId(role === 'admin' ? 'chuong-mon' : 'ho-phap');
  await createUsers(env, [{ id, name: id, role }]);
  return { id, client: await connectUser(env, id) };
}

/** A channel with a reporter and an author, and one message by the author. */
export async function flaggedScene(env: ContractEnv) {
  const { cid, members } = await channelWithMembers(env, 'ban-duyet', {
    users: ['nguoi-bao', 'tac-gia'],
  });
  const [reporter, author] = [nth(members, 0), nth(members, 1)];
  const message = await sendText(author.channel, 'Lời lẽ thô tục');
  return { cid, reporter, author, message };
}

/** A queue item with the fields our server adds beside the client's typed ones. */
export type Item = ReviewQueueItem & {
  actions: { type: string; user_id: string; reason: string }[];
  reasons: string[];
  flags_count: number;
  message?: MessageResponse;
};

export async function itemOf(moderator: StreamChat, entityId: string): Promise<Item> {
  const { items } = await moderator.moderation.queryReviewQueue({ entity_id: entityId });
  expect(items).toHaveLength(1);
  return nth(items, 0) as Item;
}

/** The client types no `is_reviewed` filter, though Stream documents it and the client sends it as given. */
export function flagsFilter(filter: Record<string, unknown>): MessageFlagsFilters {
  return filter as MessageFlagsFilters;
}
