import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat, type Event } from 'stream-chat';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';

function waitForEvent(client: StreamChat, type: string): Promise<Event> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), 5000);
    const { unsubscribe } = client.on(type, (event) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

describe('minimal slice with the real client', () => {
  let server: TestChatServer;
  let admin: StreamChat;
  beforeAll(async () => {
    server = await startTestChatServer();
    admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
  });
  afterAll(async () => {
    await server.close();
  });

  it('connects, upserts users, watches a channel and delivers message.new to another watcher', async () => {
    await admin.upsertUsers([
      { id: 'alice', name: 'Alice' },
      { id: 'bob', name: 'Bob', tu_vi: 1234 } as never,
    ]);
    const alice = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    const bob = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    const me = await alice.connectUser({ id: 'alice' }, admin.createToken('alice'));
    expect(me?.me?.mutes).toEqual([]);
    await bob.connectUser({ id: 'bob' }, admin.createToken('bob'));
    const aliceChannel = alice.channel('messaging', 'general', {
      members: ['alice', 'bob'],
      name: 'Chung',
    } as never);
    await aliceChannel.watch();
    const bobChannel = bob.channel('messaging', 'general');
    await bobChannel.watch();
    const received = waitForEvent(bob, 'message.new');
    const sent = await aliceChannel.sendMessage({ text: 'Chào đạo hữu' });
    const event = await received;
    expect(event.message?.id).toBe(sent.message.id);
    expect(event.message?.text).toBe('Chào đạo hữu');
    expect(bobChannel.state.messages.at(-1)?.text).toBe('Chào đạo hữu');
    const channels = await bob.queryChannels({ members: { $in: ['bob'] } });
    expect(channels.map((c) => c.cid)).toEqual(['messaging:general']);
    await alice.disconnectUser();
    await bob.disconnectUser();
  });
});
