import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

describe('blocks and flags', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('blocks and unblocks a user: the client keeps the list, and the next connection starts from it', async () => {
    const aliceId = uniqueId('ho-phap');
    const bobId = uniqueId('ke-quay');
    const carolId = uniqueId('nguoi-la');
    await createUsers(env(), [bobId, carolId]);
    const alice = await connectUser(env(), aliceId);

    const blocked = await alice.blockUser(bobId);
    expect(blocked).toMatchObject({ blocked_by_user_id: aliceId, blocked_user_id: bobId });
    expect(Date.parse(blocked.blocked_at)).not.toBeNaN();
    await alice.blockUser(carolId);
    // Blocking twice keeps one block.
    await alice.blockUser(bobId);
    expect(alice.blockedUsers.getLatestValue().userIds).toEqual([bobId, carolId, bobId]);

    const listed = await alice.getBlockedUsers();
    expect(listed.blocks.map((block) => block.blocked_user_id)).toEqual([bobId, carolId]);
    expect(listed.blocks[0]).toMatchObject({ user_id: aliceId, blocked_user: { id: bobId } });
    expect(alice.blockedUsers.getLatestValue().userIds).toEqual([bobId, carolId]);

    await alice.unBlockUser(carolId);
    const again = await connectUser(env(), aliceId);
    expect(again.blockedUsers.getLatestValue().userIds).toEqual([bobId]);
    expect((await again.getBlockedUsers()).blocks.map((b) => b.blocked_user_id)).toEqual([bobId]);
  });

  it('stops a blocked user writing to the blocker in their direct conversation, but not in a group', async () => {
    const aliceId = uniqueId('ho-phap');
    const bobId = uniqueId('ke-quay');
    const carolId = uniqueId('ban-chung');
    await createUsers(env(), [carolId]);
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const direct = bob.channel('messaging', { members: [aliceId, bobId] });
    await direct.watch();
    const group = await watchChannel(bob, 'messaging', uniqueId('nhom'), {
      members: [aliceId, bobId, carolId],
    });
    await sendText(direct, 'Trước khi bị chặn');

    await alice.blockUser(bobId);
    await expectStreamError(direct.sendMessage({ text: 'Sau khi bị chặn' }), {
      code: 17,
      status: 403,
    });
    expect((await sendText(group, 'Trong nhóm vẫn nói được')).text).toBe('Trong nhóm vẫn nói được');
    // The blocker may still write; only the blocked user is stopped.
    const aliceDirect = alice.channel('messaging', { members: [aliceId, bobId] });
    await aliceDirect.watch();
    expect(aliceDirect.cid).toBe(direct.cid);
    await sendText(aliceDirect, 'Ta vẫn nói được');

    await alice.unBlockUser(bobId);
    expect((await sendText(direct, 'Đã được bỏ chặn')).text).toBe('Đã được bỏ chặn');
    const texts = (await aliceDirect.query({ messages: { limit: 10 } })).messages.map(
      (m) => m.text,
    );
    expect(texts).toEqual(['Trước khi bị chặn', 'Ta vẫn nói được', 'Đã được bỏ chặn']);
  });

  it('refuses to block oneself, a user who does not exist, or with no one named', async () => {
    const aliceId = uniqueId('ho-phap');
    const alice = await connectUser(env(), aliceId);
    await expectStreamError(alice.blockUser(aliceId), { code: 4, status: 400 });
    await expectStreamError(alice.blockUser(uniqueId('khong-co')), { code: 16, status: 404 });
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/users/block',
      userId: aliceId,
      body: { blocked_user_id: 42 },
    });
    expect(response.status).toBe(400);
    expect((await alice.getBlockedUsers()).blocks).toEqual([]);
  });

  it('flags a message and a user; flagging the same target again updates the one report', async () => {
    const aliceId = uniqueId('chinh-phai');
    const bobId = uniqueId('ta-phai');
    const channelId = uniqueId('dai-sanh');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const bobChannel = await watchChannel(bob, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    const aliceChannel = await watchChannel(alice, 'messaging', channelId);
    expect(aliceChannel.data?.own_capabilities).toContain('flag-message');
    const rude = await sendText(bobChannel, 'Lời lẽ thô tục');

    const flagged = await alice.flagMessage(rude.id, { reason: 'xúc phạm' });
    expect(flagged.flag).toMatchObject({
      target_message_id: rude.id,
      channel_cid: bobChannel.cid,
      user: { id: aliceId },
      created_by_automod: false,
    });
    const again = await alice.flagMessage(rude.id, { reason: 'spam' });
    expect(again.flag).toMatchObject({ reason: 'spam', created_at: flagged.flag.created_at });

    const user = await alice.flagUser(bobId);
    expect(user.flag).toMatchObject({ target_user: { id: bobId }, user: { id: aliceId } });
  });

  it('refuses flags on one’s own message, on a message the reporter cannot read, and without a target', async () => {
    const aliceId = uniqueId('chinh-phai');
    const outsiderId = uniqueId('ngoai-nhan');
    const channelId = uniqueId('mat-phong');
    await createUsers(env(), [aliceId]);
    await createChannelAsServer(env(), 'messaging', channelId, aliceId, { members: [aliceId] });
    const alice = await connectUser(env(), aliceId);
    const outsider = await connectUser(env(), outsiderId);
    const own = await sendText(await watchChannel(alice, 'messaging', channelId), 'Bí mật');

    await expectStreamError(alice.flagMessage(own.id), { code: 4, status: 400 });
    await expectStreamError(outsider.flagMessage(own.id), { code: 17, status: 403 });
    await expectStreamError(outsider.flagMessage(uniqueId('khong-co')), { code: 16, status: 404 });
    await expectStreamError(outsider.flagUser(outsiderId), { code: 4, status: 400 });
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/moderation/flag',
      userId: outsiderId,
      body: { reason: 'không rõ ai' },
    });
    expect(response.status).toBe(400);
  });
});
