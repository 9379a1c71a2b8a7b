import type { Event, OwnUserResponse, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

/** Cids of alice's channel list for the given filter, as the channel list asks for it. */
async function listedCids(client: StreamChat, userId: string, extra: object = {}) {
  const channels = await client.queryChannels(
    { type: 'messaging', members: { $in: [userId] }, ...extra },
    { last_message_at: -1 },
    { limit: 30 },
  );
  return channels.map((channel) => ({ cid: channel.cid, blocked: channel.data?.blocked === true }));
}

/** Alice and bob with a distinct conversation, a two-member channel the app named itself, and a group with carol. */
async function scene(env: Parameters<typeof connectUser>[0]) {
  const aliceId = uniqueId('chan-nhan');
  const bobId = uniqueId('ke-quay');
  const carolId = uniqueId('ban-chung');
  const alice = await connectUser(env, aliceId);
  const bob = await connectUser(env, bobId);
  await connectUser(env, carolId);
  const distinct = bob.channel('messaging', { members: [aliceId, bobId] });
  await distinct.watch();
  const named = await watchChannel(bob, 'messaging', uniqueId('dm'), {
    members: [aliceId, bobId],
  });
  const group = await watchChannel(bob, 'messaging', uniqueId('nhom'), {
    members: [aliceId, bobId, carolId],
  });
  for (const channel of [distinct, named, group]) await sendText(channel, 'Chào đạo hữu');
  return { aliceId, bobId, alice, bob, distinct, named, group };
}

describe('blocks in one-to-one conversations', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('hides the blocker’s one-to-one conversations from their channel list, flags them blocked when hidden channels are asked for, and brings them back after unblocking', async () => {
    const { aliceId, bobId, alice, bob, distinct, named, group } = await scene(env());
    const oneToOne = [distinct.cid, named.cid].sort();
    const hiddenEvents: string[] = [];
    alice.on('channel.hidden', (event: Event) => {
      if (event.channel?.blocked === true && event.cid) hiddenEvents.push(event.cid);
    });
    const bothHidden = waitForEvent(alice, 'channel.hidden', () => hiddenEvents.length === 2);

    await alice.blockUser(bobId);
    await bothHidden;
    expect(hiddenEvents.sort()).toEqual(oneToOne);
    expect(await listedCids(alice, aliceId)).toEqual([{ cid: group.cid, blocked: false }]);
    const hidden = await listedCids(alice, aliceId, { hidden: true });
    expect(hidden.map((c) => c.cid).sort()).toEqual(oneToOne);
    expect(hidden.every((c) => c.blocked)).toBe(true);
    // The blocked user's own list is unchanged.
    expect((await listedCids(bob, bobId)).map((c) => c.cid).sort()).toEqual(
      [distinct.cid, named.cid, group.cid].sort(),
    );

    const visible = waitForEvent(alice, 'channel.visible', (e) => e.cid === distinct.cid);
    await alice.unBlockUser(bobId);
    expect((await visible).channel?.blocked).toBe(false);
    const back = await listedCids(alice, aliceId);
    expect(back.map((c) => c.cid).sort()).toEqual([distinct.cid, named.cid, group.cid].sort());
    expect(back.some((c) => c.blocked)).toBe(false);
    expect(await listedCids(alice, aliceId, { hidden: true })).toEqual([]);
  });

  it('stops the blocked user’s events reaching the blocker in their conversation, but not in a group', async () => {
    const { aliceId, bobId, alice, named, group } = await scene(env());
    const aliceNamed = await watchChannel(alice, 'messaging', named.id!);
    const aliceGroup = await watchChannel(alice, 'messaging', group.id!);
    await alice.blockUser(bobId);
    const fromBob: string[] = [];
    alice.on((event: Event) => {
      if (event.cid === named.cid && event.user?.id === bobId) fromBob.push(event.type);
    });

    const groupTyping = waitForEvent(aliceGroup, 'typing.start', (e) => e.user?.id === bobId);
    await group.keystroke();
    await groupTyping;
    await named.keystroke();
    await named.markRead();
    // The server keeps a channel's events in order: once alice's own later message arrives, bob's are settled.
    const own = waitForEvent(aliceNamed, 'message.new', (e) => e.user?.id === aliceId);
    await sendText(aliceNamed, 'Ta vẫn ở đây');
    await own;
    expect(fromBob).toEqual([]);
  });

  it('leaves what the blocked user wrote in the one-to-one conversations out of the blocker’s unread counts, but not in a group, until the unblock', async () => {
    const { aliceId, bobId, alice, distinct, named, group } = await scene(env());
    const unread = async () => {
      const counts = await alice.getUnreadCount();
      const byChannel = Object.fromEntries(
        counts.channels.map((entry) => [entry.channel_id, entry.unread_count]),
      );
      return { total: counts.total_unread_count, byChannel };
    };
    expect((await unread()).total).toBe(3);

    await alice.blockUser(bobId);
    // The product backend's server-side sends are not refused by a block; they must not count either.
    await env()
      .admin.channel('messaging', distinct.id!)
      .sendMessage({ text: 'Vẫn nhớ ta chứ?', user_id: bobId });
    expect(await unread()).toEqual({ total: 1, byChannel: { [group.cid]: 1 } });
    // The same totals reach the blocker on their next connection.
    const again = await connectUser(env(), aliceId);
    expect((again.user as OwnUserResponse | undefined)?.total_unread_count).toBe(1);

    await alice.unBlockUser(bobId);
    expect(await unread()).toEqual({
      total: 4,
      byChannel: { [distinct.cid]: 2, [named.cid]: 1, [group.cid]: 1 },
    });
  });

  it('refuses the blocked user’s sends, edits and reactions in a conversation the app named itself, and lets them resume after unblocking', async () => {
    const { bobId, alice, bob, named } = await scene(env());
    const earlier = await sendText(named, 'Lời cũ');
    await alice.blockUser(bobId);

    await expectStreamError(named.sendMessage({ text: 'Bị chặn rồi' }), { code: 17, status: 403 });
    await expectStreamError(bob.updateMessage({ id: earlier.id, text: 'Sửa lại' }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(bob.partialUpdateMessage(earlier.id, { set: { text: 'Sửa' } }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(named.sendReaction(earlier.id, { type: 'like' }), {
      code: 17,
      status: 403,
    });
    const stored = await env().admin.getMessage(earlier.id);
    expect(stored.message.text).toBe('Lời cũ');
    expect(stored.message.reaction_counts ?? {}).toEqual({});

    await alice.unBlockUser(bobId);
    await bob.partialUpdateMessage(earlier.id, { set: { text: 'Đã sửa' } });
    await named.sendReaction(earlier.id, { type: 'like' });
    expect((await env().admin.getMessage(earlier.id)).message.text).toBe('Đã sửa');
  });

  it('stops the blocked user’s events and refuses their edits in the distinct conversation created without an id, as in one the app named', async () => {
    const { aliceId, bobId, alice, bob, distinct } = await scene(env());
    const earlier = await sendText(distinct, 'Lời cũ');
    const aliceDistinct = alice.channel('messaging', { members: [aliceId, bobId] });
    await aliceDistinct.watch();
    expect(aliceDistinct.cid).toBe(distinct.cid);
    await alice.blockUser(bobId);
    const fromBob: string[] = [];
    alice.on((event: Event) => {
      if (event.cid === distinct.cid && event.user?.id === bobId) fromBob.push(event.type);
    });

    await distinct.keystroke();
    await distinct.markRead();
    await expectStreamError(bob.updateMessage({ id: earlier.id, text: 'Sửa lại' }), {
      code: 17,
      status: 403,
    });
    const own = waitForEvent(aliceDistinct, 'message.new', (e) => e.user?.id === aliceId);
    await sendText(aliceDistinct, 'Ta vẫn ở đây');
    await own;
    expect(fromBob).toEqual([]);
    expect((await env().admin.getMessage(earlier.id)).message.text).toBe('Lời cũ');
  });

  it('applies the block to a one-to-one conversation with an explicit id that the blocked user creates after the block', async () => {
    const aliceId = uniqueId('chan-nhan');
    const bobId = uniqueId('ke-quay');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    await alice.blockUser(bobId);

    const later = await watchChannel(bob, 'messaging', uniqueId('dm-moi'), {
      members: [aliceId, bobId],
    });
    await expectStreamError(later.sendMessage({ text: 'Mở lời lại' }), { code: 17, status: 403 });
    expect(await listedCids(alice, aliceId)).toEqual([]);
    expect(await listedCids(alice, aliceId, { hidden: true })).toEqual([
      { cid: later.cid, blocked: true },
    ]);
    expect((await later.query({ messages: { limit: 10 } })).messages).toEqual([]);

    await alice.unBlockUser(bobId);
    await sendText(later, 'Đã được bỏ chặn');
    expect(await listedCids(alice, aliceId)).toEqual([{ cid: later.cid, blocked: false }]);
  });

  it('answers bad block and unblock requests with Stream’s input error', async () => {
    const aliceId = uniqueId('chan-nhan');
    await connectUser(env(), aliceId);
    for (const path of ['/users/block', '/users/unblock']) {
      for (const body of [{}, { blocked_user_id: ['x'] }, { blocked_user_id: '' }]) {
        const response = await rawRequest(env(), { method: 'POST', path, userId: aliceId, body });
        expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(response.body).toMatchObject({ code: 4 });
      }
    }
  });
});
