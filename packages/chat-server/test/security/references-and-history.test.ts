import { randomUUID } from 'node:crypto';
import { VotingVisibility, type Channel, type MessageResponse, type StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from '../contract/helpers.ts';

/*
 * Attacks on references between objects (a quote, a parent, a poll) and on history a viewer must no longer see
 * (before a truncation, before their hide_history / clear_history bound). Every attack goes through the real
 * stream-chat client, or raw HTTP where the client cannot send it.
 */

const env = useContractEnv();

interface Group {
  aliceId: string;
  bobId: string;
  alice: StreamChat;
  bob: StreamChat;
  channelId: string;
  aliceChannel: Channel;
  bobChannel: Channel;
}

/** Alice and Bob, members of one fresh messaging channel, both watching it. */
async function group(prefix: string): Promise<Group> {
  const aliceId = uniqueId(`${prefix}-a`);
  const bobId = uniqueId(`${prefix}-b`);
  const alice = await connectUser(env(), aliceId);
  const bob = await connectUser(env(), bobId);
  const channelId = uniqueId(prefix);
  const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
    members: [aliceId, bobId],
  });
  const bobChannel = await watchChannel(bob, 'messaging', channelId);
  return { aliceId, bobId, alice, bob, channelId, aliceChannel, bobChannel };
}

/** A private channel of two other users, with one message and one poll on a message: ids an attacker guessed. */
async function elsewhere(prefix: string): Promise<{ messageId: string; pollId: string }> {
  const carolId = uniqueId(`${prefix}-carol`);
  const daveId = uniqueId(`${prefix}-dave`);
  await createUsers(env(), [carolId, daveId]);
  const channel = env().admin.channel('messaging', uniqueId(`${prefix}-secret`), {
    created_by_id: carolId,
    members: [carolId, daveId],
  });
  await channel.create();
  const { message } = await channel.sendMessage({
    id: randomUUID(),
    text: 'Bí mật của Hợp Hoan Tông',
    user_id: carolId,
  });
  const pollId = randomUUID();
  await env().admin.createPoll(
    {
      id: pollId,
      name: 'Mật nghị',
      options: [{ text: 'Có' }, { text: 'Không' }],
      voting_visibility: VotingVisibility.public,
    },
    carolId,
  );
  await channel.sendMessage({ id: randomUUID(), poll_id: pollId, user_id: carolId });
  return { messageId: message.id, pollId };
}

/** Truncates the channel server-side (as an admin tool would): what came before is gone for every member. */
async function truncate(channelId: string): Promise<void> {
  await env().admin.channel('messaging', channelId).truncate();
}

/** Adds a third member who must not see the history before they joined. */
async function addWithHiddenHistory(
  g: Group,
  prefix: string,
): Promise<{ carolId: string; carol: StreamChat; carolChannel: Channel }> {
  const carolId = uniqueId(`${prefix}-c`);
  const carol = await connectUser(env(), carolId);
  await g.aliceChannel.addMembers([carolId], undefined, { hide_history: true });
  const carolChannel = await watchChannel(carol, 'messaging', g.channelId);
  return { carolId, carol, carolChannel };
}

async function createPoll(client: StreamChat, userId: string): Promise<string> {
  const id = randomUUID();
  await client.createPoll({
    id,
    name: 'Ai sẽ kết đan trước?',
    options: [{ text: 'Ta' }, { text: 'Huynh' }],
    voting_visibility: VotingVisibility.public,
    user_id: userId,
  });
  return id;
}

