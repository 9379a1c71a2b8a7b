import type { ChannelFilters } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Channel members as Stream's docs use them: custom data on the membership, invites with a status, and the
// keyset paging options of queryMembers.
describe('members as Stream documents them', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function usersNamed(...prefixes: string[]): Promise<string[]> {
    const ids = prefixes.map((prefix) => uniqueId(prefix));
    await createUsers(env(), ids);
    return ids;
  }

  it('keeps the custom data given with each member at creation and returns it in the state and in queryMembers', async () => {
    const [owner, bond, alec] = await usersNamed('mem-owner', 'mem-bond', 'mem-alec');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('mem-create'), {
      members: [
        { user_id: owner!, code_name: 'M' },
        { user_id: bond!, code_name: '007' },
        { user_id: alec!, code_name: '006' },
      ],
    } as never);
    await channel.create();

    expect(channel.state.members[bond!]).toMatchObject({ user_id: bond, code_name: '007' });
    expect(channel.state.members[owner!]).toMatchObject({ code_name: 'M', channel_role: 'owner' });
    const { members } = await channel.queryMembers({ id: { $in: [alec!] } });
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ user_id: alec, code_name: '006', status: 'member' });
  });

  it('keeps custom data given to addMembers and lets the member set and unset it with updateMemberPartial', async () => {
    const [owner, bond] = await usersNamed('mem-owner', 'mem-bond');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('mem-add'), { members: [owner!] });
    await channel.watch();
    const added = await channel.addMembers([{ user_id: bond!, code_name: '007', rank: 3 }]);
    expect(added.members.find((m) => m.user_id === bond)).toMatchObject({
      code_name: '007',
      rank: 3,
    });
    expect(channel.state.members[bond!]).toMatchObject({ code_name: '007', rank: 3 });

    const bondClient = await connectUser(env(), bond!);
    const bondChannel = bondClient.channel('messaging', channel.id!);
    await bondChannel.watch();
    const updated = await bondChannel.updateMemberPartial({
      set: { code_name: '008', hobby: 'luyện đan' },
      unset: ['rank'],
    });
    expect(updated.channel_member).toMatchObject({ code_name: '008', hobby: 'luyện đan' });
    expect(updated.channel_member).not.toHaveProperty('rank');

    const seenByOwner = await channel.queryMembers({ id: { $eq: bond! } });
    expect(seenByOwner.members[0]).toMatchObject({ code_name: '008', hobby: 'luyện đan' });
    expect(seenByOwner.members[0]).not.toHaveProperty('rank');
  });

  it('lets the server change a channel_role with updateMemberPartial but refuses a client with code 17, changing nothing', async () => {
    const [owner, bond] = await usersNamed('mem-owner', 'mem-bond');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('mem-role'), {
      members: [owner!, bond!],
    });
    await channel.create();

    await expectStreamError(
      channel.updateMemberPartial({ set: { channel_role: 'channel_moderator' } }),
      { code: 17, status: 403, message: /this channel role can only be updated server side/ },
    );
    const bondClient = await connectUser(env(), bond!);
    const bondChannel = bondClient.channel('messaging', channel.id!);
    await bondChannel.watch();
    await expectStreamError(
      bondChannel.updateMemberPartial({ set: { channel_role: 'channel_moderator' } }),
      { code: 17, status: 403 },
    );
    const before = await channel.queryMembers({ id: { $eq: bond! } });
    expect(before.members[0]?.channel_role).toBe('channel_member');

    const serverChannel = env().admin.channel('messaging', channel.id!);
    const promoted = await serverChannel.updateMemberPartial(
      { set: { channel_role: 'channel_moderator' } },
      { userId: bond! },
    );
    expect(promoted.channel_member.channel_role).toBe('channel_moderator');
  });

  it('refuses to let one member edit another member’s custom data, with code 17 and nothing stored', async () => {
    const [owner, bond] = await usersNamed('mem-owner', 'mem-bond');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('mem-other'), {
      members: [owner!, { user_id: bond!, code_name: '007' }],
    } as never);
    await channel.create();

    await expectStreamError(
      channel.partialUpdateMember(bond!, { set: { code_name: 'kẻ phản bội' } }),
      {
        code: 17,
        status: 403,
      },
    );
    const { members } = await channel.queryMembers({ id: { $eq: bond! } });
    expect(members[0]?.code_name).toBe('007');
  });

  it('gives an invited member the pending status until they accept, and finds pending invites with {invite: "pending"}', async () => {
    const [owner, nick, rob] = await usersNamed('inv-owner', 'inv-nick', 'inv-rob');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('inv'), { members: [owner!] });
    await channel.watch();
    await channel.inviteMembers([nick!, rob!]);

    const nickClient = await connectUser(env(), nick!);
    const pending = await nickClient.queryChannels({ invite: 'pending' } as ChannelFilters);
    expect(pending.map((c) => c.cid)).toEqual([channel.cid]);
    expect(pending[0]!.state.members[nick!]).toMatchObject({ invited: true, status: 'pending' });
    const invitedRows = await channel.queryMembers({ invite: 'pending' } as never);
    expect(invitedRows.members.map((m) => m.user_id).sort()).toEqual([nick, rob].sort());

    const nickChannel = pending[0]!;
    const accepted = waitForEvent(channel, 'member.updated', (e) => e.member?.user_id === nick);
    await nickChannel.acceptInvite({ message: { text: 'Nick gia nhập' } } as never);
    await accepted;
    expect(await nickClient.queryChannels({ invite: 'pending' } as ChannelFilters)).toEqual([]);
    const robClient = await connectUser(env(), rob!);
    const robChannel = robClient.channel('messaging', channel.id!);
    await robChannel.watch();
    await robChannel.rejectInvite();

    const byStatus = async (status: string) =>
      (await channel.queryMembers({ invite: status } as never)).members.map((m) => m.user_id);
    expect(await byStatus('accepted')).toEqual([nick]);
    expect(await byStatus('rejected')).toEqual([rob]);
    expect(await byStatus('member')).toEqual([owner]);
    const nickRow = (await channel.queryMembers({ id: { $eq: nick! } })).members[0];
    // As on Stream, an accepted invitee's status is plain `member`; the invite filter still tells them apart.
    expect(nickRow).toMatchObject({ status: 'member', invite_accepted_at: expect.any(String) });
    await expectStreamError(channel.queryMembers({ invite: 'maybe' } as never), { code: 4 });
  });

  it('accepts and rejects invites server-side for the user named by user_id, as Stream documents', async () => {
    const [owner, nick, rob] = await usersNamed('inv-owner', 'inv-nick', 'inv-rob');
    const serverChannel = env().admin.channel('messaging', uniqueId('inv-server'), {
      created_by_id: owner!,
      members: [owner!],
    });
    await serverChannel.create();
    await serverChannel.inviteMembers([nick!, rob!]);
    await serverChannel.acceptInvite({ user_id: nick! } as never);
    await serverChannel.rejectInvite({ user_id: rob! } as never);
    const { members } = await serverChannel.queryMembers({}, { user_id: 1 });
    const statusOf = (id: string) => members.find((m) => m.user_id === id)?.status;
    expect([statusOf(nick!), statusOf(rob!), statusOf(owner!)]).toEqual([
      'member',
      'rejected',
      'member',
    ]);
  });

  it('does not count messages as unread for a pending invite, as Stream documents, and counts them once accepted', async () => {
    const [owner, nick] = await usersNamed('inv-owner', 'inv-nick');
    const client = await connectUser(env(), owner!);
    const channel = client.channel('messaging', uniqueId('inv-unread'), { members: [owner!] });
    await channel.watch();
    await channel.inviteMembers([nick!]);
    await channel.sendMessage({ text: 'Mời đạo hữu' });
    const nickClient = await connectUser(env(), nick!);
    expect((await nickClient.getUnreadCount()).total_unread_count).toBe(0);
    const nickChannel = nickClient.channel('messaging', channel.id!);
    await nickChannel.watch();
    await nickChannel.acceptInvite();
    await channel.sendMessage({ text: 'Chào mừng' });
    expect((await nickClient.getUnreadCount()).total_unread_count).toBeGreaterThan(0);
  });

  it('pages queryMembers with user_id_gt / user_id_lt and created_at_after / before, each returning exactly the next page', async () => {
    const prefix = uniqueId('pg');
    const ids = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${prefix}-${letter}`);
    await createUsers(env(), ids);
    const channel = env().admin.channel('messaging', uniqueId('mem-page'), {
      created_by_id: ids[0]!,
    });
    await channel.create();
    // One at a time, so each member has its own joining time.
    for (const id of ids) await channel.addMembers([id]);
    const all = (await channel.queryMembers({}, { user_id: 1 })).members;
    expect(all.map((m) => m.user_id)).toEqual(ids);

    const firstPage = await channel.queryMembers({}, { user_id: 1 }, { limit: 2 });
    expect(firstPage.members.map((m) => m.user_id)).toEqual(ids.slice(0, 2));
    const next = await channel.queryMembers(
      {},
      { user_id: 1 },
      {
        limit: 2,
        user_id_gt: firstPage.members[1]!.user_id,
      },
    );
    expect(next.members.map((m) => m.user_id)).toEqual(ids.slice(2, 4));
    const gte = await channel.queryMembers({}, { user_id: 1 }, { user_id_gte: ids[3]! });
    expect(gte.members.map((m) => m.user_id)).toEqual(ids.slice(3));
    const below = await channel.queryMembers({}, { user_id: -1 }, { user_id_lt: ids[2]! });
    expect(below.members.map((m) => m.user_id)).toEqual([ids[1], ids[0]]);
    const lte = await channel.queryMembers({}, { user_id: 1 }, { user_id_lte: ids[1]! });
    expect(lte.members.map((m) => m.user_id)).toEqual(ids.slice(0, 2));

    const third = all[2]!.created_at!;
    const after = await channel.queryMembers({}, { created_at: 1 }, { created_at_after: third });
    expect(after.members.map((m) => m.user_id)).toEqual(ids.slice(3));
    const afterOrEqual = await channel.queryMembers(
      {},
      { created_at: 1 },
      {
        created_at_after_or_equal: third,
      },
    );
    expect(afterOrEqual.members.map((m) => m.user_id)).toEqual(ids.slice(2));
    const before = await channel.queryMembers({}, { created_at: 1 }, { created_at_before: third });
    expect(before.members.map((m) => m.user_id)).toEqual(ids.slice(0, 2));
    const beforeOrEqual = await channel.queryMembers(
      {},
      { created_at: 1 },
      {
        created_at_before_or_equal: third,
        offset: 1,
      },
    );
    expect(beforeOrEqual.members.map((m) => m.user_id)).toEqual(ids.slice(1, 3));
  });

  it('refuses bad paging values with code 4 naming the option', async () => {
    const [owner] = await usersNamed('mem-owner');
    const channel = env().admin.channel('messaging', uniqueId('mem-badpage'), {
      created_by_id: owner!,
      members: [owner!],
    });
    await channel.create();
    await expectStreamError(channel.queryMembers({}, {}, { created_at_after: 'hôm qua' }), {
      code: 4,
      status: 400,
      message: /created_at_after/,
    });
    await expectStreamError(channel.queryMembers({}, {}, { user_id_gt: 5 as never }), {
      code: 4,
      message: /user_id_gt/,
    });
    await expectStreamError(channel.queryMembers({}, {}, { limit: -1 }), {
      code: 4,
      message: /limit/,
    });
    await expectStreamError(channel.queryMembers({}, {}, { offset: 1.5 }), {
      code: 4,
      message: /offset/,
    });
  });
});
