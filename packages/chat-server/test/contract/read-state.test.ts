import type { Channel, GetUnreadCountAPIResponse, MessageResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  nth,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('read state', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function setup(prefix: string, channels = 1) {
    const aliceId = uniqueId(`${prefix}-a`);
    const bobId = uniqueId(`${prefix}-b`);
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const pairs: Array<{ aliceChannel: Channel; bobChannel: Channel }> = [];
    for (let i = 0; i < channels; i += 1) {
      const channelId = uniqueId(prefix);
      const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
        members: [aliceId, bobId],
      });
      const bobChannel = await watchChannel(bob, 'messaging', channelId);
      pairs.push({ aliceChannel, bobChannel });
    }
    return { aliceId, bobId, alice, bob, pairs };
  }

  /** Sends from `from` and resolves once `to` has applied each message.new. */
  async function sendSeen(from: Channel, to: Channel, texts: string[]): Promise<MessageResponse[]> {
    const sent: MessageResponse[] = [];
    for (const text of texts) {
      const seen = waitForEvent(to, 'message.new', (event) => event.message?.text === text);
      sent.push(await sendText(from, text));
      await seen;
    }
    return sent;
  }

  function unreadFor(response: GetUnreadCountAPIResponse, channel: Channel): number | undefined {
    return response.channels.find(
      (item) => item.channel_id === channel.cid || item.channel_id === channel.id,
    )?.unread_count;
  }

  it('counts unread messages for the other member, on the live client and on the server', async () => {
    const { bobId, pairs } = await setup('count');
    const { aliceChannel, bobChannel } = nth(pairs, 0);

    await sendSeen(aliceChannel, bobChannel, ['Một', 'Hai', 'Ba']);

    expect(bobChannel.countUnread()).toBe(3);
    expect(bobChannel.state.unreadCount).toBe(3);
    // The sender's client never counts its own messages for others, so ask the server as alice.
    const asAlice = await aliceChannel.query({ messages: { limit: 10 } });
    expect(asAlice.read?.find((read) => read.user.id === bobId)?.unread_messages).toBe(3);
    const second = await connectUser(env(), bobId);
    const fresh = await watchChannel(second, 'messaging', bobChannel.id ?? '');
    expect(fresh.state.unreadCount).toBe(3);
    expect(fresh.countUnread()).toBe(3);
  });

  it('stops counting unread messages at 255 per channel, as Stream does', async () => {
    const { aliceId, bobId, pairs } = await setup('cap');
    const { aliceChannel } = nth(pairs, 0);
    const asServer = env().admin.channel('messaging', aliceChannel.id);
    for (let batch = 0; batch < 13; batch += 1) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          asServer.sendMessage({ text: `Tin ${batch * 20 + i}`, user_id: aliceId }),
        ),
      );
    }

    const second = await connectUser(env(), bobId);
    const fresh = await watchChannel(second, 'messaging', aliceChannel.id ?? '');
    expect(fresh.state.unreadCount).toBe(255);
    const unread = await second.getUnreadCount();
    expect(unreadFor(unread, fresh)).toBe(255);
    expect(unread.total_unread_count).toBe(255);
    const asAlice = await aliceChannel.query({ messages: { limit: 1 } });
    expect(asAlice.read?.find((read) => read.user.id === bobId)?.unread_messages).toBe(255);
  });

  it('marks a channel read: watchers get message.read, the reader gets notification.mark_read with the cid', async () => {
    const { bob, bobId, pairs } = await setup('read');
    const { aliceChannel, bobChannel } = nth(pairs, 0);
    const sent = await sendSeen(aliceChannel, bobChannel, ['Một', 'Hai']);

    const readSeen = waitForEvent(
      aliceChannel,
      'message.read',
      (event) => event.user?.id === bobId,
    );
    const notified = waitForEvent(
      bob,
      'notification.mark_read',
      (event) => event.cid === bobChannel.cid,
    );
    const response = await bobChannel.markRead();
    const readEvent = await readSeen;
    await notified;

    expect(response).not.toBeNull();
    expect(readEvent.last_read_message_id).toBe(sent[1]?.id);
    expect(aliceChannel.state.read[bobId]?.unread_messages).toBe(0);
    expect(aliceChannel.state.read[bobId]?.last_read_message_id).toBe(sent[1]?.id);
    expect(bobChannel.state.unreadCount).toBe(0);
    const counts = await bob.getUnreadCount();
    expect(counts.total_unread_count).toBe(0);
  });

  it('marks a channel unread from a message: notification.mark_unread sets the count back', async () => {
    const { bob, bobId, pairs } = await setup('unread');
    const { aliceChannel, bobChannel } = nth(pairs, 0);
    const sent = await sendSeen(aliceChannel, bobChannel, ['Một', 'Hai', 'Ba']);
    await bobChannel.markRead();
    expect(bobChannel.state.unreadCount).toBe(0);

    const unread = waitForEvent(
      bob,
      'notification.mark_unread',
      (event) => event.cid === bobChannel.cid,
    );
    await bobChannel.markUnread({ message_id: sent[1]?.id });
    const event = await unread;

    expect(event).toMatchObject({ unread_messages: 2, first_unread_message_id: sent[1]?.id });
    expect(event.last_read_message_id).toBe(sent[0]?.id);
    expect(bobChannel.state.unreadCount).toBe(2);
    expect(bobChannel.state.read[bobId]?.first_unread_message_id).toBe(sent[1]?.id);
    const counts = await bob.getUnreadCount();
    expect(counts.total_unread_count).toBe(2);
    expect(unreadFor(counts, bobChannel)).toBe(2);
  });

  it('reports unread counts per channel, per channel type and in total with getUnreadCount', async () => {
    const { bob, pairs } = await setup('count-all', 2);
    const [first, second] = [nth(pairs, 0), nth(pairs, 1)];
    await sendSeen(first.aliceChannel, first.bobChannel, ['Một', 'Hai']);
    await sendSeen(second.aliceChannel, second.bobChannel, ['Ba']);

    const counts = await bob.getUnreadCount();

    expect(counts.total_unread_count).toBe(3);
    expect(unreadFor(counts, first.bobChannel)).toBe(2);
    expect(unreadFor(counts, second.bobChannel)).toBe(1);
    expect(counts.channel_type).toEqual([
      expect.objectContaining({ channel_type: 'messaging', channel_count: 2, unread_count: 3 }),
    ]);
  });

  it('marks everything read with one call: notification.mark_read without cid zeroes every channel', async () => {
    const { bob, pairs } = await setup('read-all', 2);
    const [first, second] = [nth(pairs, 0), nth(pairs, 1)];
    await sendSeen(first.aliceChannel, first.bobChannel, ['Một']);
    await sendSeen(second.aliceChannel, second.bobChannel, ['Hai', 'Ba']);
    expect(first.bobChannel.state.unreadCount + second.bobChannel.state.unreadCount).toBe(3);

    const notified = waitForEvent(
      bob,
      'notification.mark_read',
      (event) => event.cid === undefined,
    );
    await bob.markChannelsRead();
    const event = await notified;

    expect(event.unread_channels).toBe(0);
    expect(first.bobChannel.state.unreadCount).toBe(0);
    expect(second.bobChannel.state.unreadCount).toBe(0);
    expect((await bob.getUnreadCount()).total_unread_count).toBe(0);
  });
});
