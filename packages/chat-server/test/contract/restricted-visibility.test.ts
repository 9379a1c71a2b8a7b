import { StreamChat, type Channel, type Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  expectStreamError,
  nth,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

/*
 * Stream's private messaging: a message sent with `restricted_visibility` exists for its author and the users it
 * lists, on every path that reads or announces messages (core/access/visibility.ts).
 */

interface Scene {
  cid: string;
  channelId: string;
  ids: { john: string; jane: string; bob: string };
  clients: { john: StreamChat; jane: StreamChat; bob: StreamChat };
  channels: { john: Channel; jane: Channel; bob: Channel };
}

async function scene(env: ContractEnv, prefix: string): Promise<Scene> {
  const { cid, channelId, members } = await channelWithMembers(env, prefix, {
    users: [
      { prefix: `${prefix}-john` },
      { prefix: `${prefix}-jane` },
      { prefix: `${prefix}-bob` },
    ],
  });
  const [john, jane, bob] = [nth(members, 0), nth(members, 1), nth(members, 2)];
  return {
    cid,
    channelId,
    ids: { john: john.id, jane: jane.id, bob: bob.id },
    clients: { john: john.client, jane: jane.client, bob: bob.client },
    channels: { john: john.channel, jane: jane.channel, bob: bob.channel },
  };
}

/** The server sends as john, for jane only. */
async function privateNote(env: ContractEnv, s: Scene, text: string) {
  const { message } = await env.admin
    .channel('messaging', s.channelId)
    .sendMessage({ text, user_id: s.ids.john, restricted_visibility: [s.ids.jane] });
  return message;
}

/** The channel's messages as the server reads them for `userId`, through a client that holds no earlier state. */
async function messageIdsSeenBy(env: ContractEnv, cid: string, userId: string) {
  const server = new StreamChat(env.admin.key, env.admin.secret, { baseURL: env.admin.baseURL });
  const [channel] = await server.queryChannels({ cid }, {}, { user_id: userId, message_limit: 20 });
  return channel?.state.messages.map((message) => message.id) ?? [];
}

/** Every event of `types` `client` receives from now on. */
function recorder(client: StreamChat, types: string[]): Event[] {
  const seen: Event[] = [];
  client.on((event) => {
    if (types.includes(event.type)) seen.push(event);
  });
  return seen;
}

describe('messages with restricted visibility', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('are read by their author and the users they list, and by nobody else, on every read path', async () => {
    const s = await scene(env(), 'rieng');
    const note = await privateNote(env(), s, 'Đạo hữu Jane, xe đến trong một phút');

    expect(note.restricted_visibility).toEqual([s.ids.jane]);
    expect(await messageIdsSeenBy(env(), s.cid, s.ids.jane)).toContain(note.id);
    expect(await messageIdsSeenBy(env(), s.cid, s.ids.john)).toContain(note.id);
    expect(await messageIdsSeenBy(env(), s.cid, s.ids.bob)).not.toContain(note.id);

    expect((await s.clients.jane.getMessage(note.id)).message.text).toBe(note.text);
    await expectStreamError(s.clients.bob.getMessage(note.id), { code: 16, status: 404 });
    const bobPage = await s.channels.bob.query({ messages: { limit: 20 } });
    expect(bobPage.messages.map((m) => m.id)).not.toContain(note.id);

    const found = async (client: StreamChat) =>
      (await client.search({ cid: s.cid }, 'phút')).results.map((r) => r.message.id);
    expect(await found(s.clients.jane)).toEqual([note.id]);
    expect(await found(s.clients.bob)).toEqual([]);
    // What bob cannot see, he cannot reply to or quote; quoted by jane for everyone, it is not shown to him.
    await expectStreamError(sendText(s.channels.bob, 'Trả lời', { parent_id: note.id }), {
      code: 4,
    });
    const quote = await sendText(s.channels.jane, 'Nhắc lại cho mọi người', {
      quoted_message_id: note.id,
    });
    const quotedFor = async (client: StreamChat) =>
      (await client.getMessage(quote.id)).message.quoted_message?.id;
    expect(await quotedFor(s.clients.jane)).toBe(note.id);
    expect(await quotedFor(s.clients.bob)).toBeUndefined();
  });

  it('are announced to their audience alone, and count as unread for them alone', async () => {
    const s = await scene(env(), 'bao');
    const bobSaw = recorder(s.clients.bob, ['message.new', 'notification.message_new']);
    const janeGot = waitForEvent(s.clients.jane, 'message.new');

    const note = await privateNote(env(), s, 'Chỉ Jane được biết');
    expect((await janeGot).message?.id).toBe(note.id);
    // A message for everyone, sent after: once bob has it, he would have had the private one before.
    const publicSeen = waitForEvent(s.clients.bob, 'message.new');
    const open = await sendText(s.channels.john, 'Ai cũng thấy');
    await publicSeen;

    expect(bobSaw.map((event) => event.message?.id)).toEqual([open.id]);
    const unread = async (client: StreamChat) =>
      (await client.getUnreadCount()).channels.find((c) => c.channel_id === s.cid)?.unread_count;
    expect(await unread(s.clients.jane)).toBe(2);
    expect(await unread(s.clients.bob)).toBe(1);
  });

  it('keep their edits, reactions and deletion from everyone else', async () => {
    const s = await scene(env(), 'sua');
    const note = await privateNote(env(), s, 'Bản nháp riêng');
    const bobSaw = recorder(s.clients.bob, [
      'message.updated',
      'message.deleted',
      'reaction.new',
      'message.new',
    ]);

    const reacted = waitForEvent(s.clients.john, 'reaction.new');
    await s.channels.jane.sendReaction(note.id, { type: 'like' });
    await reacted;
    const edited = waitForEvent(s.clients.jane, 'message.updated');
    await env().admin.updateMessage(
      { id: note.id, text: 'Bản nháp đã sửa', restricted_visibility: [s.ids.jane] },
      s.ids.john,
    );
    await edited;
    const deleted = waitForEvent(s.clients.jane, 'message.deleted');
    await env().admin.deleteMessage(note.id);
    await deleted;
    const publicSeen = waitForEvent(s.clients.bob, 'message.new');
    await sendText(s.channels.john, 'Tin chung');
    await publicSeen;

    expect(bobSaw.map((event) => event.type)).toEqual(['message.new']);
  });

  it('leave no reader behind when deleted for good: a message sent again under the same id is for its own audience', async () => {
    const s = await scene(env(), 'tai-dung');
    const channel = env().admin.channel('messaging', s.channelId);
    const id = uniqueId('thu');
    await channel.sendMessage({
      id,
      text: 'Thư cho Jane',
      user_id: s.ids.john,
      restricted_visibility: [s.ids.jane],
    });
    await env().admin.deleteMessage(id, true);
    await channel.sendMessage({
      id,
      text: 'Thư cho Bob',
      user_id: s.ids.john,
      restricted_visibility: [s.ids.bob],
    });

    expect(await messageIdsSeenBy(env(), s.cid, s.ids.bob)).toContain(id);
    expect(await messageIdsSeenBy(env(), s.cid, s.ids.jane)).not.toContain(id);
  });

  it('cannot be pinned, and an update cannot change who they are for', async () => {
    const s = await scene(env(), 'ghim');
    const note = await privateNote(env(), s, 'Không được ghim');
    await expectStreamError(env().admin.pinMessage(note.id, null, s.ids.john), {
      code: 4,
      message: /restricted visibility cannot be pinned/,
    });
    await expectStreamError(
      env().admin.partialUpdateMessage(
        note.id,
        { set: { restricted_visibility: [s.ids.bob] } as never },
        s.ids.john,
      ),
      { code: 4, message: /restricted_visibility cannot be changed/ },
    );
    await expectStreamError(
      env().admin.partialUpdateMessage(
        note.id,
        { unset: ['restricted_visibility'] as never },
        s.ids.john,
      ),
      { code: 4, message: /restricted_visibility cannot be changed/ },
    );
    await expectStreamError(
      env()
        .admin.channel('messaging', s.channelId)
        .sendMessage({
          text: 'Ghim ngay',
          user_id: s.ids.john,
          restricted_visibility: [s.ids.jane],
          pinned: true,
        }),
      { code: 4, message: /cannot be pinned/ },
    );
    expect(await messageIdsSeenBy(env(), s.cid, s.ids.bob)).not.toContain(note.id);
  });

  it('need the create-restricted-visibility-message grant from a client, and a list of user ids', async () => {
    const type = uniqueId('rieng')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    await env().admin.createChannelType({ name: type });
    const { members } = await channelWithMembers(env(), 'quyen', {
      type,
      users: [{ prefix: 'quyen-a' }, { prefix: 'quyen-b' }],
    });
    const [alice, bob] = [nth(members, 0), nth(members, 1)];
    const forBob = { restricted_visibility: [bob.id] };
    await expectStreamError(sendText(alice.channel, 'Thử', forBob), {
      code: 17,
      message: /restricted visibility/,
    });

    const { grants } = await env().admin.getChannelType(type);
    await env().admin.updateChannelType(type, {
      grants: {
        channel_member: [
          ...((grants as Record<string, string[]> | undefined)?.channel_member ?? []),
          'create-restricted-visibility-message',
        ],
      },
    });
    const sent = await sendText(alice.channel, 'Riêng cho Bob', forBob);
    expect(sent.restricted_visibility).toEqual([bob.id]);

    for (const [value, message] of [
      ['bob', /list of user ids/],
      [[1], /list of user ids/],
      [Array.from({ length: 101 }, (_, i) => `u${i}`), /at most 100/],
    ] as const)
      await expectStreamError(
        sendText(alice.channel, 'Sai', { restricted_visibility: value as never }),
        { code: 4, message },
      );
  });
});
