import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatServerConfigInput } from '../src/config.ts';
import { createDb } from '../src/db/create-db.ts';
import { up } from '../src/db/migrations/0013-sect-channels.ts';
import { parseConfig } from '../src/config.ts';
import { ownDatabase } from './support/own-database.ts';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';
import {
  connectUser,
  contractEnvOn,
  sendText,
  uniqueId,
  type ContractEnv,
} from './contract/helpers.ts';

/**
 * Migration 0013 moves the product's public rooms from `livestream:<id>` to `sect:<id>`. The old data is made by the
 * real client on a running server (a livestream room named like a sect room), the migration's `up` is run on the
 * stopped server's database, and the restarted server must serve all of it under the new cid.
 */
describe('migration 0013: the sect rooms move to the sect type', { timeout: 40_000 }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  let server: TestChatServer;
  let env: ContractEnv;
  let dbConfig: ChatServerConfigInput['db'];

  beforeAll(async () => {
    dbConfig = await ownDatabase('chat-sect-migration-', cleanups);
    server = await startTestChatServer({ config: { db: dbConfig } as never });
    env = contractEnvOn(server);
  }, 30_000);

  afterAll(async () => {
    await Promise.allSettled([...env.clients].map((client) => client.disconnectUser(500)));
    await server.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }, 30_000);

  it('keeps messages, replies, reactions, members, mutes and bans of giao-dich under sect:giao-dich', async () => {
    const [aliceId, bobId, carolId] = [uniqueId('a'), uniqueId('b'), uniqueId('c')];
    await env.admin.upsertUsers([{ id: aliceId }, { id: bobId }, { id: carolId }]);
    await env.admin.channel('livestream', 'giao-dich', { created_by_id: aliceId }).create();
    await env.admin.channel('livestream', 'giao-dich').addMembers([aliceId, bobId, carolId]);
    const alice = await connectUser(env, aliceId);
    const bob = await connectUser(env, bobId);
    const aliceChannel = alice.channel('livestream', 'giao-dich');
    await aliceChannel.watch();
    const bobChannel = bob.channel('livestream', 'giao-dich');
    await bobChannel.watch();
    const first = await sendText(aliceChannel, 'Bán đan dược');
    await sendText(bobChannel, 'Giá bao nhiêu?', { parent_id: first.id });
    await bobChannel.sendReaction(first.id, { type: 'like' });
    await bobChannel.mute();
    await env.admin.channel('livestream', 'giao-dich').banUser(carolId, { banned_by_id: aliceId });
    await alice.disconnectUser();
    await bob.disconnectUser();
    // The server ran 0013 at start already (nothing to move then); run it on the data made since, then restart so
    // nothing the server holds in memory hides what is in the database.
    const handle = createDb(parseConfig({ apps: [{ key: 'k', secret: 's' }], db: dbConfig }).db);
    try {
      await up(handle.db as never);
    } finally {
      await handle.close();
    }
    await server.restart();

    const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    const old = await admin.queryChannels({ cid: 'livestream:giao-dich' });
    expect(old).toEqual([]);
    const bobAgain = await connectUser(env, bobId);
    const moved = bobAgain.channel('sect', 'giao-dich');
    const state = await moved.watch();
    expect(state.channel.type).toBe('sect');
    expect(state.messages.map((message) => message.text)).toEqual(['Bán đan dược']);
    expect(state.messages[0]?.reply_count).toBe(1);
    expect(state.messages[0]?.reaction_groups?.like?.count).toBe(1);
    expect(state.members.map((member) => member.user_id).sort()).toEqual(
      [aliceId, bobId, carolId].sort(),
    );
    expect(state.membership?.user_id).toBe(bobId);
    expect(moved.muteStatus().muted).toBe(true);
    const replies = await moved.getReplies(first.id, { limit: 10 });
    expect(replies.messages.map((message) => message.text)).toEqual(['Giá bao nhiêu?']);
    const banned = await admin.queryBannedUsers({ channel_cid: 'sect:giao-dich' });
    expect(banned.bans?.map((ban) => ban.user.id)).toEqual([carolId]);
  });
});
