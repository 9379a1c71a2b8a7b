import type { StreamChat } from 'stream-chat';
import { realmOf } from '@daohuu/domain';
import { describe, expect, it } from 'vitest';
import {
  DEMO_CHANNEL_CONVERSATIONS,
  DEMO_DIRECT_CONVERSATION,
} from '../src/seed/chat-demo-conversation.ts';
import type { DemoMessage } from '../src/seed/chat-demo-conversation.ts';
import { DEMO_ADMIN, DEMO_USERS } from '../src/seed/demo-accounts.ts';
import { chatAdmin, listeningApp, storedChatCredentials } from './chat-harness.ts';
import { tempDir, testConfig } from './harness.ts';
import type { Config } from '../src/config.ts';

function allMessages(messages: DemoMessage[]): DemoMessage[] {
  return messages.flatMap((message) => [message, ...allMessages(message.replies ?? [])]);
}

/** Every message id in each seeded channel, read back through the server-side client. */
async function seededIds(config: Config, chatURL: string): Promise<Record<string, string[]>> {
  const { apiKey, apiSecret } = storedChatCredentials(config.dataDir);
  const server: StreamChat = chatAdmin(apiKey, apiSecret, chatURL);
  const result: Record<string, string[]> = {};
  for (const { channel } of DEMO_CHANNEL_CONVERSATIONS) {
    const state = await server
      .channel(channel.type, channel.id)
      .query({ messages: { limit: 100 } });
    const ids = state.messages.map((message) => message.id);
    for (const message of state.messages) {
      if (!message.reply_count) continue;
      const { messages: replies } = await server
        .channel(channel.type, channel.id)
        .getReplies(message.id, { limit: 100 });
      ids.push(...replies.map((reply) => reply.id));
    }
    result[channel.id] = ids.sort();
  }
  return result;
}

describe('demo conversation data', () => {
  it('has 10 to 20 messages per public channel, written by demo accounts', () => {
    const emails = new Set([DEMO_ADMIN, ...DEMO_USERS].map((account) => account.email));
    for (const { channel, messages } of DEMO_CHANNEL_CONVERSATIONS) {
      const all = allMessages(messages);
      expect(all.length, channel.id).toBeGreaterThanOrEqual(10);
      expect(all.length, channel.id).toBeLessThanOrEqual(20);
      for (const message of all) {
        expect(emails.has(message.author), message.id).toBe(true);
        for (const reaction of message.reactions ?? []) expect(emails.has(reaction.by)).toBe(true);
      }
    }
  });

  it('has unique message ids, one pinned message (in Luận Đạo) and threads', () => {
    const all = [
      ...DEMO_CHANNEL_CONVERSATIONS.flatMap(({ messages }) => allMessages(messages)),
      ...allMessages(DEMO_DIRECT_CONVERSATION.messages),
    ];
    expect(new Set(all.map((message) => message.id)).size).toBe(all.length);
    expect(all.filter((message) => message.pinned).map((message) => message.id)).toEqual([
      'demo-luan-dao-01',
    ]);
    expect(all.filter((message) => message.replies?.length).length).toBeGreaterThanOrEqual(2);
  });

  it('says what its authors own of their tu vi as the realm table counts it: "thêm N nữa là lên" the next realm', () => {
    const claims = DEMO_CHANNEL_CONVERSATIONS.flatMap(({ messages }) => allMessages(messages))
      .map((message) => ({
        message,
        claim: /được (\d+) tu vi rồi, thêm (\d+) nữa/.exec(message.text),
      }))
      .filter(({ claim }) => claim !== null);
    expect(claims.length).toBeGreaterThan(0);
    for (const { message, claim } of claims) {
      const [, own, more] = claim!.map(Number);
      const author = [DEMO_ADMIN, ...DEMO_USERS].find(
        (account) => account.email === message.author,
      );
      expect(author?.tuVi, message.id).toBe(own);
      const realm = realmOf(own);
      if (!realm.valid || !realm.next) throw new Error(`${message.id}: no next realm`);
      expect(own! + more!, message.id).toBe(realm.next.lower + 1);
    }
  });
});

describe('chat demo seed', () => {
  it('seeds every demo message once, and a restart seeds nothing again', async () => {
    const config = testConfig({ SEED_DEMO: 'true' }, tempDir());
    const first = await listeningApp({}, config);
    const expected = Object.fromEntries(
      DEMO_CHANNEL_CONVERSATIONS.map(({ channel, messages }) => [
        channel.id,
        allMessages(messages)
          .map((message) => message.id)
          .sort(),
      ]),
    );
    expect(await seededIds(config, first.chatURL)).toEqual(expected);
    await first.close();

    const second = await listeningApp({}, config);
    try {
      expect(await seededIds(config, second.chatURL)).toEqual(expected);
    } finally {
      await second.close();
    }
  });

  it('resumes an interrupted seed without duplicating messages or reactions', async () => {
    const config = testConfig({ SEED_DEMO: 'true' }, tempDir());
    const first = await listeningApp({}, config);
    const before = await seededIds(config, first.chatURL);
    await first.close();

    // Without its marker the seed runs again over the same chat database, as after a crash half-way.
    const { default: Database } = await import('better-sqlite3');
    const sqlite = new Database(`${config.dataDir}/daohuu.db`);
    sqlite.prepare("delete from app_meta where key like 'chat_demo_seeded:%'").run();
    sqlite.close();

    const second = await listeningApp({}, config);
    try {
      expect(await seededIds(config, second.chatURL)).toEqual(before);
      const { apiKey, apiSecret } = storedChatCredentials(config.dataDir);
      const server = chatAdmin(apiKey, apiSecret, second.chatURL);
      const { message } = await server.getMessage('demo-luan-dao-01');
      expect(message.reaction_groups?.like?.count).toBe(3);
      expect(message.reaction_groups?.love?.count).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('seeds nothing in chat when SEED_DEMO=false', async () => {
    const { app, config, chatURL, close } = await listeningApp({ SEED_DEMO: 'false' });
    try {
      const { apiKey, apiSecret } = storedChatCredentials(config.dataDir);
      const server = chatAdmin(apiKey, apiSecret, chatURL);
      expect((await server.queryUsers({ id: { $exists: true } })).users).toEqual([]);
      expect(app.chat.mode).toBe('embedded');
    } finally {
      await close();
    }
  });
});