describe(
  '#2 references to other messages are checked on every write path',
  { timeout: 30_000 },
  () => {
    it('an edit cannot quote a message from a channel the editor cannot read', async () => {
      const g = await group('edit-quote');
      const secret = await elsewhere('edit-quote');
      const own = await sendText(g.bobChannel, 'Lời của ta');

      await expectStreamError(
        g.bob.updateMessage({
          id: own.id,
          text: 'Lời của ta',
          quoted_message_id: secret.messageId,
        }),
        { code: 4, status: 400 },
      );
      const stored = (await g.alice.getMessage(own.id)).message;
      expect(stored.quoted_message_id).toBeUndefined();
      expect(stored.quoted_message).toBeUndefined();
    });

    it('a partial update cannot quote a message from a channel the editor cannot read', async () => {
      const g = await group('patch-quote');
      const secret = await elsewhere('patch-quote');
      const own = await sendText(g.bobChannel, 'Lời của ta');

      await expectStreamError(
        g.bob.partialUpdateMessage(own.id, { set: { quoted_message_id: secret.messageId } }),
        { code: 4, status: 400 },
      );
      const [inChannel] = (await g.aliceChannel.query({ messages: { limit: 5 } })).messages;
      expect(inChannel?.quoted_message).toBeUndefined();
    });

    it('an edit cannot attach a poll that belongs to another user and another message', async () => {
      const g = await group('edit-poll');
      const secret = await elsewhere('edit-poll');
      const own = await sendText(g.bobChannel, 'Bình chọn nào');

      await expectStreamError(
        g.bob.updateMessage({ id: own.id, text: 'Bình chọn nào', poll_id: secret.pollId }),
        { code: 4, status: 400 },
      );
      expect((await g.bob.getMessage(own.id)).message.poll).toBeUndefined();
    });

    it('a partial update cannot attach a poll that belongs to another user and another message', async () => {
      const g = await group('patch-poll');
      const secret = await elsewhere('patch-poll');
      const own = await sendText(g.bobChannel, 'Bình chọn nào');

      await expectStreamError(
        g.bob.partialUpdateMessage(own.id, { set: { poll_id: secret.pollId } }),
        { code: 4, status: 400 },
      );
      expect((await g.bob.getMessage(own.id)).message.poll).toBeUndefined();
    });

    it('a partial update cannot move a poll from its message to another one', async () => {
      const g = await group('patch-own-poll');
      const pollId = await createPoll(g.bob, g.bobId);
      await g.bobChannel.sendMessage({ id: randomUUID(), poll_id: pollId });
      const other = await sendText(g.bobChannel, 'Tin khác');

      await expectStreamError(g.bob.partialUpdateMessage(other.id, { set: { poll_id: pollId } }), {
        code: 4,
        status: 400,
      });
      expect((await g.bob.getMessage(other.id)).message.poll).toBeUndefined();
    });

    it('a draft cannot carry a poll that is already on another message', async () => {
      const g = await group('draft-poll');
      const pollId = await createPoll(g.bob, g.bobId);
      await g.bobChannel.sendMessage({ id: randomUUID(), poll_id: pollId });

      await expectStreamError(
        g.bobChannel.createDraft({ id: randomUUID(), text: 'Lại bình chọn', poll_id: pollId }),
        { code: 4, status: 400 },
      );
    });

    it('a server-side send for a user cannot quote a message hidden from that user', async () => {
      const g = await group('server-quote');
      const old = await sendText(g.aliceChannel, 'Chuyện cũ trước khi Hàn Nguyệt đến');
      const { carolId } = await addWithHiddenHistory(g, 'server-quote');

      await expectStreamError(
        env().admin.channel('messaging', g.channelId).sendMessage({
          id: randomUUID(),
          text: 'Trích',
          quoted_message_id: old.id,
          user_id: carolId,
        }),
        { code: 4, status: 400 },
      );
    });
  },
);

