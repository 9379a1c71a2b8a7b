import { randomUUID } from 'node:crypto';
import type { Event, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  expectStreamError,
  ids,
  nth,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

/*
 * Pending messages (src/chat/extensions/pending-messages): a message held until the server commits it. A channel type
 * with `mark_messages_pending` holds every message its members send; a server-side send may ask for `pending` in any
 * type. Until committed the message is its author's alone; the commit (server-side only) makes it everyone's and
 * announces it as new.
 */

async function heldType(env: ContractEnv): Promise<string> {
  const name = uniqueId('kiem-duyet').toLowerCase();
  await env.admin.createChannelType({ name, mark_messages_pending: true });
  return name;
}

/** Alice and Bob watch a fresh channel of a type that holds messages; Bob's events are recorded from the start. */
async function heldScene(env: ContractEnv, prefix: string) {
  const type = await heldType(env);
  const shared = await channelWithMembers(env, prefix, { type, users: ['a', 'b'] });
  const alice = nth(shared.members, 0);
  const bob = nth(shared.members, 1);
  const bobEvents: Event[] = [];
  bob.client.on((event) => void bobEvents.push(event));
  return { type, ...shared, alice, bob, bobEvents };
}

function messageNewOf(events: Event[], messageId: string): Event[] {
  return events.filter((e) => e.type === 'message.new' && e.message?.id === messageId);
}

async function unreadOf(client: StreamChat, cid: string): Promise<number> {
  const { channels } = await client.getUnreadCount();
  return channels.find((c) => c.channel_id === cid)?.unread_count ?? 0;
}

describe('pending messages', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('holds a message sent in a type with mark_messages_pending for its author alone, with its metadata', async () => {
    const { cid, alice, bob } = await heldScene(env(), 'held');
    const { message, pending_message_metadata } = await alice.channel.sendMessage(
      { id: randomUUID(), text: 'Xin trưởng lão duyệt' },
      { pending_message_metadata: { ly_do: 'kiểm duyệt' } },
    );
    expect(pending_message_metadata).toEqual({ ly_do: 'kiểm duyệt' });

    const [mine] = await alice.client.queryChannels({ cid });
    expect(ids(mine!.state.messages)).toContain(message.id);
    expect(
      mine!.state.pending_messages?.map((p) => [p.message.id, p.pending_message_metadata]),
    ).toEqual([[message.id, { ly_do: 'kiểm duyệt' }]]);
    expect((await alice.client.getMessage(message.id)).message.text).toBe('Xin trưởng lão duyệt');

    const [theirs] = await bob.client.queryChannels({ cid });
    expect(ids(theirs!.state.messages)).not.toContain(message.id);
    expect(theirs!.state.pending_messages).toEqual([]);
    await expectStreamError(bob.client.getMessage(message.id), { code: 16, status: 404 });
    expect(await unreadOf(bob.client, cid)).toBe(0);
  });

  it('commits a pending message server-side: everyone then gets message.new once, unread counts and the channel', async () => {
    const { cid, alice, bob, bobEvents } = await heldScene(env(), 'commit');
    const held = await sendText(alice.channel, 'Đạo hữu xin dừng bước');
    const committedNew = waitForEvent(bob.client, 'message.new', (e) => e.message?.id === held.id);

    const { message } = (await env().admin.commitMessage(held.id)) as unknown as {
      message: { id: string; text: string };
    };
    expect(message).toMatchObject({ id: held.id, text: 'Đạo hữu xin dừng bước' });
    await committedNew;

    // The socket delivers in order: a message.new sent before the commit would be recorded ahead of this one.
    expect(messageNewOf(bobEvents, held.id)).toHaveLength(1);
    const [theirs] = await bob.client.queryChannels({ cid });
    expect(ids(theirs!.state.messages)).toContain(held.id);
    expect(theirs!.data?.last_message_at).toBeDefined();
    expect(await unreadOf(bob.client, cid)).toBe(1);
    const [mine] = await alice.client.queryChannels({ cid });
    expect(mine!.state.pending_messages).toEqual([]);
  });

  it('refuses a second commit, a commit of a message that was never pending, an unknown id and a user token', async () => {
    const { alice } = await heldScene(env(), 'commit-bad');
    const held = await sendText(alice.channel, 'Một lần thôi');
    await expectStreamError(alice.client.commitMessage(held.id), { code: 17, status: 403 });
    await env().admin.commitMessage(held.id);
    await expectStreamError(env().admin.commitMessage(held.id), {
      code: 4,
      status: 400,
      message: /not pending/,
    });
    await expectStreamError(env().admin.commitMessage(`khong-co-${randomUUID()}`), {
      code: 16,
      status: 404,
    });
    const plain = await twoMembers(env(), 'commit-plain');
    const normal = await sendText(plain.aliceChannel, 'Tin thường');
    await expectStreamError(env().admin.commitMessage(normal.id), { code: 4, message: /pending/ });
  });

  it('lets a server-side send ask for pending in any type, and refuses a user token that asks where the type does not hold messages', async () => {
    const { aliceId, alice, bob, aliceChannel, bobChannel } = await twoMembers(
      env(),
      'server-held',
    );
    const server = env().admin.channel('messaging', aliceChannel.id!);
    const { message } = await server.sendMessage(
      { id: randomUUID(), text: 'Gửi thay', user_id: aliceId },
      { pending: true, pending_message_metadata: { nguon: 'may-chu' } },
    );

    const [mine] = await alice.queryChannels({ cid: aliceChannel.cid! });
    expect(mine!.state.pending_messages?.map((p) => p.message.id)).toEqual([message.id]);
    const [theirs] = await bob.queryChannels({ cid: bobChannel.cid! });
    expect(ids(theirs!.state.messages)).not.toContain(message.id);

    await expectStreamError(
      aliceChannel.sendMessage({ id: randomUUID(), text: 'Tự giữ' }, { pending: true }),
      { code: 17, status: 403, message: /pending/ },
    );
    await expectStreamError(
      aliceChannel.sendMessage({ id: randomUUID(), text: 'Tự giữ' }, { is_pending_message: true }),
      { code: 17, message: /pending/ },
    );
    await expectStreamError(
      aliceChannel.sendMessage({ id: randomUUID(), text: 'x' }, {
        pending_message_metadata: 'không phải đối tượng',
      } as never),
      { code: 4, status: 400, message: /pending_message_metadata/ },
    );
  });

  it('deletes a pending message only hard, by its author or the server, and never lets it be edited', async () => {
    const { cid, alice, bob } = await heldScene(env(), 'delete');
    const first = await sendText(alice.channel, 'Rút lại');
    const second = await sendText(alice.channel, 'Trưởng lão bác bỏ');

    await expectStreamError(alice.client.deleteMessage(first.id), {
      code: 4,
      message: /hard/,
    });
    await expectStreamError(alice.client.updateMessage({ id: first.id, text: 'Sửa' }), {
      code: 4,
      message: /pending/,
    });
    await expectStreamError(bob.client.deleteMessage(first.id, true), { code: 16 });

    await alice.client.deleteMessage(first.id, true);
    await env().admin.deleteMessage(second.id, true);
    const [mine] = await alice.client.queryChannels({ cid });
    expect(mine!.state.pending_messages).toEqual([]);
    await expectStreamError(env().admin.commitMessage(second.id), { code: 16 });
  });

  it('keeps a pending reply out of its parent until committed, then counts it', async () => {
    const { type, channelId, alice, bob } = await heldScene(env(), 'reply');
    const parent = await sendText(bob.channel, 'Hỏi đạo');
    await env().admin.commitMessage(parent.id);
    const reply = await sendText(alice.channel, 'Đáp đạo', { parent_id: parent.id });

    expect((await bob.client.getMessage(parent.id)).message.reply_count).toBe(0);
    expect((await bob.channel.getReplies(parent.id, {})).messages).toEqual([]);

    await env().admin.commitMessage(reply.id);
    expect((await bob.client.getMessage(parent.id)).message.reply_count).toBe(1);
    expect(ids((await bob.channel.getReplies(parent.id, {})).messages)).toEqual([reply.id]);
    const thread = await bob.client.getThread(parent.id);
    expect(thread.channel.cid).toBe(`${type}:${channelId}`);
  });
});
