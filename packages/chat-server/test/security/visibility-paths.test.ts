import { randomUUID } from 'node:crypto';
import type { Channel, Event, MessageResponse, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from '../contract/helpers.ts';

/*
 * One rule (src/chat/core/access/visibility.ts, `viewerWindow`) decides which messages of a channel a viewer may see:
 * nothing at or before the channel's truncation, nothing at or before the viewer's own bound (hide_history when added,
 * clear_history when hiding), and no message restricted to other users (`restricted_visibility`). Each test below
 * reads through one path with the real client and checks that a message hidden by truncation, one hidden by the
 * member's own bound and one restricted to someone else stay away, while a visible message (the positive control)
 * comes back, so bypassing the rule on that path fails the test.
 */

const env = useContractEnv();

interface Scene {
  alice: StreamChat;
  bob: StreamChat;
  carol: StreamChat;
  aliceChannel: Channel;
  bobChannel: Channel;
  carolChannel: Channel;
  /** A searchable word every message of the scene carries. */
  word: string;
  /** Sent, with a reply by Bob, before the channel was truncated: hidden from everyone. */
  truncated: MessageResponse;
  /** Sent, with a reply by Bob, after the truncation and before Carol joined with hide_history. */
  beforeCarol: MessageResponse;
  /** Sent, with a reply by Bob, after Carol joined: Carol sees it. */
  visible: MessageResponse;
  /** Sent by the server as Alice for Bob alone (`restricted_visibility`), after Carol joined, with Bob's reply. */
  restricted: MessageResponse;
}

async function withReply(
  author: Channel,
  replier: Channel,
  text: string,
): Promise<MessageResponse> {
  const parent = await sendText(author, text);
  await sendText(replier, `Đáp: ${text}`, { parent_id: parent.id });
  return parent;
}

/**
 * Alice and Bob talk in a fresh channel; it is truncated; they talk again; Carol is added with hide_history (and
 * watches); they talk once more. Every message is pinned, so the pin paths see all three.
 */
async function scene(prefix: string): Promise<Scene> {
  const { channelId, alice, bob, aliceChannel, bobChannel } = await twoMembers(env(), prefix);
  const carolId = uniqueId(`${prefix}-c`);
  const carol = await connectUser(env(), carolId);
  const word = `dan${randomUUID().slice(0, 8)}`;

  const truncated = await withReply(aliceChannel, bobChannel, `Cổ thư ${word} một`);
  await alice.pinMessage(truncated.id);
  await env().admin.channel('messaging', channelId).truncate();
  const beforeCarol = await withReply(aliceChannel, bobChannel, `Cổ thư ${word} hai`);
  await alice.pinMessage(beforeCarol.id);
  await aliceChannel.addMembers([carolId], undefined, { hide_history: true });
  const carolChannel = await watchChannel(carol, 'messaging', channelId);
  const visible = await withReply(aliceChannel, bobChannel, `Cổ thư ${word} ba`);
  await alice.pinMessage(visible.id);
  const { message: restricted } = await env()
    .admin.channel('messaging', channelId)
    .sendMessage({
      text: `Cổ thư ${word} bốn`,
      user_id: alice.userID!,
      restricted_visibility: [bob.userID!],
    });
  await sendText(bobChannel, `Đáp: Cổ thư ${word} bốn`, { parent_id: restricted.id });
  return {
    alice,
    bob,
    carol,
    aliceChannel,
    bobChannel,
    carolChannel,
    word,
    truncated,
    beforeCarol,
    visible,
    restricted,
  };
}

/** What a test expects of a list of messages Carol read: the visible one, none of the hidden ones. */
function expectOnlyVisible(s: Scene, messages: ReadonlyArray<{ id: string }>): void {
  const seen = ids(messages);
  expect(seen).toContain(s.visible.id);
  expect(seen).not.toContain(s.truncated.id);
  expect(seen).not.toContain(s.beforeCarol.id);
  expect(seen).not.toContain(s.restricted.id);
}

describe('every read path applies the one visibility rule', { timeout: 30_000 }, () => {
  it('a channel query shows the member neither truncated messages nor those from before they joined', async () => {
    const s = await scene('vis-query');
    const [channel] = await s.carol.queryChannels(
      { cid: s.carolChannel.cid! },
      {},
      { message_limit: 30 },
    );
    expectOnlyVisible(s, channel!.state.messages);
    expectOnlyVisible(s, channel!.state.pinnedMessages);
  });

  it('watching a channel shows the member neither truncated messages nor those from before they joined', async () => {
    const s = await scene('vis-watch');
    const state = await s.carolChannel.watch({ messages: { limit: 30 } });
    expectOnlyVisible(s, state.messages);
    expectOnlyVisible(s, state.pinned_messages);
  });

  it('messages by id leave out the truncated message and the one from before the member joined', async () => {
    const s = await scene('vis-by-id');
    const { messages } = await s.carolChannel.getMessagesById([
      s.truncated.id,
      s.beforeCarol.id,
      s.restricted.id,
      s.visible.id,
    ]);
    expect(ids(messages)).toEqual([s.visible.id]);
  });

  it('a single message hidden from the member does not exist for them', async () => {
    const s = await scene('vis-one');
    await expectStreamError(s.carol.getMessage(s.truncated.id), { code: 16, status: 404 });
    await expectStreamError(s.carol.getMessage(s.beforeCarol.id), { code: 16, status: 404 });
    await expectStreamError(s.carol.getMessage(s.restricted.id), { code: 16, status: 404 });
    expect((await s.carol.getMessage(s.visible.id)).message.id).toBe(s.visible.id);
  });

  it('marking unread from a message or thread hidden from the member answers as for an unknown id', async () => {
    const s = await scene('vis-unread');
    for (const hidden of [s.truncated, s.beforeCarol, s.restricted]) {
      await expectStreamError(s.carolChannel.markUnread({ message_id: hidden.id }), {
        code: 16,
        status: 404,
      });
      await expectStreamError(s.carolChannel.markUnread({ thread_id: hidden.id }), {
        code: 16,
        status: 404,
      });
    }
    // From a timestamp just after the restricted message, the last read message is never the restricted one.
    const marked = waitForEvent(s.carol, 'notification.mark_unread');
    await s.carolChannel.markUnread({
      message_timestamp: new Date(Date.parse(s.restricted.created_at!) + 1).toISOString(),
    } as never);
    expect((await marked).last_read_message_id).toBe(s.visible.id);
    await s.carolChannel.markUnread({ message_id: s.visible.id });
  });

  it('the replies of a parent hidden from the member cannot be read', async () => {
    const s = await scene('vis-replies');
    await expectStreamError(s.carolChannel.getReplies(s.truncated.id, {}), {
      code: 16,
      status: 404,
    });
    await expectStreamError(s.carolChannel.getReplies(s.beforeCarol.id, {}), {
      code: 16,
      status: 404,
    });
    await expectStreamError(s.carolChannel.getReplies(s.restricted.id, {}), {
      code: 16,
      status: 404,
    });
    const { messages } = await s.carolChannel.getReplies(s.visible.id, {});
    expect(messages.map((m) => m.parent_id)).toEqual([s.visible.id]);
  });

  it('the single-thread view does not show a thread whose parent is hidden from the member', async () => {
    const s = await scene('vis-thread');
    await expectStreamError(s.carol.getThread(s.truncated.id), { code: 16, status: 404 });
    await expectStreamError(s.carol.getThread(s.beforeCarol.id), { code: 16, status: 404 });
    await expectStreamError(s.carol.getThread(s.restricted.id), { code: 16, status: 404 });
    expect((await s.carol.getThread(s.visible.id)).id).toBe(s.visible.id);
  });

  it('the thread list leaves out threads whose parent the participant cleared or was truncated', async () => {
    const s = await scene('vis-threads');
    // Bob replied in every thread; clearing his history hides all three from him, so one more comes after.
    await s.bobChannel.hide(null, true);
    const after = await withReply(s.aliceChannel, s.bobChannel, 'Luận đạo sau khi xoá');

    const { threads } = await s.bob.queryThreads({ watch: false, limit: 100 });
    const parents = threads.map((t) => t.id);
    expect(parents).toContain(after.id);
    expect(parents).not.toContain(s.truncated.id);
    expect(parents).not.toContain(s.beforeCarol.id);
    expect(parents).not.toContain(s.visible.id);
  });

  it('pinned messages leave out pins on messages hidden from the member', async () => {
    const s = await scene('vis-pins');
    const { messages } = await s.carolChannel.getPinnedMessages({ limit: 30 });
    expectOnlyVisible(s, messages);
  });

  it('search by text leaves out messages hidden from the member', async () => {
    const s = await scene('vis-search-text');
    const { results } = await s.carol.search({ cid: s.carolChannel.cid! }, s.word);
    expectOnlyVisible(
      s,
      results.map((r) => r.message),
    );
  });

  it('search by message filter leaves out messages hidden from the member', async () => {
    const s = await scene('vis-search-filter');
    const { results } = await s.carol.search(
      { cid: s.carolChannel.cid! },
      { id: { $in: [s.truncated.id, s.beforeCarol.id, s.restricted.id, s.visible.id] } },
    );
    expectOnlyVisible(
      s,
      results.map((r) => r.message),
    );
  });

  it('reminders no longer carry messages truncated or cleared after they were set', async () => {
    const s = await scene('vis-reminders');
    // Bob set reminders on messages he could see, then cleared his history; the truncated one was set on before.
    await s.bob.createReminder({ messageId: s.beforeCarol.id });
    await s.bob.createReminder({ messageId: s.visible.id });
    await s.bobChannel.hide(null, true);
    const after = await sendText(s.aliceChannel, 'Nhắc ta điều này');
    await s.bob.createReminder({ messageId: after.id });

    const { reminders } = await s.bob.queryReminders({ limit: 100 });
    const messages = reminders.map((r) => r.message).filter((m) => m !== undefined);
    expect(ids(messages)).toEqual([after.id]);
  });

  it('drafts no longer carry a parent or quoted message hidden after they were saved', async () => {
    const s = await scene('vis-drafts');
    await s.bobChannel.createDraft({ id: randomUUID(), text: 'Nháp', parent_id: s.visible.id });
    await s.bobChannel.createDraft({
      id: randomUUID(),
      text: 'Trích',
      quoted_message_id: s.beforeCarol.id,
    });
    await s.bobChannel.hide(null, true);
    const after = await sendText(s.aliceChannel, 'Sau khi xoá');
    await s.bobChannel.createDraft({ id: randomUUID(), text: 'Nháp mới', parent_id: after.id });

    const { drafts } = await s.bob.queryDrafts({ limit: 100 });
    const byParent = new Map(drafts.map((d) => [d.parent_id ?? '', d]));
    expect(byParent.get(after.id)?.parent_message?.id).toBe(after.id);
    expect(byParent.get(s.visible.id)).toBeDefined();
    expect(byParent.get(s.visible.id)?.parent_message).toBeUndefined();
    expect(byParent.get('')).toBeDefined();
    expect(byParent.get('')?.quoted_message).toBeUndefined();
  });
});

describe(
  'reminders and drafts carry only what their owner can still read',
  { timeout: 30_000 },
  () => {
    /** Alice and Bob in a private channel of their own, and Bob alone in a second one he keeps reading. */
    async function pair(prefix: string) {
      const members = await twoMembers(env(), prefix);
      const ownChannel = await watchChannel(members.bob, 'messaging', uniqueId(`${prefix}-rieng`), {
        members: [members.bobId],
      });
      return { ...members, ownChannel };
    }

    it('a member removed from a private channel no longer gets its messages through reminders or drafts', async () => {
      const p = await pair('vis-roi-kenh');
      const secret = await sendText(p.aliceChannel, 'Bí kíp nội môn');
      const kept = await sendText(p.ownChannel, 'Ghi chép riêng');
      await p.bob.createReminder({ messageId: secret.id });
      await p.bob.createReminder({ messageId: kept.id });
      await p.bobChannel.createDraft({
        id: randomUUID(),
        text: 'Trích',
        quoted_message_id: secret.id,
      });
      await p.bobChannel.createDraft({ id: randomUUID(), text: 'Đáp', parent_id: secret.id });
      await p.ownChannel.createDraft({ id: randomUUID(), text: 'Nháp riêng', parent_id: kept.id });
      await p.aliceChannel.removeMembers([p.bobId]);

      const { reminders } = await p.bob.queryReminders({ limit: 100 });
      expect(reminders.map((r) => r.message_id)).toEqual([kept.id]);
      const { drafts } = await p.bob.queryDrafts({ limit: 100 });
      expect(drafts.map((d) => d.channel_cid)).toEqual([p.ownChannel.cid]);
      expect(drafts[0]?.parent_message?.id).toBe(kept.id);
      // The client drops its channel object once told of the removal; a fresh client asks again.
      const again = (await connectUser(env(), p.bobId)).channel('messaging', p.bobChannel.id!);
      await expectStreamError(again.getDraft(), { code: 17 });
      await expectStreamError(again.getDraft({ parent_id: secret.id }), { code: 17 });
    });

    /** A server-side query for one user: the client passes `user_id` through though its type omits it. */
    const forUser = (userId: string) =>
      ({ user_id: userId }) as Parameters<StreamChat['queryReminders']>[0];

    it('a server-side query naming the removed member answers as that member would see it', async () => {
      const p = await pair('vis-roi-server');
      const secret = await sendText(p.aliceChannel, 'Bí kíp nội môn');
      await p.bob.createReminder({ messageId: secret.id });
      await p.bobChannel.createDraft({
        id: randomUUID(),
        text: 'Trích',
        quoted_message_id: secret.id,
      });
      const before = await env().admin.queryReminders(forUser(p.bobId));
      expect(before.reminders.map((r) => r.message_id)).toEqual([secret.id]);
      await p.aliceChannel.removeMembers([p.bobId]);

      expect((await env().admin.queryReminders(forUser(p.bobId))).reminders).toEqual([]);
      expect((await env().admin.queryDrafts({ user_id: p.bobId })).drafts).toEqual([]);
    });

    it("a shadow-banned author's message cannot be reminded of, quoted in a draft or replied to by anyone else", async () => {
      const p = await pair('vis-an-cam');
      await p.aliceChannel.shadowBan(p.bobId, {});
      const hidden = await sendText(p.bobChannel, 'Lời của kẻ bị cấm ẩn');
      const aliceId = p.aliceId;

      await expectStreamError(
        env().admin.createReminder({ messageId: hidden.id, user_id: aliceId }),
        {
          code: 16,
        },
      );
      await expectStreamError(
        p.aliceChannel.createDraft({
          id: randomUUID(),
          text: 'Trích',
          quoted_message_id: hidden.id,
        }),
        { code: 4 },
      );
      await expectStreamError(
        p.aliceChannel.createDraft({ id: randomUUID(), text: 'Đáp', parent_id: hidden.id }),
        { code: 4 },
      );
      await expectStreamError(sendText(p.aliceChannel, 'Trích', { quoted_message_id: hidden.id }), {
        code: 4,
      });
      // The author keeps seeing their own message everywhere, as sent.
      await p.bob.createReminder({ messageId: hidden.id });
      const { reminders } = await p.bob.queryReminders({});
      expect(reminders.map((r) => r.message?.id)).toEqual([hidden.id]);
    });
  },
);

describe('live events about a message reach only members who see it', { timeout: 30_000 }, () => {
  /**
   * The event types `client` receives about `hiddenId` while `act` runs. The barrier (an action whose event
   * `client` does receive, sent after `act`) bounds the wait: events on one channel arrive in order.
   */
  async function eventsAbout(
    client: StreamChat,
    about: (event: Event) => string | undefined,
    hiddenId: string,
    act: () => Promise<unknown>,
    barrier: {
      type: 'message.updated' | 'thread.updated';
      id: string;
      act: () => Promise<unknown>;
    },
  ): Promise<string[]> {
    const seen: string[] = [];
    const subscription = client.on((event) => {
      if (about(event) === hiddenId) seen.push(event.type);
    });
    try {
      await act();
      const arrived = waitForEvent(client, barrier.type, (e) => about(e) === barrier.id);
      await barrier.act();
      await arrived;
    } finally {
      subscription.unsubscribe();
    }
    return seen;
  }

  it('an edit of a message from before the member joined does not reach them', async () => {
    const s = await scene('vis-event-edit');
    const seen = await eventsAbout(
      s.carol,
      (e) => e.message?.id,
      s.beforeCarol.id,
      () => s.alice.partialUpdateMessage(s.beforeCarol.id, { set: { text: 'Sửa chuyện cũ' } }),
      {
        type: 'message.updated',
        id: s.visible.id,
        act: () => s.alice.partialUpdateMessage(s.visible.id, { set: { text: 'Sửa chuyện mới' } }),
      },
    );
    expect(seen).toEqual([]);
  });

  it('an update of a thread whose parent is from before the member joined does not reach them', async () => {
    const s = await scene('vis-event-thread');
    const threadOf = (e: Event) =>
      (e.thread as { parent_message_id?: string } | undefined)?.parent_message_id;
    const seen = await eventsAbout(
      s.carol,
      threadOf,
      s.beforeCarol.id,
      () => s.bob.partialUpdateThread(s.beforeCarol.id, { set: { title: 'Chuyện cũ' } }),
      {
        type: 'thread.updated',
        id: s.visible.id,
        act: () => s.bob.partialUpdateThread(s.visible.id, { set: { title: 'Chuyện mới' } }),
      },
    );
    expect(seen).toEqual([]);
  });

  it("votes and thread updates on a shadow-banned author's message reach no one else", async () => {
    const { bobId, alice, bob, aliceChannel, bobChannel } = await twoMembers(
      env(),
      'vis-an-su-kien',
    );
    await aliceChannel.shadowBan(bobId, {});
    const { poll } = await bob.createPoll({ name: 'Ai đi?', options: [{ text: 'Ta' }] });
    const hidden = await sendText(bobChannel, 'Bình chọn ẩn', { poll_id: poll.id });
    await sendText(bobChannel, 'Đáp ẩn', { parent_id: hidden.id });
    const control = await sendText(aliceChannel, 'Tin thấy được');
    const about = (e: Event) =>
      e.message?.id ??
      (e as { message_id?: string }).message_id ??
      (e.thread as { parent_message_id?: string } | undefined)?.parent_message_id;

    const seen = await eventsAbout(
      alice,
      about,
      hidden.id,
      async () => {
        await bob.castPollVote(hidden.id, poll.id, { option_id: poll.options[0]!.id });
        await bob.partialUpdateThread(hidden.id, { set: { title: 'Chuyện ẩn' } });
      },
      {
        type: 'message.updated',
        id: control.id,
        act: () => alice.partialUpdateMessage(control.id, { set: { text: 'Sửa tin thấy được' } }),
      },
    );
    expect(seen).toEqual([]);
  });
});

/*
 * Pending messages (src/chat/extensions/pending-messages) go through the same rule: until the server commits one, it
 * exists for its author alone. Alice's pending message (pinned, with her own pending reply under it) and her pending
 * reply to a visible message must stay away from Bob on every path, while the visible message (the control) reaches
 * him, so a path that bypasses the rule fails its test.
 */
describe(
  'a pending message exists for its author alone on every read path',
  { timeout: 30_000 },
  () => {
    interface PendingScene {
      alice: StreamChat;
      bob: StreamChat;
      aliceChannel: Channel;
      bobChannel: Channel;
      word: string;
      visible: MessageResponse;
      pending: MessageResponse;
      pendingReply: MessageResponse;
    }

    async function pendingScene(prefix: string): Promise<PendingScene> {
      const { channelId, aliceId, alice, bob, aliceChannel, bobChannel } = await twoMembers(
        env(),
        prefix,
      );
      const word = `cho${randomUUID().slice(0, 8)}`;
      const visible = await sendText(aliceChannel, `Công khai ${word}`);
      await alice.pinMessage(visible.id);
      const server = env().admin.channel('messaging', channelId);
      const hold = async (text: string, extra: object = {}) =>
        (
          await server.sendMessage(
            { id: randomUUID(), text, user_id: aliceId, ...extra },
            { pending: true },
          )
        ).message;
      const pending = await hold(`Đang chờ ${word}`, { pinned: true });
      await sendText(aliceChannel, `Tự đáp ${word}`, { parent_id: pending.id });
      const pendingReply = await hold(`Đáp chờ ${word}`, { parent_id: visible.id });
      return { alice, bob, aliceChannel, bobChannel, word, visible, pending, pendingReply };
    }

    function expectNoPending(s: PendingScene, messages: ReadonlyArray<{ id: string }>): void {
      const seen = ids(messages);
      expect(seen).toContain(s.visible.id);
      expect(seen).not.toContain(s.pending.id);
      expect(seen).not.toContain(s.pendingReply.id);
    }

    it('a channel query and a watch show the other member neither the pending message nor its pin', async () => {
      const s = await pendingScene('pend-query');
      const [channel] = await s.bob.queryChannels(
        { cid: s.bobChannel.cid! },
        {},
        { message_limit: 30 },
      );
      expectNoPending(s, channel!.state.messages);
      expectNoPending(s, channel!.state.pinnedMessages);
      const state = await s.bobChannel.watch({ messages: { limit: 30 } });
      expectNoPending(s, state.messages);
      expectNoPending(s, state.pinned_messages);
      expect(state.pending_messages).toEqual([]);
    });

    it('messages by id and a single message leave the pending message out for the other member', async () => {
      const s = await pendingScene('pend-by-id');
      const { messages } = await s.bobChannel.getMessagesById([
        s.pending.id,
        s.pendingReply.id,
        s.visible.id,
      ]);
      expect(ids(messages)).toEqual([s.visible.id]);
      await expectStreamError(s.bob.getMessage(s.pending.id), { code: 16, status: 404 });
      await expectStreamError(s.bob.getMessage(s.pendingReply.id), { code: 16, status: 404 });
      expect((await s.alice.getMessage(s.pending.id)).message.id).toBe(s.pending.id);
    });

    it('replies and threads leave out a pending reply and a pending parent for the other member', async () => {
      const s = await pendingScene('pend-replies');
      const { messages } = await s.bobChannel.getReplies(s.visible.id, {});
      expect(ids(messages)).not.toContain(s.pendingReply.id);
      expect(ids((await s.aliceChannel.getReplies(s.visible.id, {})).messages)).toContain(
        s.pendingReply.id,
      );
      await expectStreamError(s.bobChannel.getReplies(s.pending.id, {}), { code: 16, status: 404 });
      await expectStreamError(s.bob.getThread(s.pending.id), { code: 16, status: 404 });
      const { threads } = await s.bob.queryThreads({ watch: false, limit: 100 });
      expect(threads.map((t) => t.id)).not.toContain(s.pending.id);
    });

    it('pinned messages and search leave the pending message out for the other member', async () => {
      const s = await pendingScene('pend-search');
      expectNoPending(s, (await s.bobChannel.getPinnedMessages({ limit: 30 })).messages);
      const byText = await s.bob.search({ cid: s.bobChannel.cid! }, s.word);
      expectNoPending(
        s,
        byText.results.map((r) => r.message),
      );
      const byFilter = await s.bob.search(
        { cid: s.bobChannel.cid! },
        { id: { $in: [s.pending.id, s.pendingReply.id, s.visible.id] } },
      );
      expectNoPending(
        s,
        byFilter.results.map((r) => r.message),
      );
    });

    it('the other member may neither reply to nor quote a pending message', async () => {
      const s = await pendingScene('pend-refer');
      await expectStreamError(sendText(s.bobChannel, 'Đáp', { parent_id: s.pending.id }), {
        code: 4,
        message: /parent message/,
      });
      await expectStreamError(
        sendText(s.bobChannel, 'Trích', { quoted_message_id: s.pending.id }),
        {
          code: 4,
          message: /quoted message/,
        },
      );
    });

    it('unread counts and live events leave a pending message out until it is committed', async () => {
      const s = await pendingScene('pend-events');
      const cid = s.bobChannel.cid!;
      const unread = async () =>
        (await s.bob.getUnreadCount()).channels.find((c) => c.channel_id === cid)?.unread_count;
      expect(await unread()).toBe(1);

      const lateId = randomUUID();
      const seen: string[] = [];
      const subscription = s.bob.on((event: Event) => {
        if (event.message?.id === lateId) seen.push(event.type);
      });
      try {
        await env()
          .admin.channel('messaging', s.bobChannel.id!)
          .sendMessage(
            { id: lateId, text: 'Lại chờ', user_id: s.alice.userID! },
            { pending: true },
          );
        await s.aliceChannel.sendReaction(lateId, { type: 'love' });
        // The barrier: Bob does receive the control's edit, after everything above.
        const arrived = waitForEvent(
          s.bob,
          'message.updated',
          (e) => e.message?.id === s.visible.id,
        );
        await s.alice.partialUpdateMessage(s.visible.id, { set: { text: 'Sửa công khai' } });
        await arrived;
        expect(seen).toEqual([]);
        expect(await unread()).toBe(1);

        const committed = waitForEvent(s.bob, 'message.new', (e) => e.message?.id === lateId);
        await env().admin.commitMessage(lateId);
        await committed;
      } finally {
        subscription.unsubscribe();
      }
      expect(seen).toEqual(['message.new']);
      expect(await unread()).toBe(2);
    });
  },
);
