import type { BannedUsersFilters, Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  connectUser,
  createUsers,
  expectStreamError,
  nth,
  rawRequest,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('bans', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  async function moderator(prefix = 'truong-lao') {
    const id = uniqueId(prefix);
    await env().admin.upsertUser({ id, role: 'moderator' });
    return { id, client: await connectUser(env(), id) };
  }

  it('bans a member from one channel: they stop writing there, watchers learn it, and the member object says so', async () => {
    const { aliceChannel, bobChannel, bobId, aliceId, bob } = await twoMembers(env(), 'cam-kenh');
    const banned = waitForEvent(aliceChannel, 'user.banned');
    await aliceChannel.banUser(bobId, { reason: 'spam linh thạch', timeout: 60 });
    const event = (await banned) as Event & { expiration?: string };
    expect(event).toMatchObject({
      cid: aliceChannel.cid,
      user: { id: bobId },
      reason: 'spam linh thạch',
      shadow: false,
      created_by: { id: aliceId },
    });
    expect(Date.parse(event.expiration as string)).toBeGreaterThan(Date.now() + 58 * 60_000);
    expect(aliceChannel.state.members[bobId]?.banned).toBe(true);

    await expectStreamError(sendText(bobChannel, 'Vẫn nói được?'), {
      code: 17,
      status: 403,
      message: /banned/,
    });
    const other = await watchChannel(bob, 'messaging', uniqueId('kenh-khac'), {
      members: [bobId],
    });
    await sendText(other, 'Ở kênh khác vẫn nói được');

    const { members } = await aliceChannel.queryMembers({ banned: true });
    expect(members.map((m) => m.user_id)).toEqual([bobId]);
    expect(members[0]).toMatchObject({ banned: true, shadow_banned: false });
    expect(members[0]?.ban_expires).toBe(event.expiration);
  });

  it('takes every writing capability from a banned member and gives them back on unban', async () => {
    const { aliceChannel, bobId, bob, channelId } = await twoMembers(env(), 'nang-luc');
    const before = (await bob.queryChannels({ id: channelId }))[0]!;
    expect(before.data?.own_capabilities).toEqual(
      expect.arrayContaining([
        'send-message',
        'send-reaction',
        'upload-file',
        'send-typing-events',
      ]),
    );
    await aliceChannel.banUser(bobId, {});
    const during = (await bob.queryChannels({ id: channelId }, {}, { state: true }))[0];
    for (const capability of ['send-message', 'send-reaction', 'upload-file', 'send-typing-events'])
      expect(during?.data?.own_capabilities ?? []).not.toContain(capability);

    const unbanned = waitForEvent(aliceChannel, 'user.unbanned');
    await aliceChannel.unbanUser(bobId);
    expect((await unbanned).user?.id).toBe(bobId);
    expect(aliceChannel.state.members[bobId]?.banned).toBe(false);
    const after = (await bob.queryChannels({ id: channelId }))[0]!;
    expect(after.data?.own_capabilities).toContain('send-message');
  });

  it('refuses a channel-banned member reactions, typing and custom events', async () => {
    const { aliceChannel, bobChannel, bobId } = await twoMembers(env(), 'cam-phan-ung');
    const message = await sendText(aliceChannel, 'Ai thả tim?');
    await aliceChannel.banUser(bobId, {});
    await expectStreamError(bobChannel.sendReaction(message.id, { type: 'love' }), { code: 17 });
    await expectStreamError(bobChannel.sendEvent({ type: 'typing.start' }), { code: 17 });
    await expectStreamError(
      bobChannel.sendEvent({ type: 'tu_luyen' } as unknown as Parameters<
        typeof bobChannel.sendEvent
      >[0]),
      { code: 17 },
    );
  });

  it('refuses to add a user banned from the channel, and a shadow ban survives leaving and coming back', async () => {
    const { aliceChannel } = await twoMembers(env(), 'them-vao');
    const carolId = uniqueId('bi-cam');
    const daveId = uniqueId('bi-cam-an');
    await createUsers(env(), [carolId, daveId]);
    await aliceChannel.banUser(carolId, {});
    await expectStreamError(aliceChannel.addMembers([carolId]), { code: 17, message: /banned/ });
    await aliceChannel.unbanUser(carolId);
    await aliceChannel.addMembers([carolId]);

    await aliceChannel.shadowBan(daveId, {});
    await aliceChannel.addMembers([daveId]);
    await aliceChannel.removeMembers([daveId]);
    await aliceChannel.addMembers([daveId]);
    const { members } = await aliceChannel.queryMembers({ id: { $in: [carolId, daveId] } });
    const byId = new Map(members.map((m) => [m.user_id, m]));
    expect(byId.get(carolId)).toMatchObject({ banned: false, shadow_banned: false });
    expect(byId.get(daveId)).toMatchObject({ banned: false, shadow_banned: true });
  });

  it('bans app-wide: the user loses writing everywhere, learns it on their socket, and me says banned', async () => {
    const mod = await moderator();
    const { members, cid } = await channelWithMembers(env(), 'toan-cuc', {
      users: ['chu-kenh', 'de-tu'],
    });
    const target = nth(members, 1);
    const heard = waitForEvent(target.client, 'user.banned');
    await mod.client.banUser(target.id, { reason: 'phá hoại', timeout: 30 });
    expect(await heard).toMatchObject({
      user: { id: target.id },
      reason: 'phá hoại',
      shadow: false,
    });

    await expectStreamError(sendText(target.channel, 'Còn nói được không?'), {
      code: 17,
      message: /banned/,
    });
    const again = await connectUser(env(), target.id);
    expect(again.user?.banned).toBe(true);
    expect(
      Date.parse(String((again.user as { ban_expires?: string }).ban_expires)),
    ).toBeGreaterThan(Date.now());
    const { users } = await env().admin.queryUsers({ id: target.id, banned: true });
    expect(users.map((u) => u.id)).toEqual([target.id]);
    // Reading is still allowed.
    const [state] = await target.client.queryChannels({ cid });
    expect(state?.data?.own_capabilities).toContain('read-events');

    await mod.client.unbanUser(target.id);
    await sendText(target.channel, 'Được ân xá');
    expect((await env().admin.queryUsers({ id: target.id })).users[0]?.banned).toBe(false);
  });

  it('lets the server ban with banned_by_id, and a second ban updates the first', async () => {
    const mod = await moderator();
    const targetId = uniqueId('tai-pham');
    await createUsers(env(), [targetId]);
    await env().admin.banUser(targetId, { banned_by_id: mod.id, reason: 'lần một' });
    await env().admin.banUser(targetId, { banned_by_id: mod.id, reason: 'lần hai', timeout: 5 });
    const { bans } = await env().admin.queryBannedUsers({ user_id: targetId });
    expect(bans).toHaveLength(1);
    expect(bans?.[0]).toMatchObject({
      user: { id: targetId },
      banned_by: { id: mod.id },
      reason: 'lần hai',
    });
    expect(bans?.[0]?.expires).toBeDefined();
  });

  it('refuses bans of oneself, of an admin, of unknown users, and by ordinary users', async () => {
    const mod = await moderator();
    const adminId = uniqueId('chuong-mon');
    await env().admin.upsertUser({ id: adminId, role: 'admin' });
    const { aliceChannel, bobId, bob, bobChannel } = await twoMembers(env(), 'tu-choi');

    await expectStreamError(mod.client.banUser(mod.id), { code: 17, message: /yourself/ });
    await expectStreamError(mod.client.banUser(adminId), { code: 17, message: /admin/ });
    await expectStreamError(env().admin.banUser(adminId), { code: 17, message: /admin/ });
    await expectStreamError(mod.client.banUser(uniqueId('vo-danh')), { code: 16, status: 404 });
    await expectStreamError(aliceChannel.banUser(uniqueId('vo-danh'), {}), { code: 16 });
    // An ordinary user bans nobody app-wide, and a plain member bans nobody in a group they do not moderate.
    await expectStreamError(bob.banUser(mod.id), { code: 17, status: 403 });
    const group = await channelWithMembers(env(), 'nhom', {
      users: ['chu', 'thanh-vien', 'khach'],
    });
    const [, member, guest] = group.members;
    await expectStreamError(member!.channel.banUser(guest!.id, {}), { code: 17 });
    await expectStreamError(bob.unbanUser(mod.id), { code: 17 });
    await expectStreamError(bobChannel.banUser(bobId, {}), { code: 17, message: /yourself/ });
  });

  it('refuses bad timeouts, reasons and channel names with code 4 naming the field', async () => {
    const mod = await moderator();
    const targetId = uniqueId('dau-vao');
    await createUsers(env(), [targetId]);
    for (const timeout of [0, -5, 1.5, 525_600 * 10 + 1, 1e30])
      await expectStreamError(mod.client.banUser(targetId, { timeout }), {
        code: 4,
        status: 400,
        message: /timeout/,
      });
    await expectStreamError(mod.client.banUser(targetId, { timeout: '10' as unknown as number }), {
      code: 4,
      message: /timeout/,
    });
    await expectStreamError(mod.client.banUser(targetId, { reason: 'x'.repeat(501) }), {
      code: 4,
      message: /reason/,
    });
    await expectStreamError(mod.client.banUser(targetId, { type: 'messaging' }), {
      code: 4,
      message: /type and id/,
    });
    await expectStreamError(mod.client.banUser(''), { code: 4, message: /target_user_id/ });
    const noTarget = await rawRequest(env(), {
      method: 'DELETE',
      path: '/moderation/ban',
      userId: mod.id,
    });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body).toMatchObject({ code: 4 });
    const badPayload = await rawRequest(env(), {
      method: 'GET',
      path: '/query_banned_users',
      userId: mod.id,
      query: { payload: JSON.stringify({ limit: 'many' }) },
    });
    expect(badPayload.body).toMatchObject({ code: 4 });
    expect(await mod.client.queryBannedUsers({ user_id: targetId })).toMatchObject({ bans: [] });
  });

  it('treats unbanning a user who is not banned as done', async () => {
    const mod = await moderator();
    const targetId = uniqueId('vo-toi');
    await createUsers(env(), [targetId]);
    await mod.client.unbanUser(targetId);
    await mod.client.removeShadowBan(targetId);
    expect((await env().admin.queryUsers({ id: targetId })).users[0]?.banned).toBe(false);
  });

  it('queries bans with filters, sort and paging, and keeps ordinary users to channels they moderate', async () => {
    const mod = await moderator();
    const { aliceChannel, aliceId, bobId, bob } = await twoMembers(env(), 'tra-cuu');
    const others = [uniqueId('tp-a'), uniqueId('tp-b')];
    await createUsers(env(), others);
    await aliceChannel.banUser(bobId, { reason: 'Lừa đảo đan dược' });
    await mod.client.banUser(others[0]!, { reason: 'spam' });
    await mod.client.shadowBan(others[1]!, {});

    const inChannel = await mod.client.queryBannedUsers({ channel_cid: aliceChannel.cid });
    expect(inChannel.bans?.map((b) => b.user.id)).toEqual([bobId]);
    expect(inChannel.bans?.[0]).toMatchObject({
      banned_by: { id: aliceId },
      channel: { cid: aliceChannel.cid },
      reason: 'Lừa đảo đan dược',
    });
    const byReason = await mod.client.queryBannedUsers({
      user_id: { $in: [bobId, ...others] },
      reason: { $autocomplete: 'lừa' },
    });
    expect(byReason.bans?.map((b) => b.user.id)).toEqual([bobId]);
    const byMe = await mod.client.queryBannedUsers({ banned_by_id: mod.id }, [{ created_at: 1 }]);
    expect(byMe.bans?.map((b) => b.user.id)).toEqual(others);
    const paged = await mod.client.queryBannedUsers(
      { banned_by_id: mod.id },
      [{ created_at: -1 }],
      {
        limit: 1,
        offset: 1,
      },
    );
    expect(paged.bans?.map((b) => b.user.id)).toEqual([others[0]]);

    // Alice owns the channel: she may list its bans, not anyone else's; bob may list none.
    const own = await aliceChannel.getClient().queryBannedUsers({ channel_cid: aliceChannel.cid });
    expect(own.bans).toHaveLength(1);
    await expectStreamError(aliceChannel.getClient().queryBannedUsers({}), { code: 17 });
    await expectStreamError(bob.queryBannedUsers({ channel_cid: aliceChannel.cid }), { code: 17 });
    await expectStreamError(mod.client.queryBannedUsers({ nonsense: 1 } as BannedUsersFilters), {
      code: 4,
    });
  });

  it('gives moderators ban-channel-members and lets moderators and admins skip slow mode', async () => {
    const mod = await moderator();
    const adminId = uniqueId('chuong-mon');
    await env().admin.upsertUser({ id: adminId, role: 'admin' });
    const admin = await connectUser(env(), adminId);
    const { aliceChannel, bobChannel, channelId } = await twoMembers(env(), 'cham');
    await aliceChannel.addMembers([mod.id, adminId]);
    await aliceChannel.update({ cooldown: 60 } as Record<string, unknown>);
    await sendText(bobChannel, 'Một');
    await expectStreamError(sendText(bobChannel, 'Hai'), { code: 60, message: /slow mode/ });
    expect(bobChannel.data?.own_capabilities).not.toContain('ban-channel-members');
    expect(bobChannel.data?.own_capabilities).not.toContain('skip-slow-mode');

    for (const client of [mod.client, admin]) {
      const channel = await watchChannel(client, 'messaging', channelId);
      expect(channel.data?.own_capabilities).toEqual(
        expect.arrayContaining(['ban-channel-members', 'skip-slow-mode']),
      );
      await sendText(channel, 'Một');
      await sendText(channel, 'Hai');
    }
    // Alice owns the channel, which makes her its moderator: she skips it too.
    await sendText(aliceChannel, 'Một');
    await sendText(aliceChannel, 'Hai');
  });
});
