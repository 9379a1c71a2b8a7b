import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

/** The only keys a hard-deleted message keeps (docs/product-rules.md §10; stream-chat `toDeletedMessage`). */
const HARD_DELETED_KEYS = [
  'attachments',
  'cid',
  'created_at',
  'deleted_at',
  'id',
  'latest_reactions',
  'mentioned_users',
  'own_reactions',
  'parent_id',
  'reply_count',
  'status',
  'thread_participants',
  'type',
  'updated_at',
  'user',
];

const EMPTY_REACTION_KEYS = ['reaction_counts', 'reaction_scores', 'reaction_groups'];

function isEmptyObject(value: unknown): boolean {
  return value === null || (typeof value === 'object' && Object.keys(value).length === 0);
}

describe('messages', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  const pair = (prefix: string) =>
    twoMembers(env(), prefix, { alice: { name: 'Lý Mộ Uyển' }, bob: { name: 'Đoàn Dự' } });

  it('keeps the client-generated id and delivers the message to the other watcher', async () => {
    const { aliceId, aliceChannel, bobChannel } = await pair('send');
    const id = `${aliceId}-${randomUUID()}`;

    const arrived = waitForEvent(bobChannel, 'message.new', (event) => event.message?.id === id);
    const echoed = waitForEvent(aliceChannel, 'message.new', (event) => event.message?.id === id);
    const response = await aliceChannel.sendMessage({ id, text: 'Đạo hữu xin dừng bước' });
    const event = await arrived;
    await echoed;

    expect(response.message).toMatchObject({
      id,
      text: 'Đạo hữu xin dừng bước',
      type: 'regular',
      cid: aliceChannel.cid,
      user: { id: aliceId, name: 'Lý Mộ Uyển' },
      attachments: [],
      mentioned_users: [],
      latest_reactions: [],
      own_reactions: [],
      reply_count: 0,
    });
    expect(event).toMatchObject({
      cid: aliceChannel.cid,
      channel_type: 'messaging',
      channel_id: aliceChannel.id,
    });
    expect(event.user?.id).toBe(aliceId);
    expect(ids(bobChannel.state.messages)).toEqual([id]);
    expect(bobChannel.state.messages[0]?.text).toBe('Đạo hữu xin dừng bước');
    expect(aliceChannel.state.messages[0]?.status).toBe('received');
  });

  it('refuses a second message with the same id with code 4 "already exists" and stores it once', async () => {
    const { aliceChannel, bobChannel } = await pair('dup');
    const id = randomUUID();
    await aliceChannel.sendMessage({ id, text: 'Lần đầu' });

    await expectStreamError(aliceChannel.sendMessage({ id, text: 'Lần hai' }), {
      code: 4,
      status: 400,
      message: /already exists/,
    });
    const reread = await bobChannel.query({ messages: { limit: 100 } });
    expect(reread.messages.map((message) => [message.id, message.text])).toEqual([[id, 'Lần đầu']]);
  });

  it('updates a message from its local copy, ignoring the read-only fields the client echoes back', async () => {
    const { aliceChannel, bobChannel, alice } = await pair('update');
    const ownCopy = waitForEvent(
      aliceChannel,
      'message.new',
      (event) => event.message?.text === 'Bản nháp',
    );
    const sent = await sendText(aliceChannel, 'Bản nháp');
    await ownCopy;
    const local = aliceChannel.state.messages.find((message) => message.id === sent.id);
    if (!local) throw new Error('the sent message is not in the sender state');

    const updated = waitForEvent(
      bobChannel,
      'message.updated',
      (event) => event.message?.id === sent.id,
    );
    const response = await alice.updateMessage({ ...local, text: 'Bản chính thức' });
    await updated;

    expect(response.message).toMatchObject({
      id: sent.id,
      text: 'Bản chính thức',
      type: 'regular',
    });
    expect(bobChannel.state.messages.find((message) => message.id === sent.id)?.text).toBe(
      'Bản chính thức',
    );
    const { message } = await alice.getMessage(sent.id);
    expect(message.text).toBe('Bản chính thức');
    expect(message.created_at).toBe(sent.created_at);
    expect(new Date(message.updated_at ?? 0).getTime()).toBeGreaterThanOrEqual(
      new Date(sent.updated_at ?? 0).getTime(),
    );
    expect(message.user?.id).toBe(sent.user?.id);
  });

  it('sets and unsets fields with partialUpdateMessage, custom data included', async () => {
    const { aliceChannel, bobChannel, alice } = await pair('partial');
    const sent = await sendText(aliceChannel, 'Cảnh giới hiện tại', { canh_gioi: 'Trúc Cơ' });
    expect(sent.canh_gioi).toBe('Trúc Cơ');

    const updated = waitForEvent(
      bobChannel,
      'message.updated',
      (event) => event.message?.id === sent.id,
    );
    const response = await alice.partialUpdateMessage(sent.id, {
      set: { text: 'Đột phá rồi' },
      unset: ['canh_gioi'],
    });
    await updated;

    expect(response.message.text).toBe('Đột phá rồi');
    expect(response.message).not.toHaveProperty('canh_gioi');
    const inState = bobChannel.state.messages.find((message) => message.id === sent.id);
    expect(inState?.text).toBe('Đột phá rồi');
    expect(inState).not.toHaveProperty('canh_gioi');
  });

  it('soft-deletes a message: it stays in the channel as type deleted with deleted_at', async () => {
    const { aliceChannel, bobChannel, alice, bob } = await pair('soft');
    const sent = await sendText(aliceChannel, 'Lỡ lời');

    const deleted = waitForEvent(
      bobChannel,
      'message.deleted',
      (event) => event.message?.id === sent.id,
    );
    const response = await alice.deleteMessage(sent.id);
    const event = await deleted;

    expect(response.message).toMatchObject({
      id: sent.id,
      type: 'deleted',
      deleted_at: expect.any(String),
    });
    expect(event.hard_delete ?? false).toBe(false);
    const inState = bobChannel.state.messages.find((message) => message.id === sent.id);
    expect(inState?.type).toBe('deleted');
    expect(inState?.deleted_at).toBeInstanceOf(Date);
    const { message } = await bob.getMessage(sent.id);
    expect(message.type).toBe('deleted');
  });

  it('hard-deletes a message down to the exact deleted shape and removes it from the other watcher', async () => {
    const { aliceChannel, bobChannel, alice } = await pair('hard');
    const keep = await sendText(aliceChannel, 'Ở lại');
    const sent = await sendText(aliceChannel, 'Biến mất', { canh_gioi: 'Kim Đan' });

    const deleted = waitForEvent(
      bobChannel,
      'message.deleted',
      (event) => event.message?.id === sent.id,
    );
    const response = await alice.deleteMessage(sent.id, { hardDelete: true });
    const event = await deleted;

    for (const message of [response.message, event.message]) {
      expect(message).toBeDefined();
      // Reaction aggregates may stay as empty objects: "reactions are empty" either way.
      const keys = Object.entries(message ?? {})
        .filter(([, value]) => value !== undefined)
        .filter(([key, value]) => !(EMPTY_REACTION_KEYS.includes(key) && isEmptyObject(value)))
        .map(([key]) => key);
      expect(HARD_DELETED_KEYS).toEqual(expect.arrayContaining(keys));
      expect(message).toMatchObject({
        id: sent.id,
        cid: aliceChannel.cid,
        type: 'deleted',
        deleted_at: expect.any(String),
        created_at: sent.created_at,
        attachments: [],
        latest_reactions: [],
        own_reactions: [],
        mentioned_users: [],
        user: { id: sent.user?.id },
      });
    }
    expect(event.hard_delete).toBe(true);
    expect(ids(bobChannel.state.messages)).toEqual([keep.id]);
    const reread = await bobChannel.query({ messages: { limit: 100 } });
    expect(ids(reread.messages)).toEqual([keep.id]);
  });

  it('fetches single messages by id and several with getMessagesById', async () => {
    const { aliceChannel, bob, bobChannel } = await pair('get');
    const one = await sendText(aliceChannel, 'Một');
    const two = await sendText(aliceChannel, 'Hai');
    await sendText(aliceChannel, 'Ba');

    const { message } = await bob.getMessage(one.id);
    const several = await bobChannel.getMessagesById([two.id, one.id]);

    expect(message).toMatchObject({ id: one.id, text: 'Một', cid: aliceChannel.cid });
    expect(several.messages.map((item) => item.id).sort()).toEqual([one.id, two.id].sort());
    await expectStreamError(bob.getMessage(randomUUID()), { code: 16, status: 404 });
  });

  it('carries the quoted message inside the quoting message, for the sender and the other watcher', async () => {
    const { aliceChannel, bobChannel } = await pair('quote');
    const original = await sendText(aliceChannel, 'Câu gốc');

    const arrived = waitForEvent(
      bobChannel,
      'message.new',
      (event) => event.message?.quoted_message_id === original.id,
    );
    const reply = await sendText(aliceChannel, 'Trích dẫn', { quoted_message_id: original.id });
    await arrived;

    expect(reply.quoted_message_id).toBe(original.id);
    expect(reply.quoted_message).toMatchObject({ id: original.id, text: 'Câu gốc' });
    const inState = bobChannel.state.messages.find((message) => message.id === reply.id);
    expect(inState?.quoted_message?.text).toBe('Câu gốc');
  });

  it('lets an edit keep its quote, even of a message deleted since, and change it to another one of the channel', async () => {
    const { alice, aliceChannel } = await pair('quote-edit');
    const original = await sendText(aliceChannel, 'Câu gốc');
    const other = await sendText(aliceChannel, 'Câu khác');
    const reply = await sendText(aliceChannel, 'Trích dẫn', { quoted_message_id: original.id });
    await alice.deleteMessage(original.id);

    const kept = await alice.updateMessage({ ...reply, text: 'Trích dẫn, sửa lại' });
    expect(kept.message.quoted_message_id).toBe(original.id);
    const moved = await alice.partialUpdateMessage(reply.id, {
      set: { quoted_message_id: other.id },
    });
    expect(moved.message.quoted_message).toMatchObject({ id: other.id, text: 'Câu khác' });
  });

  it('expands mentioned user ids into user objects', async () => {
    const { aliceChannel, bobId } = await pair('mention');

    const sent = await sendText(aliceChannel, '@Đoàn Dự xem này', { mentioned_users: [bobId] });

    expect(sent.mentioned_users).toEqual([expect.objectContaining({ id: bobId, name: 'Đoàn Dự' })]);
  });

  it('does not count a silent message as unread for the other member', async () => {
    const { aliceChannel, bob, channelId } = await pair('silent');
    await bob.channel('messaging', channelId).markRead();
    await bob.channel('messaging', channelId).stopWatching();

    const sent = await sendText(aliceChannel, 'Lặng lẽ', { silent: true });
    const fresh = await bob.channel('messaging', channelId).query({ messages: { limit: 10 } });

    expect(sent.silent).toBe(true);
    expect(fresh.messages.find((message) => message.id === sent.id)?.silent).toBe(true);
    expect(fresh.read?.find((read) => read.user.id === bob.userID)?.unread_messages).toBe(0);
    expect(bob.channel('messaging', channelId).countUnread()).toBe(0);
  });

  it('accepts text up to the configured maximum length and refuses one character more with code 4', async () => {
    const { aliceChannel, bobChannel } = await pair('long');
    const max = aliceChannel.getConfig()?.max_message_length;
    expect(max).toEqual(expect.any(Number));
    const limit = max ?? 0;

    const atLimit = await sendText(aliceChannel, 'đ'.repeat(limit));
    await expectStreamError(aliceChannel.sendMessage({ text: 'đ'.repeat(limit + 1) }), {
      code: 4,
      status: 400,
    });

    expect(atLimit.text).toHaveLength(limit);
    const reread = await bobChannel.query({ messages: { limit: 100 } });
    expect(ids(reread.messages)).toEqual([atLimit.id]);
  });

  it('posts the message a channel update or truncate carries as a system message the other watcher receives', async () => {
    const { aliceId, bobChannel, channelId } = await pair('system');
    const channel = env().admin.channel('messaging', channelId);
    const renamed = 'Đạo trường đã đổi tên';
    const onRename = waitForEvent(bobChannel, 'message.new', (e) => e.message?.text === renamed);
    await channel.update({ name: 'Đạo trường mới' } as never, { text: renamed, user_id: aliceId });
    expect((await onRename).message).toMatchObject({ type: 'system', user: { id: aliceId } });

    const cleared = 'Lịch sử đã được xoá';
    const onTruncate = waitForEvent(bobChannel, 'message.new', (e) => e.message?.text === cleared);
    await channel.truncate({ message: { text: cleared, user_id: aliceId } } as never);
    expect((await onTruncate).message).toMatchObject({ type: 'system', user: { id: aliceId } });
    const after = await bobChannel.query({ messages: { limit: 10 } });
    expect(after.messages.map((m) => [m.type, m.text])).toEqual([['system', cleared]]);
  });
});
