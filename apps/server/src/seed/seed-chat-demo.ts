import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Channel, StreamChat } from 'stream-chat';
import type { ChatUserSync } from '../chat/chat-users.ts';
import type { Database } from '../db/schema.ts';
import { findUserByEmail } from '../profile/profile-repo.ts';
import { DEMO_CHANNEL_CONVERSATIONS, DEMO_DIRECT_CONVERSATION } from './chat-demo-conversation.ts';
import type { DemoMessage } from './chat-demo-conversation.ts';
import { DEMO_ADMIN, DEMO_USERS } from './demo-accounts.ts';

export interface SeedChatDemoOptions {
  client: StreamChat;
  users: ChatUserSync;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}

/** Per chat app, so pointing the product at another chat app (new key) seeds that one too. */
function markerKey(apiKey: string): string {
  return `chat_demo_seeded:${apiKey}`;
}

/** Stream answers a message id that is taken with code 4 and "already exists" (our server does the same). */
function isAlreadyExists(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as Error & { code?: unknown }).code === 4 &&
    error.message.includes('already exists')
  );
}

async function sendDemoMessage(
  channel: Channel,
  message: DemoMessage,
  userIds: ReadonlyMap<string, string>,
  parentId?: string,
): Promise<void> {
  const author = userIds.get(message.author);
  // A demo account an admin deleted takes its messages (and their threads) with it.
  if (author === undefined) return;
  try {
    await channel.sendMessage({
      id: message.id,
      text: message.text,
      user_id: author,
      ...(parentId === undefined ? {} : { parent_id: parentId }),
      ...(message.pinned ? { pinned: true } : {}),
    });
  } catch (error) {
    // A re-run after an interrupted seed: the message is there; its reactions and replies may not be.
    if (!isAlreadyExists(error)) throw error;
  }
  for (const reaction of message.reactions ?? []) {
    const by = userIds.get(reaction.by);
    if (by === undefined) continue;
    // enforce_unique makes sending it again replace the same reaction rather than add one.
    await channel.sendReaction(
      message.id,
      { type: reaction.type, user_id: by },
      { enforce_unique: true },
    );
  }
  for (const reply of message.replies ?? []) {
    await sendDemoMessage(channel, reply, userIds, message.id);
  }
}

/**
 * Seeds the demo conversation once per chat app: syncs the demo accounts to chat (the admin first, so the sect
 * master creates the public channels), writes the public channels' conversations with threads, reactions and a
 * pinned rule post, and one direct conversation. Message ids are fixed, so a seed interrupted half-way resumes
 * without duplicates; the marker row makes later starts skip it, so moderators' deletions are never undone.
 * Returns whether anything was seeded.
 */
export async function seedChatDemo({
  client,
  users,
  db,
  log,
}: SeedChatDemoOptions): Promise<boolean> {
  const key = markerKey(client.key);
  const marker = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  if (marker) return false;

  const userIds = new Map<string, string>();
  for (const account of [DEMO_ADMIN, ...DEMO_USERS]) {
    const user = await findUserByEmail(db, account.email);
    if (!user) continue;
    if (!(await users.ensure(user.id))) {
      throw new Error(`could not sync demo user ${account.email} to chat`);
    }
    userIds.set(account.email, user.id);
  }
  if (userIds.size === 0) {
    log.info('No demo accounts found; the chat demo conversation is skipped.');
    return false;
  }

  for (const conversation of DEMO_CHANNEL_CONVERSATIONS) {
    const channel = client.channel(conversation.channel.type, conversation.channel.id);
    for (const message of conversation.messages) await sendDemoMessage(channel, message, userIds);
  }

  const members = DEMO_DIRECT_CONVERSATION.members.map((email) => userIds.get(email));
  const [first, second] = members;
  if (first !== undefined && second !== undefined) {
    const direct = client.channel('messaging', { members: [first, second], created_by_id: first });
    await direct.create();
    for (const message of DEMO_DIRECT_CONVERSATION.messages) {
      await sendDemoMessage(direct, message, userIds);
    }
  }

  await db
    .insertInto('app_meta')
    .values({ key, value: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return true;
}
