import type { Channel } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  inMs,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Threads as Stream's docs use them (marking a whole thread unread, querying threads with filters and sorts), and
// reminders turned into "save for later".
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

  it('gets the newest replies by default and the oldest with sort [{created_at: 1}], as Stream documents, each page oldest first', async () => {
    const { aliceChannel } = await twoMembers(env(), 'thr-sort');
    const parent = await sendText(aliceChannel, 'Gốc');
    const texts = Array.from({ length: 5 }, (_, i) => `Đáp ${i}`);
    for (const text of texts) await reply(aliceChannel, parent.id, text);
    const textsOf = (page: { messages: Array<{ text?: string }> }) =>
      page.messages.map((m) => m.text);

    expect(textsOf(await aliceChannel.getReplies(parent.id, { limit: 2 }))).toEqual(texts.slice(3));
    expect(
      textsOf(await aliceChannel.getReplies(parent.id, { limit: 2 }, [{ created_at: -1 }])),
    ).toEqual(texts.slice(3));
    expect(
      textsOf(await aliceChannel.getReplies(parent.id, { limit: 2 }, [{ created_at: 1 }])),
    ).toEqual(texts.slice(0, 2));
    await expectStreamError(
      aliceChannel.getReplies(parent.id, { limit: 2 }, [{ text: 1 }] as never),
      { code: 4, message: /created_at/ },
    );
  });

  it('sorts queryThreads by created_at, last_message_at, reply_count and parent_message_id, and filters on them', async () => {
    const { alice, aliceChannel, bobChannel, aliceId, bobId } = await twoMembers(
      env(),
      'thr-query',
    );
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
    // As on Stream, a thread is created by its first reply: Bob's in both, though Alice wrote the parents.
    expect(await ids({ filter: { channel_cid: cid, created_by_user_id: bobId } })).toHaveLength(2);
    expect(await ids({ filter: { channel_cid: cid, created_by_user_id: aliceId } })).toEqual([]);
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

describe('reminders as Stream documents them', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('turns a reminder into save for later when it is updated without remind_at', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'rem-bookmark');
    const message = await sendText(aliceChannel, 'Nhắc ta bế quan');
    await alice.createReminder({ messageId: message.id, remind_at: inMs(3_600_000) });
    const updated = await alice.updateReminder({ messageId: message.id });
    expect(updated.reminder.remind_at ?? null).toBeNull();
    const listed = await alice.queryReminders({ filter: { message_id: message.id } } as never);
    expect(listed.reminders.map((r) => [r.message_id, r.remind_at ?? null])).toEqual([
      [message.id, null],
    ]);
  });

  it('refuses a bad remind_at on update with code 4 and keeps the stored time', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'rem-bad');
    const message = await sendText(aliceChannel, 'Giữ nguyên');
    const remindAt = inMs(3_600_000);
    await alice.createReminder({ messageId: message.id, remind_at: remindAt });
    await expectStreamError(alice.updateReminder({ messageId: message.id, remind_at: 'mai' }), {
      code: 4,
      status: 400,
      message: /remind_at/,
    });
    const listed = await alice.queryReminders({ filter: { message_id: message.id } } as never);
    expect(Date.parse(listed.reminders[0]?.remind_at ?? '')).toBe(Date.parse(remindAt));
  });
});
