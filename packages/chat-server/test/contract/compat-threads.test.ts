import type { Channel } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Threads as Stream's docs use them: marking a whole thread unread and querying threads with filters and sorts.
describe('threads as Stream documents them', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function reply(channel: Channel, parentId: string, text: string): Promise<void> {
    await sendText(channel, text, { parent_id: parentId });
  }

  it('marks a whole thread unread with markUnread({thread_id}), counted per thread and in total_unread_threads_count', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'thr-unread');
    const parent = await sendText(aliceChannel, 'Luận đạo');
    await reply(bobChannel, parent.id, 'Một');
    await reply(bobChannel, parent.id, 'Hai');
    await aliceChannel.markRead({ thread_id: parent.id } as never);
    const before = await alice.getUnreadCount();
    expect(before.threads.find((t) => t.parent_message_id === parent.id)).toBeUndefined();

    const marked = waitForEvent(
      alice,
      'notification.mark_unread',
      (e) => e.thread_id === parent.id,
    );
    await aliceChannel.markUnread({ thread_id: parent.id });
    await marked;
    const after = await alice.getUnreadCount();
    expect(after.threads.find((t) => t.parent_message_id === parent.id)?.unread_count).toBe(2);
    expect(after.total_unread_threads_count).toBeGreaterThanOrEqual(1);
    expect(after.total_unread_threads_count).toBe(
      after.threads.filter((t) => t.unread_count > 0).length,
    );
  });

  it('refuses markUnread for a thread that is not in the channel with code 16, and with nothing named with code 4', async () => {
    const { aliceChannel, alice } = await twoMembers(env(), 'thr-unread-bad');
    const plain = await sendText(aliceChannel, 'Không có luồng');
    await expectStreamError(aliceChannel.markUnread({ thread_id: uniqueId('none') }), {
      code: 16,
      status: 404,
    });
    await expectStreamError(aliceChannel.markUnread({}), { code: 4, status: 400 });
    // A reply id is not a thread either.
    await reply(aliceChannel, plain.id, 'Phản hồi');
    const replies = await aliceChannel.getReplies(plain.id, { limit: 1 });
    await expectStreamError(aliceChannel.markUnread({ thread_id: replies.messages[0]!.id }), {
      code: 16,
    });
    const unread = await alice.getUnreadCount();
    expect(unread.threads.find((t) => t.parent_message_id === plain.id)).toBeUndefined();
  });

  it('sorts queryThreads by created_at, last_message_at, reply_count and parent_message_id, and filters on them', async () => {
    const { alice, aliceChannel, bobChannel, aliceId } = await twoMembers(env(), 'thr-query');
    const first = await sendText(aliceChannel, 'Luồng một');
    const second = await sendText(aliceChannel, 'Luồng hai');
    await reply(bobChannel, first.id, 'a');
    await reply(bobChannel, second.id, 'b');
    await reply(bobChannel, second.id, 'c');
    await reply(bobChannel, first.id, 'd');
    const cid = aliceChannel.cid;
    const ids = async (options: Parameters<typeof alice.queryThreads>[0]) =>
      (await alice.queryThreads({ filter: { channel_cid: cid }, ...options })).threads.map(
        (t) => t.id,
      );

    expect(await ids({ sort: [{ created_at: 1 }] })).toEqual([first.id, second.id]);
    expect(await ids({ sort: [{ created_at: -1 }] })).toEqual([second.id, first.id]);
    expect(await ids({ sort: [{ last_message_at: -1 }] })).toEqual([first.id, second.id]);
    expect(await ids({ sort: [{ reply_count: -1 }, { created_at: 1 }] })).toEqual([
      first.id,
      second.id,
    ]);
    const byId = [first.id, second.id].sort();
    expect(await ids({ sort: [{ parent_message_id: 1 }] })).toEqual(byId);
    expect(await ids({ sort: [{ updated_at: -1 }] })).toEqual([first.id, second.id]);

    const threads = (await alice.queryThreads({ filter: { channel_cid: cid } })).threads;
    const secondCreated = threads
      .find((t) => t.id === second.id)!
      .state.getLatestValue()
      .createdAt.toISOString();
    expect(
      await ids({ filter: { channel_cid: cid, created_at: { $gte: secondCreated } } }),
    ).toEqual([second.id]);
    expect(
      await ids({ filter: { channel_cid: cid, parent_message_id: { $in: [second.id] } } }),
    ).toEqual([second.id]);
    expect(await ids({ filter: { channel_cid: cid, created_by_user_id: aliceId } })).toHaveLength(
      2,
    );
    expect(await ids({ filter: { channel_cid: cid, updated_at: { $lt: secondCreated } } })).toEqual(
      [],
    );
  });

  it('refuses an unknown thread sort or filter field with code 4', async () => {
    const { alice } = await twoMembers(env(), 'thr-query-bad');
    await expectStreamError(alice.queryThreads({ sort: [{ mood: 1 } as never] }), {
      code: 4,
      status: 400,
      message: /mood/,
    });
    await expectStreamError(alice.queryThreads({ filter: { mood: 'vui' } as never }), {
      code: 4,
      status: 400,
    });
    await expectStreamError(alice.queryThreads({ filter: { created_at: { $gt: 'hôm qua' } } }), {
      code: 4,
      status: 400,
      message: /created_at/,
    });
  });
});
