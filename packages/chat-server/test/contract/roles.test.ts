import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('roles and channel types', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('lets a team channel moderator edit and delete any message, which a plain member may not', async () => {
    const ownerId = uniqueId('tong-chu');
    const moderatorId = uniqueId('truong-lao');
    const memberId = uniqueId('de-tu');
    await createUsers(env(), [ownerId, moderatorId, memberId]);
    const channelId = uniqueId('nghi-su');
    await createChannelAsServer(env(), 'team', channelId, ownerId, {
      members: [ownerId, moderatorId, memberId],
    });
    await env().admin.channel('team', channelId).addModerators([moderatorId]);
    const moderator = await connectUser(env(), moderatorId);
    const member = await connectUser(env(), memberId);
    const asModerator = await watchChannel(moderator, 'team', channelId);
    const asMember = await watchChannel(member, 'team', channelId);

    expect(asModerator.data?.own_capabilities).toEqual(
      expect.arrayContaining(['update-any-message', 'delete-any-message', 'pin-message']),
    );
    expect(asMember.data?.own_capabilities).toContain('send-message');
    expect(asMember.data?.own_capabilities).not.toContain('delete-any-message');
    expect(asMember.data?.own_capabilities).not.toContain('update-channel');

    const fromMember = await sendText(asMember, 'Đệ tử xin ý kiến');
    const fromModerator = await sendText(asModerator, 'Trưởng lão đã nghe');
    await expectStreamError(member.deleteMessage(fromModerator.id), { code: 17, status: 403 });
    await expectStreamError(
      member.updateMessage({ id: fromModerator.id, text: 'Sửa lời trưởng lão' }),
      { code: 17, status: 403 },
    );

    const edited = await moderator.updateMessage({ id: fromMember.id, text: 'Đã duyệt' });
    expect(edited.message.text).toBe('Đã duyệt');
    expect(edited.message.user?.id).toBe(memberId);
    const deleted = await moderator.deleteMessage(fromMember.id);
    expect(deleted.message.type).toBe('deleted');
    const kept = await member.getMessage(fromModerator.id);
    expect(kept.message.text).toBe('Trưởng lão đã nghe');
  });

  it('keeps a team channel to its members', async () => {
    const ownerId = uniqueId('tong-chu');
    const outsiderId = uniqueId('ke-la');
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('mat-that');
    await createChannelAsServer(env(), 'team', channelId, ownerId, { members: [ownerId] });
    const outsider = await connectUser(env(), outsiderId);

    await expectStreamError(outsider.channel('team', channelId).watch(), {
      code: 17,
      status: 403,
    });
    await expectStreamError(outsider.channel('team', channelId).sendMessage({ text: 'Cho vào' }), {
      code: 17,
      status: 403,
    });
  });

  it('lets an admin delete a channel they belong to, and refuses a plain member', async () => {
    const adminId = uniqueId('chuong-mon');
    const memberId = uniqueId('de-tu');
    await createUsers(env(), [{ id: adminId, name: 'Chưởng môn', role: 'admin' }, memberId]);
    const channelId = uniqueId('cu-dien');
    await createChannelAsServer(env(), 'messaging', channelId, adminId, {
      members: [adminId, memberId],
    });
    const admin = await connectUser(env(), adminId);
    const member = await connectUser(env(), memberId);
    const asAdmin = await watchChannel(admin, 'messaging', channelId);
    const asMember = await watchChannel(member, 'messaging', channelId);
    expect(admin.user?.role).toBe('admin');
    expect(asAdmin.data?.own_capabilities).toContain('delete-channel');
    expect(asMember.data?.own_capabilities).not.toContain('delete-channel');

    await expectStreamError(asMember.delete(), { code: 17, status: 403 });
    const gone = waitForEvent(asMember, 'channel.deleted');
    await asAdmin.delete();
    await gone;
    expect(await member.queryChannels({ cid: asMember.cid })).toEqual([]);
  });

  it('pages the watchers of a channel with limit and offset, in the order they arrived', async () => {
    const ownerId = uniqueId('chu-tri');
    const watcherIds = ['a', 'b', 'c'].map((suffix) => uniqueId(`khach-${suffix}`));
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('quang-truong');
    await createChannelAsServer(env(), 'livestream', channelId, ownerId, { members: [ownerId] });
    const watchers = [];
    for (const id of watcherIds) {
      const client = await connectUser(env(), id);
      watchers.push(await watchChannel(client, 'livestream', channelId));
    }

    const observer = await connectUser(env(), uniqueId('nguoi-xem'));
    const page = await observer
      .channel('livestream', channelId)
      .query({ watchers: { limit: 2, offset: 1 }, watch: false });
    expect((page.watchers ?? []).map((user) => user.id)).toEqual(watcherIds.slice(1, 3));
    expect(page.watcher_count).toBe(3);
    const first = await observer
      .channel('livestream', channelId)
      .query({ watchers: { limit: 1 }, watch: false });
    expect((first.watchers ?? []).map((user) => user.id)).toEqual(watcherIds.slice(0, 1));
  });
});
