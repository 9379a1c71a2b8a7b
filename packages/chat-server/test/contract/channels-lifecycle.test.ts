import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectFullChannel,
  expectStreamError,
  ids,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('channel lifecycle and access', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('gets or creates a channel by id: the second query finds the same channel and ignores new data', async () => {
    const aliceId = uniqueId('truong-vo-ky');
    const bobId = uniqueId('trieu-man');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId('minh-giao');

    const created = await alice
      .channel('messaging', channelId, { name: 'Minh Giáo', members: [aliceId, bobId] })
      .watch();
    const found = await bob.channel('messaging', channelId, { name: 'Tên khác' }).watch();

    expect(created.channel).toMatchObject({
      id: channelId,
      type: 'messaging',
      cid: `messaging:${channelId}`,
    });
    expect(created.channel.created_by?.id).toBe(aliceId);
    expect(created.channel.member_count).toBe(2);
    expect(created.members.map((member) => member.user?.id).sort()).toEqual(
      [aliceId, bobId].sort(),
    );
    expect(found.channel.cid).toBe(created.channel.cid);
    expect(found.channel.created_at).toBe(created.channel.created_at);
    expect(found.channel.name).toBe('Minh Giáo');
    expect(Array.isArray(found.messages)).toBe(true);
    expectFullChannel(created.channel);
    expectFullChannel(found.channel);
  });

  it('creates one distinct channel per member set, whatever the order of members', async () => {
    const aliceId = uniqueId('lenh-ho-xung');
    const bobId = uniqueId('nham-doanh-doanh');
    const carolId = uniqueId('nhac-linh-san');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    await createUsers(env(), [carolId]);

    const fromAlice = alice.channel('messaging', { members: [aliceId, bobId] });
    await fromAlice.watch();
    const fromBob = bob.channel('messaging', { members: [bobId, aliceId] });
    await fromBob.watch();
    const trio = alice.channel('messaging', { members: [aliceId, bobId, carolId] });
    await trio.watch();

    expect(fromAlice.id).toMatch(/^[\w!_-]+$/);
    expect(fromAlice.cid).toBe(`messaging:${fromAlice.id}`);
    expect(fromBob.cid).toBe(fromAlice.cid);
    expect(trio.cid).not.toBe(fromAlice.cid);
    expect(Object.keys(fromBob.state.members).sort()).toEqual([aliceId, bobId].sort());
    expect(alice.activeChannels[fromAlice.cid]).toBe(fromAlice);
  });

  it('counts watchers, announces watching start and stop, and stops live events after stopWatching', async () => {
    const aliceId = uniqueId('hu-truc');
    const bobId = uniqueId('tu-nguyen');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId('dan-dinh');
    const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    expect(aliceChannel.state.watcher_count).toBe(1);

    const started = waitForEvent(
      aliceChannel,
      'user.watching.start',
      (event) => event.user?.id === bobId,
    );
    const bobChannel = await watchChannel(bob, 'messaging', channelId);
    const startEvent = await started;

    expect(startEvent.watcher_count).toBe(2);
    expect(aliceChannel.state.watcher_count).toBe(2);
    expect(aliceChannel.state.watchers[bobId]?.id).toBe(bobId);
    expect(bobChannel.state.watcher_count).toBe(2);
    // As on Stream, the watcher list comes only when a page of it is asked for.
    const page = await bobChannel.query({ watchers: { limit: 10 } });
    expect((page.watchers ?? []).map((user) => user.id).sort()).toEqual([aliceId, bobId].sort());

    const stopped = waitForEvent(
      aliceChannel,
      'user.watching.stop',
      (event) => event.user?.id === bobId,
    );
    await bobChannel.stopWatching();
    expect((await stopped).watcher_count).toBe(1);
    expect(aliceChannel.state.watcher_count).toBe(1);
    expect(aliceChannel.state.watchers[bobId]).toBeUndefined();

    // No longer a watcher but still a member: the next message reaches bob only as a notification.
    const notified = waitForEvent(
      bob,
      'notification.message_new',
      (event) => event.cid === aliceChannel.cid,
    );
    const sent = await sendText(aliceChannel, 'Ngươi còn đó không?');
    expect((await notified).message?.id).toBe(sent.id);
  });

  it('lets a non-member watch and read a livestream channel but not write to it', async () => {
    const ownerId = uniqueId('chuong-mon');
    const viewerId = uniqueId('khan-gia');
    const owner = await connectUser(env(), ownerId);
    const viewer = await connectUser(env(), viewerId);
    const channelId = uniqueId('luan-kiem');
    await createChannelAsServer(env(), 'livestream', channelId, ownerId, {
      name: 'Luận kiếm',
      members: [ownerId],
    });
    const ownerChannel = await watchChannel(owner, 'livestream', channelId);
    const announcement = await sendText(ownerChannel, 'Hoa Sơn luận kiếm bắt đầu');

    const viewerChannel = await watchChannel(viewer, 'livestream', channelId);

    expect(ids(viewerChannel.state.messages)).toContain(announcement.id);
    expect(viewerChannel.data?.own_capabilities).not.toContain('send-message');
    await expectStreamError(viewerChannel.sendMessage({ text: 'Cho ta tham gia' }), {
      code: 17,
      status: 403,
    });
    const reread = await owner.channel('livestream', channelId).query({ messages: { limit: 100 } });
    expect(ids(reread.messages)).toEqual([announcement.id]);
  });

  it('refuses to let a non-member read a messaging channel', async () => {
    const aliceId = uniqueId('quach-tinh');
    const bobId = uniqueId('hoang-dung');
    const strangerId = uniqueId('au-duong-phong');
    const alice = await connectUser(env(), aliceId);
    await createUsers(env(), [bobId]);
    const stranger = await connectUser(env(), strangerId);
    const channelId = uniqueId('dao-hoa-dao');
    const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    await sendText(aliceChannel, 'Bí mật Cửu Âm Chân Kinh');

    await expectStreamError(stranger.channel('messaging', channelId).watch(), {
      code: 17,
      status: 403,
    });
    const listed = await stranger.queryChannels({ cid: { $in: [aliceChannel.cid] } });
    expect(listed).toEqual([]);
  });
});
