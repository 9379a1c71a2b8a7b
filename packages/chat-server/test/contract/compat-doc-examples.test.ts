import type { ChannelFilters } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Behaviours Stream's JavaScript documentation examples rely on that the other contract files do not cover.
describe("what Stream's documentation examples rely on", { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('invites the users named in `invites` when a channel is created, with a pending invitation they can accept', async () => {
    const [owner, josh] = [uniqueId('doc-inv-owner'), uniqueId('doc-inv-josh')];
    await createUsers(env(), [owner, josh]);
    const client = await connectUser(env(), owner);
    const channel = client.channel('messaging', uniqueId('doc-inv'), {
      name: 'Founder Chat',
      members: [owner],
      invites: [josh],
    } as never);
    await channel.create();

    expect(channel.state.members[josh]).toMatchObject({ invited: true, status: 'pending' });
    expect(channel.data).not.toHaveProperty('invites');
    const joshClient = await connectUser(env(), josh);
    const pending = await joshClient.queryChannels({ invite: 'pending' } as ChannelFilters);
    expect(pending.map((c) => c.cid)).toEqual([channel.cid]);

    // The docs' `joined` field: members are, an invitee is not until they accept.
    const joined = async (value: boolean) =>
      (await channel.queryMembers({ joined: value } as never)).members.map((m) => m.user_id);
    expect(await joined(true)).toEqual([owner]);
    expect(await joined(false)).toEqual([josh]);
    await expectStreamError(channel.queryMembers({ joined: 'yes' } as never), { code: 4 });

    await channel.watch();
    const accepted = waitForEvent(channel, 'member.updated', (e) => e.member?.user_id === josh);
    await pending[0]!.acceptInvite({ message: { text: 'Josh joined this channel!' } } as never);
    await accepted;
    const { members } = await channel.queryMembers({ invite: 'accepted' } as never);
    expect(members.map((m) => m.user_id)).toEqual([josh]);
    expect((await joined(true)).sort()).toEqual([owner, josh].sort());
    expect(await joined(false)).toEqual([]);
  });

  it('treats a user listed both in `members` and in `invites` as a member', async () => {
    const [owner, josh] = [uniqueId('doc-both-owner'), uniqueId('doc-both-josh')];
    await createUsers(env(), [owner, josh]);
    const client = await connectUser(env(), owner);
    const channel = client.channel('messaging', uniqueId('doc-both'), {
      members: [owner, josh],
      invites: [josh],
    } as never);
    await channel.create();

    expect(channel.state.members[josh]).not.toHaveProperty('invited', true);
    const { members } = await channel.queryMembers({ invite: 'pending' } as never);
    expect(members).toEqual([]);
  });

  it('refuses bad `invites` at creation (not a list: 4; a channel role from a client: 17) and creates nothing', async () => {
    const [owner, josh] = [uniqueId('doc-bad-owner'), uniqueId('doc-bad-josh')];
    await createUsers(env(), [owner, josh]);
    const client = await connectUser(env(), owner);
    const notList = client.channel('messaging', uniqueId('doc-bad'), {
      members: [owner],
      invites: josh,
    } as never);
    await expectStreamError(notList.create(), { code: 4, status: 400, message: /invites/ });
    const withRole = client.channel('messaging', uniqueId('doc-bad'), {
      members: [owner],
      invites: [{ user_id: josh, channel_role: 'channel_moderator' }],
    } as never);
    await expectStreamError(withRole.create(), { code: 17, status: 403 });

    const created = await env().admin.queryChannels({ cid: { $in: [notList.cid, withRole.cid] } });
    expect(created).toEqual([]);
  });

  it('sets and unsets nested custom fields named with dots in a partial channel update, keeping the other keys', async () => {
    const { aliceChannel, bobChannel } = await twoMembers(env(), 'doc-nested', {
      data: { source_detail: { user_id: 123, origin: 'web' } } as never,
    });

    const updated = waitForEvent(
      bobChannel,
      'channel.updated',
      (e) =>
        (e.channel as { source_detail?: { user_id?: number } } | undefined)?.source_detail
          ?.user_id === 456,
    );
    const set = await aliceChannel.updatePartial({
      set: { 'source_detail.user_id': 456 },
    } as never);
    await updated;
    expect(set.channel).toHaveProperty('source_detail', { user_id: 456, origin: 'web' });
    expect(set.channel).not.toHaveProperty(['source_detail.user_id']);

    const unset = await aliceChannel.updatePartial({ unset: ['source_detail.origin'] } as never);
    expect(unset.channel).toHaveProperty('source_detail', { user_id: 456 });
    const created = await aliceChannel.updatePartial({ set: { 'a.b.c': 1 } } as never);
    expect(created.channel).toMatchObject({ a: { b: { c: 1 } }, source_detail: { user_id: 456 } });
  });

  it('refuses a dotted key that starts at a built-in channel field with code 4 and changes nothing', async () => {
    const { aliceChannel } = await twoMembers(env(), 'doc-nested-bad', {
      data: { source_detail: { user_id: 1 } } as never,
    });

    await expectStreamError(aliceChannel.updatePartial({ set: { 'frozen.x': true } } as never), {
      code: 4,
      status: 400,
      message: /frozen\.x/,
    });
    await expectStreamError(
      aliceChannel.updatePartial({ set: { 'source_detail..x': 1 } } as never),
      {
        code: 4,
        status: 400,
      },
    );
    const [channel] = await env().admin.queryChannels({ cid: aliceChannel.cid });
    expect(channel!.data).toMatchObject({ frozen: false, source_detail: { user_id: 1 } });
  });

  it('answers the unread counts of several users at once for a server-side getUnreadCountBatch', async () => {
    const { aliceChannel, aliceId, bobId } = await twoMembers(env(), 'doc-unread-batch');
    await aliceChannel.sendMessage({ text: 'một' });
    await aliceChannel.sendMessage({ text: 'hai' });
    const nobody = uniqueId('doc-nobody');

    const { counts_by_user } = await env().admin.getUnreadCountBatch([
      bobId,
      aliceId,
      nobody,
      bobId,
    ]);

    expect(Object.keys(counts_by_user).sort()).toEqual([aliceId, bobId, nobody].sort());
    expect(counts_by_user[bobId]).toMatchObject({
      total_unread_count: 2,
      channels: [{ channel_id: aliceChannel.cid, unread_count: 2 }],
    });
    expect(counts_by_user[bobId]).toEqual(await env().admin.getUnreadCount(bobId).then(strip));
    expect(counts_by_user[aliceId]).toMatchObject({ total_unread_count: 0, channels: [] });
    expect(counts_by_user[nobody]).toMatchObject({ total_unread_count: 0, channels: [] });
  });

  it('refuses getUnreadCountBatch from a user token (17) and bad user_ids (4)', async () => {
    const { alice, bobId } = await twoMembers(env(), 'doc-unread-batch-bad');
    await expectStreamError(alice.getUnreadCountBatch([bobId]), { code: 17, status: 403 });
    await expectStreamError(env().admin.getUnreadCountBatch([]), {
      code: 4,
      status: 400,
      message: /user_ids/,
    });
    const tooMany = Array.from({ length: 101 }, (_, i) => `u${i}`);
    await expectStreamError(env().admin.getUnreadCountBatch(tooMany), {
      code: 4,
      status: 400,
      message: /user_ids/,
    });
    await expectStreamError(env().admin.getUnreadCountBatch('x' as never), {
      code: 4,
      status: 400,
      message: /user_ids/,
    });
  });
});

/** A reply without the per-request `duration`, to compare two answers. */
function strip<T extends { duration?: string }>(reply: T): Omit<T, 'duration'> {
  const { duration: _duration, ...rest } = reply;
  return rest;
}
