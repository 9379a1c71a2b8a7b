import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The per-user unread fields of an event, as the raw JSON carried them. */
function totalsOf(event: Event) {
  return {
    total_unread_count: event.total_unread_count,
    unread_channels: event.unread_channels,
    unread_count: event.unread_count,
  };
}

describe('edited messages and unread totals', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('sets message_text_updated_at when an edit changes the text, and not for pins, reactions or custom data', async () => {
    const { alice, bob, aliceChannel, bobChannel } = await twoMembers(env(), 'edit');
    const first = await sendText(aliceChannel, 'Bản nháp');
    const second = await sendText(aliceChannel, 'Bản thứ hai');

    const pinned = await alice.pinMessage(first);
    await aliceChannel.sendReaction(first.id, { type: 'love' });
    const custom = await alice.partialUpdateMessage(first.id, { set: { canh_gioi: 'Kim Đan' } });
    expect(pinned.message.message_text_updated_at).toBeUndefined();
    expect(custom.message.message_text_updated_at).toBeUndefined();

    const updated = waitForEvent(
      bobChannel,
      'message.updated',
      (event) => event.message?.id === first.id && event.message.text === 'Bản chính thức',
    );
    const edited = await alice.updateMessage({ id: first.id, text: 'Bản chính thức' });
    const event = await updated;

    expect(edited.message.message_text_updated_at).toMatch(ISO);
    expect(event.message?.message_text_updated_at).toBe(edited.message.message_text_updated_at);
    expect(
      bobChannel.state.messages.find((message) => message.id === first.id)?.message_text_updated_at,
    ).toBe(edited.message.message_text_updated_at);
    const partial = await alice.partialUpdateMessage(second.id, { set: { text: 'Sửa một phần' } });
    expect(partial.message.message_text_updated_at).toMatch(ISO);
    const reread = await bob.getMessage(first.id);
    expect(reread.message.message_text_updated_at).toBe(edited.message.message_text_updated_at);
    const repinned = await alice.unpinMessage(first);
    expect(repinned.message.message_text_updated_at).toBe(edited.message.message_text_updated_at);
  });

  it('leaves channels whose type has read events off (livestream) out of every unread count', async () => {
    const aliceId = uniqueId('live-a');
    const bobId = uniqueId('live-b');
    await createUsers(env(), [aliceId, bobId]);
    const liveId = uniqueId('live');
    const chatId = uniqueId('chat');
    await createChannelAsServer(env(), 'livestream', liveId, aliceId, {
      members: [aliceId, bobId],
    });
    await createChannelAsServer(env(), 'messaging', chatId, aliceId, {
      members: [aliceId, bobId],
    });
    const alice = await connectUser(env(), aliceId);
    const aliceLive = await watchChannel(alice, 'livestream', liveId);
    const aliceChat = await watchChannel(alice, 'messaging', chatId);
    await sendText(aliceLive, 'Phát sóng một');
    await sendText(aliceLive, 'Phát sóng hai');
    await sendText(aliceChat, 'Chào đạo hữu');

    const bob = await connectUser(env(), bobId);
    const me = bob.user as { total_unread_count?: number; unread_channels?: number };
    expect(me.total_unread_count).toBe(1);
    expect(me.unread_channels).toBe(1);
    const counts = await bob.getUnreadCount();
    expect(counts.total_unread_count).toBe(1);
    expect(counts.channels.map((item) => item.channel_id)).toEqual([`messaging:${chatId}`]);
    expect(
      counts.channel_type.find((item) => item.channel_type === 'livestream')?.unread_count ?? 0,
    ).toBe(0);
    const asAlice = await aliceLive.query({ messages: { limit: 10 } });
    expect(asAlice.read?.find((read) => read.user.id === bobId)?.unread_messages).toBe(0);
    const bobChat = await watchChannel(bob, 'messaging', chatId);
    expect(bobChat.state.unreadCount).toBe(1);
  });

  it('puts the receiver’s own unread totals on message.new and notification.message_new, and only members get them', async () => {
    const aliceId = uniqueId('tot-a');
    const bobId = uniqueId('tot-b');
    const carolId = uniqueId('tot-c');
    await createUsers(env(), [aliceId, bobId, carolId]);
    const watchedId = uniqueId('watched');
    const otherId = uniqueId('other');
    const liveId = uniqueId('live');
    for (const [type, id] of [
      ['messaging', watchedId],
      ['messaging', otherId],
      ['livestream', liveId],
    ] as const) {
      await createChannelAsServer(env(), type, id, aliceId, { members: [aliceId, bobId] });
    }
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const carol = await connectUser(env(), carolId);
    const aliceWatched = await watchChannel(alice, 'messaging', watchedId);
    const aliceOther = await watchChannel(alice, 'messaging', otherId);
    const aliceLive = await watchChannel(alice, 'livestream', liveId);
    const bobWatched = await watchChannel(bob, 'messaging', watchedId);
    const bobLive = await watchChannel(bob, 'livestream', liveId);
    const carolLive = await watchChannel(carol, 'livestream', liveId);

    const bobNew = waitForEvent(bobWatched, 'message.new');
    await sendText(aliceWatched, 'Một');
    expect(totalsOf(await bobNew)).toEqual({
      total_unread_count: 1,
      unread_channels: 1,
      unread_count: 1,
    });

    // Bob's own copy of message.new goes out before his notification on the same socket: had it reached his socket,
    // which does not watch that channel, it would have arrived first.
    const bobTypes: string[] = [];
    const recording = bob.on((event) => {
      if (event.cid === aliceOther.cid) bobTypes.push(event.type);
    });
    const bobNotified = waitForEvent(
      bob,
      'notification.message_new',
      (event) => event.cid === aliceOther.cid,
    );
    await sendText(aliceOther, 'Hai');
    expect(totalsOf(await bobNotified)).toEqual({
      total_unread_count: 2,
      unread_channels: 2,
      unread_count: 2,
    });
    recording.unsubscribe();
    expect(bobTypes).toEqual(['notification.message_new']);

    const bobLiveNew = waitForEvent(bobLive, 'message.new');
    const carolLiveNew = waitForEvent(carolLive, 'message.new');
    const aliceLiveNew = waitForEvent(aliceLive, 'message.new');
    const live = await sendText(aliceLive, 'Phát sóng');
    expect(totalsOf(await bobLiveNew)).toEqual({
      total_unread_count: 2,
      unread_channels: 2,
      unread_count: 2,
    });
    expect(totalsOf(await aliceLiveNew)).toEqual({
      total_unread_count: 0,
      unread_channels: 0,
      unread_count: 0,
    });
    const carolEvent = await carolLiveNew;
    expect(carolEvent.message?.id).toBe(live.id);
    expect(totalsOf(carolEvent)).toEqual({
      total_unread_count: undefined,
      unread_channels: undefined,
      unread_count: undefined,
    });
  });

  it('gives the reader message.read and notification.mark_read with the updated totals, other watchers none', async () => {
    const aliceId = uniqueId('read-a');
    const bobId = uniqueId('read-b');
    await createUsers(env(), [aliceId, bobId]);
    const firstId = uniqueId('first');
    const secondId = uniqueId('second');
    for (const id of [firstId, secondId])
      await createChannelAsServer(env(), 'messaging', id, aliceId, { members: [aliceId, bobId] });
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const aliceFirst = await watchChannel(alice, 'messaging', firstId);
    const aliceSecond = await watchChannel(alice, 'messaging', secondId);
    const bobFirst = await watchChannel(bob, 'messaging', firstId);
    const delivered = waitForEvent(bob, 'notification.message_new');
    await sendText(aliceFirst, 'Một');
    await sendText(aliceFirst, 'Hai');
    await sendText(aliceSecond, 'Ba');
    await delivered;

    const ownRead = waitForEvent(bobFirst, 'message.read', (event) => event.user?.id === bobId);
    const othersRead = waitForEvent(
      aliceFirst,
      'message.read',
      (event) => event.user?.id === bobId,
    );
    const markRead = waitForEvent(
      bob,
      'notification.mark_read',
      (event) => event.cid === bobFirst.cid,
    );
    await bobFirst.markRead();

    const expected = { total_unread_count: 1, unread_channels: 1, unread_count: 1 };
    expect(totalsOf(await ownRead)).toEqual(expected);
    expect(totalsOf(await markRead)).toEqual(expected);
    expect(totalsOf(await othersRead)).toEqual({
      total_unread_count: undefined,
      unread_channels: undefined,
      unread_count: undefined,
    });
  });
});
