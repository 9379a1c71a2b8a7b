import type { Channel, MessageResponse, StreamChat } from 'stream-chat';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  connectUser,
  ids,
  nth,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('threads', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  let bob: StreamChat;
  let carol: StreamChat;
  let bobId: string;
  let carolId: string;
  let aliceChannel: Channel;
  let bobChannel: Channel;
  let carolChannel: Channel;

  beforeAll(async () => {
    const { members } = await channelWithMembers(env(), 'tang-kinh-cac', {
      users: ['hoang-lao', 'to-minh', 'han-nguyet'],
    });
    aliceChannel = nth(members, 0).channel;
    ({ client: bob, id: bobId, channel: bobChannel } = nth(members, 1));
    ({ client: carol, id: carolId, channel: carolChannel } = nth(members, 2));
  }, 30_000);

  /** A parent by alice with replies alternating bob, carol, bob, … */
  async function thread(
    text: string,
    replies: number,
  ): Promise<{ parent: MessageResponse; replies: MessageResponse[] }> {
    const parent = await sendText(aliceChannel, text);
    const sent: MessageResponse[] = [];
    for (let i = 0; i < replies; i += 1) {
      sent.push(
        await sendText(i % 2 === 0 ? bobChannel : carolChannel, `${text} — đáp ${i}`, {
          parent_id: parent.id,
        }),
      );
    }
    return { parent, replies: sent };
  }

  it('queries the user’s threads with limit, participant_limit and reply_limit, paging with next', async () => {
    const viewerId = uniqueId('viewer');
    const viewer = await connectUser(env(), viewerId);
    const channelId = uniqueId('luan-dao');
    const channel = await watchChannel(viewer, 'messaging', channelId, {
      members: [viewerId, bobId, carolId],
    });
    const bobView = await watchChannel(bob, 'messaging', channelId);
    const parents: string[] = [];
    for (const title of ['Kiếm', 'Đan', 'Trận']) {
      const parent = await sendText(channel, title);
      parents.push(parent.id);
      await sendText(channel, `${title}: ý ta`, { parent_id: parent.id });
      await sendText(bobView, `${title}: ý huynh`, { parent_id: parent.id });
    }

    const first = await viewer.queryThreads({ limit: 2, participant_limit: 1, reply_limit: 1 });
    expect(first.threads).toHaveLength(2);
    expect(first.next).toEqual(expect.any(String));
    for (const item of first.threads) {
      const state = item.state.getLatestValue();
      expect(state.replies).toHaveLength(1);
      expect(state.replyCount).toBe(2);
      expect((state.participants ?? []).length).toBeLessThanOrEqual(1);
      expect(item.channel.cid).toBe(channel.cid);
      expect(state.parentMessage.id).toBe(item.id);
    }
    const second = await viewer.queryThreads({
      limit: 2,
      participant_limit: 1,
      reply_limit: 1,
      next: first.next,
    });
    expect(second.threads).toHaveLength(1);
    expect(second.next ?? null).toBeNull();
    const seen = [...first.threads, ...second.threads].map((item) => item.id);
    expect(seen.sort()).toEqual([...parents].sort());
  });

  it('gets one thread with its latest replies, reply count, participants and an older-page cursor', async () => {
    const { parent, replies } = await thread('Ai là đệ nhất kiếm tu?', 3);

    const loaded = await carol.getThread(parent.id, { reply_limit: 2, participant_limit: 10 });
    const state = loaded.state.getLatestValue();

    expect(loaded.id).toBe(parent.id);
    expect(state.parentMessage.text).toBe('Ai là đệ nhất kiếm tu?');
    expect(state.replyCount).toBe(3);
    expect(ids(state.replies)).toEqual([replies[1]?.id, replies[2]?.id]);
    expect(
      (state.participants ?? []).map((participant) => participant.user_id ?? participant.user?.id),
    ).toEqual(expect.arrayContaining([bobId, carolId]));
    expect(state.pagination.prevCursor).toBe(replies[1]?.id);
    expect(loaded.channel.cid).toBe(aliceChannel.cid);
  });

  it('sets and unsets title and custom data with partialUpdateThread and tells participants', async () => {
    const { parent } = await thread('Bàn về đan dược', 2);
    const watched = await carol.getThread(parent.id);
    watched.registerSubscriptions();

    const updated = waitForEvent(
      carol,
      'thread.updated',
      (event) => event.thread?.parent_message_id === parent.id,
    );
    const response = await bob.partialUpdateThread(parent.id, {
      set: { title: 'Đan đạo', chu_de: 'luyện đan' },
    });
    await updated;

    expect(response.thread).toMatchObject({
      parent_message_id: parent.id,
      title: 'Đan đạo',
      chu_de: 'luyện đan',
    });
    expect(watched.state.getLatestValue().title).toBe('Đan đạo');
    expect(watched.state.getLatestValue().custom.chu_de).toBe('luyện đan');

    await bob.partialUpdateThread(parent.id, { unset: ['chu_de'] });
    const reloaded = (await bob.getThread(parent.id)).state.getLatestValue();
    expect(reloaded.title).toBe('Đan đạo');
    expect(reloaded.custom).not.toHaveProperty('chu_de');
    watched.unregisterSubscriptions();
  });

  it('tracks per-user thread read state: a new reply is unread for the other participant until they read it', async () => {
    const { parent } = await thread('Tu luyện thế nào?', 1);
    const replied = waitForEvent(
      bob,
      'message.new',
      (event) => event.message?.text === 'Chăm chỉ là được',
    );
    await sendText(carolChannel, 'Chăm chỉ là được', { parent_id: parent.id });
    await replied;

    const bobThread = await bob.getThread(parent.id);
    expect(bobThread.ownUnreadCount).toBe(1);
    const carolThread = await carol.getThread(parent.id);
    expect(carolThread.ownUnreadCount).toBe(0);

    const channelUnreadBefore = bobChannel.state.unreadCount;
    expect(channelUnreadBefore).toBeGreaterThan(0);
    bobThread.registerSubscriptions();
    const read = waitForEvent(
      bob,
      'message.read',
      (event) => event.thread?.parent_message_id === parent.id,
    );
    const response = await bobThread.markAsRead();
    const event = await read;

    expect(response).not.toBeNull();
    expect(event.user?.id).toBe(bobId);
    expect(bobThread.ownUnreadCount).toBe(0);
    expect((await bob.getThread(parent.id)).ownUnreadCount).toBe(0);
    // A thread read must not clear the channel's unread count: the event has to carry `thread`.
    expect(bobChannel.state.unreadCount).toBe(channelUnreadBefore);
    bobThread.unregisterSubscriptions();
  });
});
