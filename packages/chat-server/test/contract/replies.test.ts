import type { Channel, MessagePaginationOptions, MessageResponse, StreamChat } from 'stream-chat';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectUser,
  ids,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('replies', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  describe('pagination of ten replies', () => {
    let bob: StreamChat;
    let bobId: string;
    let channelId: string;
    let bobChannel: Channel;
    let parent: MessageResponse;
    // r[0] is the oldest reply, r[9] the newest.
    const r: MessageResponse[] = [];

    beforeAll(async () => {
      const aliceId = uniqueId('pag-a');
      bobId = uniqueId('pag-b');
      const alice = await connectUser(env(), aliceId);
      bob = await connectUser(env(), bobId);
      channelId = uniqueId('pagination');
      const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
        members: [aliceId, bobId],
      });
      bobChannel = await watchChannel(bob, 'messaging', channelId);
      parent = await sendText(aliceChannel, 'Ai luận đạo?');
      for (let i = 0; i < 10; i += 1) {
        r.push(
          await sendText(i % 2 === 0 ? aliceChannel : bobChannel, `Đáp ${i}`, {
            parent_id: parent.id,
          }),
        );
      }
    }, 30_000);

    const page = async (options: MessagePaginationOptions) =>
      ids((await bobChannel.getReplies(parent.id, options)).messages);
    const at = (...indexes: number[]) => indexes.map((index) => r[index]?.id);
    const createdAt = (index: number) => r[index]?.created_at ?? '';

    it('returns the newest replies in ascending order when only a limit is given', async () => {
      expect(await page({ limit: 3 })).toEqual(at(7, 8, 9));
      expect(await page({ limit: 100 })).toEqual(at(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    });

    it('pages backwards with id_lt and id_lte', async () => {
      expect(await page({ id_lt: r[5]?.id, limit: 2 })).toEqual(at(3, 4));
      expect(await page({ id_lte: r[5]?.id, limit: 2 })).toEqual(at(4, 5));
      expect(await page({ id_lt: r[0]?.id, limit: 2 })).toEqual([]);
    });

    it('pages forwards with id_gt and id_gte', async () => {
      expect(await page({ id_gt: r[5]?.id, limit: 2 })).toEqual(at(6, 7));
      expect(await page({ id_gte: r[5]?.id, limit: 2 })).toEqual(at(5, 6));
      expect(await page({ id_gt: r[9]?.id, limit: 2 })).toEqual([]);
    });

    it('centres the page on a reply with id_around and created_at_around', async () => {
      expect(await page({ id_around: r[5]?.id, limit: 3 })).toEqual(at(4, 5, 6));
      expect(await page({ created_at_around: createdAt(5), limit: 3 })).toEqual(at(4, 5, 6));
    });

    it('pages by creation time with created_at_after, _or_equal, before and _or_equal', async () => {
      expect(await page({ created_at_after: createdAt(5), limit: 2 })).toEqual(at(6, 7));
      expect(await page({ created_at_after_or_equal: createdAt(5), limit: 2 })).toEqual(at(5, 6));
      expect(await page({ created_at_before: createdAt(5), limit: 2 })).toEqual(at(3, 4));
      expect(await page({ created_at_before_or_equal: createdAt(5), limit: 2 })).toEqual(at(4, 5));
    });

    it('pages with offset from the newest reply, each page ascending, without gaps or repeats', async () => {
      expect(await page({ offset: 0, limit: 4 })).toEqual(at(6, 7, 8, 9));
      expect(await page({ offset: 4, limit: 4 })).toEqual(at(2, 3, 4, 5));
      expect(await page({ offset: 8, limit: 4 })).toEqual(at(0, 1));
    });

    it('keeps the newest-first selection in ascending order when the thread asks for created_at descending', async () => {
      const { messages } = await bobChannel.getReplies(parent.id, { id_lt: r[8]?.id, limit: 3 }, [
        { created_at: -1 },
      ]);
      expect(ids(messages)).toEqual(at(5, 6, 7));
    });

    it('puts fetched replies into the thread state of a client that saw none of them live', async () => {
      const other = await connectUser(env(), bobId);
      const channel = other.channel('messaging', channelId);
      expect(channel.state.threads[parent.id]).toBeUndefined();

      await channel.getReplies(parent.id, { limit: 4 });

      expect(ids(channel.state.threads[parent.id] ?? [])).toEqual(at(6, 7, 8, 9));
    });

    it('counts replies and lists thread participants on the parent message', async () => {
      const { message } = await bob.getMessage(parent.id);
      expect(message.reply_count).toBe(10);
      expect((message.thread_participants ?? []).map((user) => user.id).sort()).toEqual(
        [r[0]?.user?.id, r[1]?.user?.id].sort(),
      );
    });
  });

  it('shows a reply in the channel only when show_in_channel is set', async () => {
    const { bob, aliceChannel, bobChannel, channelId } = await twoMembers(env(), 'show-in-channel');
    const parent = await sendText(aliceChannel, 'Gốc');

    const hiddenArrived = waitForEvent(
      bobChannel,
      'message.new',
      (event) => event.message?.text === 'Chỉ trong luồng',
    );
    const threadOnly = await sendText(aliceChannel, 'Chỉ trong luồng', { parent_id: parent.id });
    await hiddenArrived;
    const shownArrived = waitForEvent(
      bobChannel,
      'message.new',
      (event) => event.message?.text === 'Cả kênh thấy',
    );
    const alsoInChannel = await sendText(aliceChannel, 'Cả kênh thấy', {
      parent_id: parent.id,
      show_in_channel: true,
    });
    await shownArrived;

    expect(alsoInChannel.show_in_channel).toBe(true);
    expect(ids(bobChannel.state.messages)).toEqual([parent.id, alsoInChannel.id]);
    expect(ids(bobChannel.state.threads[parent.id] ?? [])).toEqual([
      threadOnly.id,
      alsoInChannel.id,
    ]);
    const reread = await bob.channel('messaging', channelId).query({ messages: { limit: 100 } });
    expect(ids(reread.messages)).toEqual([parent.id, alsoInChannel.id]);
    expect(reread.messages.find((message) => message.id === parent.id)?.reply_count).toBe(2);
  });
});