describe('#8 hidden history stays hidden on every read and write path', { timeout: 30_000 }, () => {
  /** A group whose history before `truncated` is gone; `old` is a message from before. */
  async function truncated(prefix: string) {
    const g = await group(prefix);
    const old = await sendText(g.aliceChannel, 'Lời trước khi cắt');
    const reply = await sendText(g.bobChannel, 'Đáp trước khi cắt', { parent_id: old.id });
    await truncate(g.channelId);
    return { ...g, old, reply };
  }

  it('the single-thread view does not show a thread whose parent was truncated', async () => {
    const { bob, old } = await truncated('thread-one');
    await expectStreamError(bob.getThread(old.id), { code: 16, status: 404 });
  });

  it('the thread list leaves out threads whose parent was truncated', async () => {
    const { bob, old } = await truncated('thread-list');
    const { threads } = await bob.queryThreads({ watch: false });
    expect(threads.map((t) => t.id)).not.toContain(old.id);
  });

  it('the thread list leaves out threads the user cleared with clear_history', async () => {
    const g = await group('thread-clear');
    const parent = await sendText(g.aliceChannel, 'Luận đạo');
    await sendText(g.bobChannel, 'Ý ta', { parent_id: parent.id });
    expect((await g.bob.queryThreads({ watch: false })).threads.map((t) => t.id)).toContain(
      parent.id,
    );
    await g.bobChannel.hide(null, true);

    const { threads } = await g.bob.queryThreads({ watch: false });
    expect(threads.map((t) => t.id)).not.toContain(parent.id);
  });

  it('the thread list leaves out threads of a channel the user was removed from', async () => {
    const g = await group('thread-removed');
    const parent = await sendText(g.aliceChannel, 'Luận đạo');
    await sendText(g.bobChannel, 'Ý ta', { parent_id: parent.id });
    await g.aliceChannel.removeMembers([g.bobId]);
    await sendText(g.aliceChannel, 'Sau khi huynh đi', { parent_id: parent.id });

    const { threads } = await g.bob.queryThreads({ watch: false });
    expect(threads.map((t) => t.id)).not.toContain(parent.id);
  });

  it('search by text does not return messages the user cleared with clear_history', async () => {
    const g = await group('search-clear');
    const word = `ngoc${randomUUID().slice(0, 6)}`;
    await sendText(g.aliceChannel, `Viên ${word} giấu trong động`);
    const before = await g.bob.search({ cid: g.bobChannel.cid! }, word);
    expect(before.results).toHaveLength(1);
    await g.bobChannel.hide(null, true);
    // A new message brings the channel back into Bob's list; the cleared history must stay cleared.
    await sendText(g.aliceChannel, 'Tin mới');

    const { results } = await g.bob.search({ cid: g.bobChannel.cid! }, word);
    expect(results).toEqual([]);
  });

  it('search by message id does not return messages from before the user joined with hide_history', async () => {
    const g = await group('search-ids');
    const old = await sendText(g.aliceChannel, 'Chuyện trước khi Hàn Nguyệt đến');
    const { carol } = await addWithHiddenHistory(g, 'search-ids');

    const byIn = await carol.search({ cid: g.aliceChannel.cid! }, { id: { $in: [old.id] } });
    expect(byIn.results).toEqual([]);
    const byEq = await carol.search({ cid: g.aliceChannel.cid! }, { id: old.id });
    expect(byEq.results).toEqual([]);
  });

  it('a new message cannot quote a truncated message', async () => {
    const { bobChannel, old } = await truncated('send-quote');
    await expectStreamError(sendText(bobChannel, 'Trích', { quoted_message_id: old.id }), {
      code: 4,
      status: 400,
    });
  });

  it('an edit cannot quote a truncated message', async () => {
    const { bob, bobChannel, old } = await truncated('edit-hidden-quote');
    const own = await sendText(bobChannel, 'Lời mới');
    await expectStreamError(
      bob.partialUpdateMessage(own.id, { set: { quoted_message_id: old.id } }),
      { code: 4, status: 400 },
    );
  });

  it('a reply cannot be sent under a truncated parent', async () => {
    const { bobChannel, old } = await truncated('reply-hidden');
    await expectStreamError(sendText(bobChannel, 'Đáp', { parent_id: old.id }), {
      code: 4,
      status: 400,
    });
  });

  it('a draft cannot quote a truncated message', async () => {
    const { bobChannel, old } = await truncated('draft-quote');
    await expectStreamError(
      bobChannel.createDraft({ id: randomUUID(), text: 'Trích', quoted_message_id: old.id }),
      { code: 4, status: 400 },
    );
  });

  it('a draft cannot be written under a truncated parent', async () => {
    const { bobChannel, old } = await truncated('draft-parent');
    await expectStreamError(
      bobChannel.createDraft({ id: randomUUID(), text: 'Đáp', parent_id: old.id }),
      { code: 4, status: 400 },
    );
  });

  it('a saved draft no longer carries a quoted message truncated after it was saved', async () => {
    const g = await group('draft-later');
    const old = await sendText(g.aliceChannel, 'Sẽ bị cắt');
    await g.bobChannel.createDraft({ id: randomUUID(), text: 'Trích', quoted_message_id: old.id });
    await truncate(g.channelId);

    const { draft } = await g.bobChannel.getDraft();
    expect(draft.quoted_message).toBeUndefined();
  });

  it('a reminder no longer carries a message truncated after it was set', async () => {
    const g = await group('reminder-later');
    const old = await sendText(g.aliceChannel, 'Nhắc ta việc này');
    await g.bob.createReminder({ messageId: old.id });
    await truncate(g.channelId);

    const { reminders } = await g.bob.queryReminders({});
    expect(reminders.map((r) => r.message_id)).not.toContain(old.id);
  });

  it('a poll on a truncated message cannot be read', async () => {
    const g = await group('poll-get');
    const pollId = await createPoll(g.alice, g.aliceId);
    await g.aliceChannel.sendMessage({ id: randomUUID(), poll_id: pollId });
    await truncate(g.channelId);

    await expectStreamError(g.bob.getPoll(pollId), { code: 16, status: 404 });
  });

  it('the votes of a poll on a truncated message cannot be read', async () => {
    const g = await group('poll-votes');
    const pollId = await createPoll(g.alice, g.aliceId);
    await g.aliceChannel.sendMessage({ id: randomUUID(), poll_id: pollId });
    await truncate(g.channelId);

    await expectStreamError(g.bob.queryPollVotes(pollId), { code: 16, status: 404 });
  });

  it('the poll list leaves out polls on truncated messages', async () => {
    const g = await group('poll-list');
    const pollId = await createPoll(g.alice, g.aliceId);
    await g.aliceChannel.sendMessage({ id: randomUUID(), poll_id: pollId });
    expect((await g.bob.queryPolls({ id: pollId })).polls).toHaveLength(1);
    await truncate(g.channelId);

    const { polls } = await g.bob.queryPolls({ id: pollId });
    expect(polls).toEqual([]);
  });

  it('the poll list shows an anonymous visitor no poll of a private channel', async () => {
    const secret = await elsewhere('poll-anon');
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/polls/query',
      token: null,
      body: { filter: { id: secret.pollId } },
    });
    // Anonymous callers reach only the public read routes; the poll list is not one of them.
    expect(response.status).toBe(403);
    expect(JSON.stringify(response.body)).not.toContain(secret.pollId);
  });

  it('a visible message does not carry a quoted message hidden from the viewer', async () => {
    const g = await group('quote-embed');
    const old = await sendText(g.aliceChannel, 'Chuyện cũ');
    const { carolChannel } = await addWithHiddenHistory(g, 'quote-embed');

    const live = waitForEvent(carolChannel, 'message.new');
    const quoting = await sendText(g.aliceChannel, 'Nhắc lại chuyện cũ', {
      quoted_message_id: old.id,
    });
    const event = await live;
    expect(event.message?.id).toBe(quoting.id);
    expect(event.message?.quoted_message).toBeUndefined();

    const { messages } = await carolChannel.query({ messages: { limit: 10 } });
    const seen = messages.find((m: MessageResponse) => m.id === quoting.id);
    expect(seen).toBeDefined();
    expect(seen?.quoted_message).toBeUndefined();
    // The author, who can see the quoted message, still gets it embedded.
    const forAlice = (await g.alice.getMessage(quoting.id)).message;
    expect(forAlice.quoted_message).toMatchObject({ id: old.id, text: 'Chuyện cũ' });
  });

  /**
   * Collects every event `client` receives about `hiddenId` until it sees `barrier`: events on one channel reach a
   * socket in the order they were published, so once the barrier arrives anything about `hiddenId` has too.
   */
  async function eventsAbout(
    client: StreamChat,
    hiddenId: string,
    act: () => Promise<unknown>,
    barrier: {
      type: 'message.updated' | 'reaction.new';
      messageId: string;
      act: () => Promise<unknown>;
    },
  ): Promise<string[]> {
    const seen: string[] = [];
    const subscription = client.on((event) => {
      const about = event.message?.id ?? event.poll?.id;
      if (about === hiddenId) seen.push(event.type);
    });
    try {
      await act();
      const arrived = waitForEvent(
        client,
        barrier.type,
        (e) => e.message?.id === barrier.messageId,
      );
      await barrier.act();
      await arrived;
    } finally {
      subscription.unsubscribe();
    }
    return seen;
  }

  it('an edit of a message hidden from a member does not reach that member live', async () => {
    const g = await group('event-edit');
    const old = await sendText(g.aliceChannel, 'Chuyện cũ');
    const { carol } = await addWithHiddenHistory(g, 'event-edit');
    const visible = await sendText(g.aliceChannel, 'Chuyện mới');

    const seen = await eventsAbout(
      carol,
      old.id,
      () => g.alice.partialUpdateMessage(old.id, { set: { text: 'Chuyện cũ, sửa lại' } }),
      {
        type: 'message.updated',
        messageId: visible.id,
        act: () => g.alice.partialUpdateMessage(visible.id, { set: { text: 'Chuyện mới, sửa' } }),
      },
    );
    expect(seen).toEqual([]);
  });

  it('a reaction to a message hidden from a member does not reach that member live', async () => {
    const g = await group('event-react');
    const old = await sendText(g.aliceChannel, 'Chuyện cũ');
    const { carol } = await addWithHiddenHistory(g, 'event-react');
    const visible = await sendText(g.aliceChannel, 'Chuyện mới');

    const seen = await eventsAbout(
      carol,
      old.id,
      () => g.aliceChannel.sendReaction(old.id, { type: 'like' }),
      {
        type: 'reaction.new',
        messageId: visible.id,
        act: () => g.aliceChannel.sendReaction(visible.id, { type: 'like' }),
      },
    );
    expect(seen).toEqual([]);
  });

  it('a vote on a poll hidden from a member does not reach that member live', async () => {
    const g = await group('event-vote');
    const pollId = await createPoll(g.alice, g.aliceId);
    const { message } = await g.aliceChannel.sendMessage({ id: randomUUID(), poll_id: pollId });
    const optionId = (await g.alice.getPoll(pollId)).poll.options[0]!.id;
    const { carol } = await addWithHiddenHistory(g, 'event-vote');
    const visible = await sendText(g.aliceChannel, 'Chuyện mới');

    const seen = await eventsAbout(
      carol,
      pollId,
      () => g.alice.castPollVote(message.id, pollId, { option_id: optionId }),
      {
        type: 'reaction.new',
        messageId: visible.id,
        act: () => g.aliceChannel.sendReaction(visible.id, { type: 'like' }),
      },
    );
    expect(seen).toEqual([]);
  });

  it('marking a channel unread at a truncated message is refused', async () => {
    const { bobChannel, old } = await truncated('unread-at');
    await expectStreamError(bobChannel.markUnread({ message_id: old.id }), {
      code: 16,
      status: 404,
    });
  });

  it('unread counts leave out truncated messages', async () => {
    const g = await group('unread-count');
    await sendText(g.aliceChannel, 'Một');
    await sendText(g.aliceChannel, 'Hai');
    const before = await g.bob.getUnreadCount();
    expect(before.channels.find((c) => c.channel_id === g.bobChannel.cid)?.unread_count).toBe(2);
    await truncate(g.channelId);

    const after = await g.bob.getUnreadCount();
    expect(after.channels.find((c) => c.channel_id === g.bobChannel.cid)?.unread_count ?? 0).toBe(
      0,
    );
    const { read } = await g.bobChannel.query({ messages: { limit: 1 } });
    expect(read?.find((r) => r.user.id === g.bobId)?.unread_messages).toBe(0);
  });
});
