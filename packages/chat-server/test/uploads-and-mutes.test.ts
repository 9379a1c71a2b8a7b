import { Readable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  newClient,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';

describe('uploads and mutes with the real client', () => {
  const env = useContractEnv({ prefix: '/chat', config: { uploads: { maxBytes: 1024 } } });

  /** Alice, connected, watching a new channel she shares with Bob, who never connects. */
  async function aliceWithBob(prefix: string) {
    const aliceId = uniqueId(`${prefix}-alice`);
    const bobId = uniqueId(`${prefix}-bob`);
    await createUsers(env(), [bobId]);
    const alice = await connectUser(env(), aliceId);
    const channel = await watchChannel(alice, 'messaging', uniqueId(prefix), {
      members: [aliceId, bobId],
    });
    return { aliceId, bobId, alice, channel };
  }

  it('stores an image and serves it back from the absolute URL it returns', async () => {
    const { channel } = await aliceWithBob('image');
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
    expect(file).toMatch(
      new RegExp(`^${env().server.baseURL}/uploads/.+/Ban-do\\.png\\?oh=2&ow=3$`),
    );
    const response = await fetch(file);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);

    await channel.deleteImage(file);
    expect((await fetch(file)).status).toBe(404);
  });

  it('refuses an upload over the size limit with code 22 and a non-image on the image route with code 4', async () => {
    const { channel } = await aliceWithBob('limits');
    await expect(
      channel.sendFile(Readable.from([Buffer.alloc(4096)]), 'big.bin', 'application/octet-stream'),
    ).rejects.toMatchObject({ code: 22 });
    await expect(
      channel.sendImage(Readable.from([Buffer.from('x')]), 'x.txt', 'text/plain'),
    ).rejects.toMatchObject({ code: 4 });
  });

  it('refuses uploads to a channel the user cannot write to with code 17', async () => {
    const { alice, bobId } = await aliceWithBob('foreign');
    const secretId = uniqueId('bi-mat');
    await createChannelAsServer(env(), 'messaging', secretId, bobId, { members: [bobId] });
    const secret = alice.channel('messaging', secretId);
    await expect(
      secret.sendFile(Readable.from([Buffer.from('x')]), 'x.txt', 'text/plain'),
    ).rejects.toMatchObject({ code: 17 });
  });

  it('mutes and unmutes a user: the client learns it from notification.mutes_updated', async () => {
    const { alice, bobId } = await aliceWithBob('mute-user');
    const muted = waitForEvent(alice, 'notification.mutes_updated');
    const response = await alice.muteUser(bobId);
    await muted;
    expect(response.mute?.target?.id).toBe(bobId);
    expect(alice.mutedUsers.map((m) => m.target.id)).toEqual([bobId]);
    expect(alice.userMuteStatus(bobId)).toBe(true);

    const unmuted = waitForEvent(alice, 'notification.mutes_updated');
    await alice.unmuteUser(bobId);
    await unmuted;
    expect(alice.mutedUsers).toEqual([]);
  });

  it('mutes a channel: the client state, the muted filter and the next connection all see it', async () => {
    const { aliceId, alice, channel } = await aliceWithBob('mute-channel');
    const muted = waitForEvent(alice, 'notification.channel_mutes_updated');
    await channel.mute();
    await muted;
    expect(channel.muteStatus().muted).toBe(true);
    const found = await alice.queryChannels({ muted: true, members: { $in: [aliceId] } });
    expect(found.map((c) => c.cid)).toEqual([channel.cid]);

    const again = newClient(env());
    const health = await again.connectUser({ id: aliceId }, env().admin.createToken(aliceId));
    expect(health?.me?.channel_mutes.map((m) => m.channel?.cid)).toEqual([channel.cid]);

    const unmuted = waitForEvent(alice, 'notification.channel_mutes_updated');
    await channel.unmute();
    await unmuted;
    expect(channel.muteStatus().muted).toBe(false);
  });
});
