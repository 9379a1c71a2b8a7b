import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat, type Event } from 'stream-chat';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';

function nextEvent(client: StreamChat, type: string): Promise<Event> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), 5000);
    const { unsubscribe } = client.on(type, (event) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

describe('uploads and mutes with the real client', () => {
  let server: TestChatServer;
  let admin: StreamChat;
  let alice: StreamChat;

  beforeAll(async () => {
    server = await startTestChatServer({
      prefix: '/chat',
      config: { uploads: { maxBytes: 1024 } },
    });
    admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    await admin.upsertUsers([{ id: 'alice' }, { id: 'bob' }, { id: 'carol' }]);
    alice = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    await alice.connectUser({ id: 'alice' }, admin.createToken('alice'));
    await alice
      .channel('messaging', 'tang-kinh-cac', { members: ['alice', 'bob'] } as never)
      .watch();
  });
  afterAll(async () => {
    await alice.disconnectUser();
    await server.close();
  });

  it('stores an image and serves it back from the absolute URL it returns', async () => {
    const channel = alice.channel('messaging', 'tang-kinh-cac');
    const bytes = new Uint8Array(
      await sharp({ create: { width: 3, height: 2, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    const { file } = await channel.sendImage(
      Readable.from([Buffer.from(bytes)]),
      'Bản đồ.png',
      'image/png',
    );
    expect(file).toMatch(new RegExp(`^${server.baseURL}/uploads/.+/Ban-do\\.png\\?oh=2&ow=3$`));
    const response = await fetch(file);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    await channel.deleteImage(file);
    expect((await fetch(file)).status).toBe(404);
  });

  it('refuses an upload over the size limit with code 22 and a non-image on the image route with code 4', async () => {
    const channel = alice.channel('messaging', 'tang-kinh-cac');
    await expect(
      channel.sendFile(Readable.from([Buffer.alloc(4096)]), 'big.bin', 'application/octet-stream'),
    ).rejects.toMatchObject({ code: 22 });
    await expect(
      channel.sendImage(Readable.from([Buffer.from('x')]), 'x.txt', 'text/plain'),
    ).rejects.toMatchObject({ code: 4 });
  });

  it('refuses uploads to a channel the user cannot write to with code 17', async () => {
    await admin
      .channel('messaging', 'bi-mat', { created_by_id: 'bob', members: ['bob'] } as never)
      .create();
    const secret = alice.channel('messaging', 'bi-mat');
    await expect(
      secret.sendFile(Readable.from([Buffer.from('x')]), 'x.txt', 'text/plain'),
    ).rejects.toMatchObject({ code: 17 });
  });

  it('mutes and unmutes a user: the client learns it from notification.mutes_updated', async () => {
    const muted = nextEvent(alice, 'notification.mutes_updated');
    const response = await alice.muteUser('bob');
    await muted;
    expect(response.mute?.target?.id).toBe('bob');
    expect(alice.mutedUsers.map((m) => m.target.id)).toEqual(['bob']);
    expect(alice.userMuteStatus('bob')).toBe(true);

    const unmuted = nextEvent(alice, 'notification.mutes_updated');
    await alice.unmuteUser('bob');
    await unmuted;
    expect(alice.mutedUsers).toEqual([]);
  });

  it('mutes a channel: the client state, the muted filter and the next connection all see it', async () => {
    const channel = alice.channel('messaging', 'tang-kinh-cac');
    const muted = nextEvent(alice, 'notification.channel_mutes_updated');
    await channel.mute();
    await muted;
    expect(channel.muteStatus().muted).toBe(true);
    const found = await alice.queryChannels({ muted: true, members: { $in: ['alice'] } });
    expect(found.map((c) => c.cid)).toEqual(['messaging:tang-kinh-cac']);

    const again = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    const health = await again.connectUser({ id: 'alice' }, admin.createToken('alice'));
    expect(health?.me?.channel_mutes.map((m) => m.channel?.cid)).toEqual([
      'messaging:tang-kinh-cac',
    ]);
    await again.disconnectUser();

    const unmuted = nextEvent(alice, 'notification.channel_mutes_updated');
    await channel.unmute();
    await unmuted;
    expect(channel.muteStatus().muted).toBe(false);
  });
});
