import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectFullChannel,
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('channel updates and membership', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  const pair = (prefix: string, data: Record<string, unknown> = {}) =>
    twoMembers(env(), prefix, { data });

  it('replaces custom data on update, answers with a full channel and tells watchers with channel.updated', async () => {
    const { bobChannel, aliceChannel } = await pair('update', {
      name: 'Thanh Vân Môn',
      mon_phai: 'chính đạo',
    });

    const updated = waitForEvent(bobChannel, 'channel.updated');
    const response = await aliceChannel.update({
      name: 'Thanh Vân Tông',
      image: 'https://example.com/tv.png',
    });
    const event = await updated;

    expect(response.channel).toMatchObject({
      name: 'Thanh Vân Tông',
      image: 'https://example.com/tv.png',
    });
    expect(response.channel).not.toHaveProperty('mon_phai');
    expectFullChannel(response.channel);
    expect(aliceChannel.data?.own_capabilities).toEqual(response.channel.own_capabilities);
    expect(event.channel).toMatchObject({ cid: bobChannel.cid, name: 'Thanh Vân Tông' });
    expect(bobChannel.data?.name).toBe('Thanh Vân Tông');
    expect(bobChannel.data?.own_capabilities?.length ?? 0).toBeGreaterThan(0);
  });

  it('sets and unsets single fields with updatePartial and tells watchers', async () => {
    const { bobChannel, aliceChannel } = await pair('partial', {
      name: 'Hợp Hoan Tông',
      image: 'https://example.com/hh.png',
    });

    const updated = waitForEvent(
      bobChannel,
      'channel.updated',
      (event) => event.channel?.mon_phai === 'ma đạo',
    );
    const response = await aliceChannel.updatePartial({
      set: { mon_phai: 'ma đạo' },
      unset: ['image'],
    });
    await updated;

    expect(response.channel).toMatchObject({ name: 'Hợp Hoan Tông', mon_phai: 'ma đạo' });
    expect(response.channel).not.toHaveProperty('image');
    expectFullChannel(response.channel);
    expect(bobChannel.data).toMatchObject({ name: 'Hợp Hoan Tông', mon_phai: 'ma đạo' });
    expect(bobChannel.data).not.toHaveProperty('image');
  });

  it('deletes a channel: watchers get channel.deleted, the client forgets it and queries no longer find it', async () => {
    const { alice, aliceChannel, bob, bobChannel, channelId } = await pair('delete');
    const cid = aliceChannel.cid;

    const deletedForBob = waitForEvent(bob, 'channel.deleted', (event) => event.cid === cid);
    await env().admin.channel('messaging', channelId).delete();
    await deletedForBob;

    expect(bob.activeChannels[cid]).toBeUndefined();
    expect(bobChannel.disconnected).toBe(true);
    expect(await alice.queryChannels({ cid: { $in: [cid] } })).toEqual([]);
  });

  it('creates a softly deleted channel afresh, unless it was deleted with skip_truncate: then its history comes back', async () => {
    const [ownerId, friendId, otherId] = [uniqueId('chu'), uniqueId('ban'), uniqueId('khac')];
    await env().admin.upsertUsers([{ id: ownerId }, { id: friendId }, { id: otherId }]);
    const distinct = (with_: string) =>
      env().admin.channel('messaging', { members: [ownerId, with_], created_by_id: ownerId });
    const textsAfterRecreating = async (with_: string) => {
      const channel = distinct(with_);
      await channel.create();
      const [state] = await env().admin.queryChannels(
        { cid: channel.cid },
        {},
        { user_id: ownerId },
      );
      return state!.state.messages.map((m) => m.text);
    };

    const kept = distinct(friendId);
    await kept.create();
    await kept.sendMessage({ text: 'Giữ lại', user_id: ownerId });
    await kept.delete({ skip_truncate: true } as never);
    expect(await textsAfterRecreating(friendId)).toEqual(['Giữ lại']);

    const gone = distinct(otherId);
    await gone.create();
    await gone.sendMessage({ text: 'Xoá đi', user_id: ownerId });
    await gone.delete();
    expect(await textsAfterRecreating(otherId)).toEqual([]);
  });

  it('lets only a member bring back a channel deleted with its history kept, adding nobody new', async () => {
    const { alice, aliceId, bobId, channelId } = await pair('mang-ve');
    const server = env().admin.channel('messaging', channelId);
    await server.sendMessage({ text: 'Kỷ niệm', user_id: aliceId });
    await server.delete({ skip_truncate: true } as never);
    const strangerId = uniqueId('la');
    const stranger = await connectUser(env(), strangerId);
    await expectStreamError(
      stranger.channel('messaging', channelId, { members: [strangerId] }).create(),
      { code: 17 },
    );
    await expectStreamError(
      alice.channel('messaging', channelId, { members: [aliceId, strangerId] }).create(),
      { code: 17 },
    );
    const back = alice.channel('messaging', channelId, { members: [aliceId, bobId] });
    const state = await back.watch();
    expect(state.messages.map((m) => m.text)).toContain('Kỷ niệm');
    expect(state.members.map((m) => m.user_id).sort()).toEqual([aliceId, bobId].sort());
  });

  it('truncates a channel: watchers drop every message and a re-query returns none', async () => {
    const { aliceChannel, bobChannel, alice, channelId } = await pair('truncate');
    await sendText(aliceChannel, 'Một');
    await sendText(aliceChannel, 'Hai');

    const truncated = waitForEvent(bobChannel, 'channel.truncated');
    await env().admin.channel('messaging', channelId).truncate();
    const event = await truncated;

    expect(event.channel?.truncated_at).toEqual(expect.any(String));
    expect(bobChannel.state.messages.filter((message) => message.type !== 'system')).toEqual([]);
    const fresh = await alice.channel('messaging', channelId).query({ messages: { limit: 100 } });
    expect(fresh.messages.filter((message) => message.type !== 'system')).toEqual([]);
  });

  it('names who truncated the channel, as Stream does', async () => {
    const { aliceChannel, aliceId, channelId } = await pair('truncate-by');
    await sendText(aliceChannel, 'Một');
    const server = env().admin.channel('messaging', channelId);
    await server.truncate({ user_id: aliceId } as never);
    const [state] = await env().admin.queryChannels(
      { cid: aliceChannel.cid },
      {},
      { user_id: aliceId },
    );
    expect(state?.data).toMatchObject({ truncated_by_id: aliceId, truncated_by: { id: aliceId } });
    expect(state?.state.messages).toEqual([]);
  });

  it('truncates for the members named in member_ids only, each at the time given', async () => {
    const { aliceChannel, aliceId, bobId, channelId } = await pair('truncate-some');
    const carolId = uniqueId('carol');
    await env().admin.upsertUsers([{ id: carolId }]);
    const server = env().admin.channel('messaging', channelId);
    await server.addMembers([carolId]);
    await sendText(aliceChannel, 'Lịch sử');
    const textsOf = async (userId: string) => {
      const [state] = await env().admin.queryChannels(
        { cid: aliceChannel.cid },
        {},
        { user_id: userId, message_limit: 10 },
      );
      return state!.state.messages.filter((m) => m.type !== 'system').map((m) => m.text);
    };
    const bobHears = waitForEvent(
      (await connectUser(env(), bobId)).channel('messaging', channelId),
      'channel.truncated',
    );

    await server.truncate({ member_ids: [bobId, carolId] } as never);
    await server.truncate({ member_ids: [carolId], truncated_at: '2026-01-01T00:00:00Z' } as never);

    expect(await textsOf(bobId)).toEqual([]);
    expect(await textsOf(carolId)).toEqual(['Lịch sử']);
    expect(await textsOf(aliceId)).toEqual(['Lịch sử']);
    expect((await server.query({})).channel.truncated_at).toBeUndefined();
    await bobHears;

    const outsider = uniqueId('ngoai');
    await env().admin.upsertUsers([{ id: outsider }]);
    await expectStreamError(server.truncate({ member_ids: [outsider] } as never), { code: 4 });
    await expectStreamError(server.truncate({ member_ids: [bobId], hard_delete: true } as never), {
      code: 4,
    });
  });

  it('hides a channel for one user until they show it again', async () => {
    const { alice, aliceChannel } = await pair('hide');
    const filter = { cid: { $in: [aliceChannel.cid] } };

    const hidden = waitForEvent(alice, 'channel.hidden', (event) => event.cid === aliceChannel.cid);
    await aliceChannel.hide();
    await hidden;
    expect(aliceChannel.data?.hidden).toBe(true);
    expect(await alice.queryChannels(filter)).toEqual([]);
    expect(
      (await alice.queryChannels({ ...filter, hidden: true })).map((channel) => channel.cid),
    ).toEqual([aliceChannel.cid]);

    const visible = waitForEvent(
      alice,
      'channel.visible',
      (event) => event.channel_id === aliceChannel.id,
    );
    await aliceChannel.show();
    await visible;
    expect(aliceChannel.data?.hidden).toBe(false);
    expect((await alice.queryChannels(filter)).map((channel) => channel.cid)).toEqual([
      aliceChannel.cid,
    ]);
  });

  it('shows a hidden channel again when someone writes in it', async () => {
    const { alice, aliceChannel, bobChannel } = await pair('unhide');
    await aliceChannel.hide();
    expect(await alice.queryChannels({ cid: { $in: [aliceChannel.cid] } })).toEqual([]);

    await sendText(bobChannel, 'Đạo hữu, ra đây!');

    expect(
      (await alice.queryChannels({ cid: { $in: [aliceChannel.cid] } })).map(
        (channel) => channel.cid,
      ),
    ).toEqual([aliceChannel.cid]);
  });

  it('adds a member: watchers get member.added and the new member gets notification.added_to_channel', async () => {
    const { aliceChannel, channelId } = await pair('add');
    const carolId = uniqueId('carol');
    const carol = await connectUser(env(), carolId);

    const added = waitForEvent(
      aliceChannel,
      'member.added',
      (event) => event.member?.user?.id === carolId,
    );
    const invited = waitForEvent(
      carol,
      'notification.added_to_channel',
      (event) => event.channel?.id === channelId,
    );
    const response = await aliceChannel.addMembers([carolId]);
    await added;
    const notification = await invited;

    expectFullChannel(response.channel);
    expect(response.members.map((member) => member.user?.id)).toContain(carolId);
    expect(aliceChannel.state.members[carolId]?.user?.id).toBe(carolId);
    expect(notification.channel).toMatchObject({ type: 'messaging', id: channelId });
    const carolView = await watchChannel(carol, 'messaging', channelId);
    expect(carolView.state.membership?.user?.id).toBe(carolId);
  });

  it('adds a member with hide_history: they see only what is written after they joined', async () => {
    const { aliceChannel, channelId } = await pair('late');
    const before = await sendText(aliceChannel, 'Chuyện cũ trước khi ngươi đến');
    await aliceChannel.getClient().pinMessage(before.id);
    const carolId = uniqueId('carol');
    const carol = await connectUser(env(), carolId);

    await aliceChannel.addMembers([carolId], undefined, { hide_history: true });
    const after = await sendText(aliceChannel, 'Chào người mới');

    const carolView = await watchChannel(carol, 'messaging', channelId);
    expect(ids(carolView.state.messages)).toEqual([after.id]);
    const older = await carolView.query({ messages: { limit: 10, id_lt: after.id } });
    expect(older.messages).toEqual([]);
    // Nor by id, nor among pinned messages.
    await expectStreamError(carol.getMessage(before.id), { code: 16, status: 404 });
    expect(
      (await carolView.getMessagesById([before.id, after.id])).messages.map((m) => m.id),
    ).toEqual([after.id]);
    expect(carolView.state.pinnedMessages).toEqual([]);
    expect((await carolView.getPinnedMessages({})).messages).toEqual([]);
    // Members who were there before keep the whole history.
    const aliceView = await aliceChannel.query({ messages: { limit: 10 } });
    expect(ids(aliceView.messages)).toEqual([before.id, after.id]);
    expect(ids(aliceView.pinned_messages)).toEqual([before.id]);
  });

  it('adds a member with hide_history_before, as Stream documents: they see what was written from that instant on', async () => {
    const { aliceChannel, channelId } = await pair('tu-luc');
    const old = await sendText(aliceChannel, 'Chuyện xưa');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const cutoff = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const recent = await sendText(aliceChannel, 'Chuyện gần đây');
    const carolId = uniqueId('carol');
    const carol = await connectUser(env(), carolId);

    await aliceChannel.addMembers([carolId], undefined, { hide_history_before: cutoff });
    const after = await sendText(aliceChannel, 'Chào người mới');
    const carolView = await watchChannel(carol, 'messaging', channelId);
    expect(ids(carolView.state.messages)).toEqual([recent.id, after.id]);
    await expectStreamError(carol.getMessage(old.id), { code: 16, status: 404 });

    // A time in the future hides no more than hide_history would: what is written after joining is theirs.
    const daveId = uniqueId('dave');
    const dave = await connectUser(env(), daveId);
    await aliceChannel.addMembers([daveId], undefined, {
      hide_history_before: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const welcome = await sendText(aliceChannel, 'Chào người mới nữa');
    const daveView = await watchChannel(dave, 'messaging', channelId);
    expect(ids(daveView.state.messages)).toEqual([welcome.id]);

    await expectStreamError(
      aliceChannel.addMembers([uniqueId('erin')], undefined, {
        hide_history_before: 'hôm qua',
      } as never),
      { code: 4, message: /hide_history_before/ },
    );
  });

  it('removes a member: watchers get member.removed for that user and the user is told', async () => {
    const { aliceChannel } = await pair('remove');
    const carolId = uniqueId('carol');
    const carol = await connectUser(env(), carolId);
    const added = waitForEvent(
      aliceChannel,
      'member.added',
      (event) => event.member?.user?.id === carolId,
    );
    await aliceChannel.addMembers([carolId]);
    await added;
    expect(aliceChannel.state.members[carolId]).toBeDefined();

    const removed = waitForEvent(
      aliceChannel,
      'member.removed',
      (event) => event.user?.id === carolId,
    );
    const told = waitForEvent(
      carol,
      'notification.removed_from_channel',
      (event) => event.cid === aliceChannel.cid,
    );
    const response = await aliceChannel.removeMembers([carolId]);
    await removed;
    await told;

    expectFullChannel(response.channel);
    expect(aliceChannel.state.members[carolId]).toBeUndefined();
    expect(Object.keys(aliceChannel.state.members)).toHaveLength(2);
  });

  async function expectMembership(
    client: StreamChat,
    channelId: string,
    expected: Record<string, boolean>,
  ) {
    const fresh = await client.channel('messaging', channelId).query({ messages: { limit: 0 } });
    for (const [field, present] of Object.entries(expected)) {
      const value = (fresh.membership as Record<string, unknown> | null | undefined)?.[field];
      if (present) expect(value, field).toEqual(expect.any(String));
      else expect(value ?? null, field).toBeNull();
    }
  }

  it('pins and unpins a channel for one member through the legacy /member/{user_id} route', async () => {
    const { alice, aliceId, aliceChannel, channelId } = await pair('pin');

    const pinned = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user?.id === aliceId,
    );
    const member = await aliceChannel.pin();
    await pinned;
    expect(member.pinned_at).toEqual(expect.any(String));
    expect(aliceChannel.state.membership.pinned_at).toEqual(expect.any(String));
    await expectMembership(alice, channelId, { pinned_at: true });

    const unpinned = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user?.id === aliceId,
    );
    await aliceChannel.unpin();
    await unpinned;
    expect(aliceChannel.state.membership.pinned_at).toBeUndefined();
    await expectMembership(alice, channelId, { pinned_at: false });
  });

  it('archives through PATCH /member and unarchives through the legacy route, both seen by the member', async () => {
    const { alice, aliceId, aliceChannel, bobChannel, bobId, channelId } = await pair('archive');

    const archived = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user?.id === aliceId,
    );
    const response = await aliceChannel.updateMemberPartial({ set: { archived: true } });
    await archived;
    expect(response.channel_member.archived_at).toEqual(expect.any(String));
    expect(aliceChannel.state.membership.archived_at).toEqual(expect.any(String));
    // Archiving is per member: bob's membership is untouched.
    expect(bobChannel.state.members[bobId]?.archived_at).toBeUndefined();
    await expectMembership(alice, channelId, { archived_at: true });

    const unarchived = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user?.id === aliceId,
    );
    await aliceChannel.unarchive();
    await unarchived;
    expect(aliceChannel.state.membership.archived_at).toBeUndefined();
    await expectMembership(alice, channelId, { archived_at: false });
  });

  it('invites two users: an accepted invite stops being pending, a rejected one stays invited, and watchers see both answers', async () => {
    const { aliceChannel, bobChannel, channelId } = await pair('invite');
    const carolId = uniqueId('carol');
    const daveId = uniqueId('dave');
    const carol = await connectUser(env(), carolId);
    const dave = await connectUser(env(), daveId);

    const carolInvited = waitForEvent(
      carol,
      'notification.added_to_channel',
      (event) => event.channel?.id === channelId,
    );
    await aliceChannel.inviteMembers([carolId, daveId]);
    expect((await carolInvited).member).toMatchObject({ user_id: carolId, invited: true });

    const accepted = waitForEvent(
      bobChannel,
      'member.updated',
      (event) => event.member?.user_id === carolId,
    );
    await carol.channel('messaging', channelId).acceptInvite();
    const acceptedMember = (await accepted).member;
    expect(acceptedMember?.invite_accepted_at).toEqual(expect.any(String));
    expect(acceptedMember?.invited).toBeUndefined();

    const rejected = waitForEvent(
      bobChannel,
      'member.updated',
      (event) => event.member?.user_id === daveId,
    );
    await dave.channel('messaging', channelId).rejectInvite();
    const rejectedMember = (await rejected).member;
    expect(rejectedMember?.invite_rejected_at).toEqual(expect.any(String));
    expect(rejectedMember?.invited).toBe(true);

    const { members } = await aliceChannel.queryMembers({ user_id: { $in: [carolId, daveId] } });
    const byId = new Map(members.map((member) => [member.user_id, member]));
    expect(byId.get(carolId)).toMatchObject({ invite_accepted_at: expect.any(String) });
    expect(byId.get(carolId)?.invited).toBeUndefined();
    expect(byId.get(daveId)).toMatchObject({
      invited: true,
      invite_rejected_at: expect.any(String),
    });
  });

  it('promotes and demotes a member server-side: watchers see each role change, and a message sent with the update arrives as a system message', async () => {
    const { aliceId, aliceChannel, bobId, channelId } = await pair('promote');
    const serverChannel = env().admin.channel('messaging', channelId);

    const promoted = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user_id === bobId,
    );
    const announced = waitForEvent(
      aliceChannel,
      'message.new',
      (event) => event.message?.text === 'Bob lên làm trưởng lão',
    );
    await serverChannel.addModerators([bobId], {
      text: 'Bob lên làm trưởng lão',
      user_id: aliceId,
    });
    expect((await promoted).member).toMatchObject({
      channel_role: 'channel_moderator',
      is_moderator: true,
    });
    expect((await announced).message?.type).toBe('system');
    expect(aliceChannel.state.members[bobId]?.channel_role).toBe('channel_moderator');

    const demoted = waitForEvent(
      aliceChannel,
      'member.updated',
      (event) => event.member?.user_id === bobId,
    );
    await serverChannel.demoteModerators([bobId]);
    expect((await demoted).member).toMatchObject({ channel_role: 'channel_member' });
    expect(aliceChannel.state.members[bobId]?.channel_role).toBe('channel_member');
  });
});
