import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

// Messages as Stream's docs use them: paging pinned messages, system messages, nested partial updates and
// delete-for-me.
describe('pinned messages paging as Stream documents it', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function fivePins() {
    const scene = await twoMembers(env(), 'pinpage');
    const pinned: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const message = await sendText(scene.aliceChannel, `Môn quy ${i}`);
      await scene.alice.pinMessage(message);
      pinned.push(message.id);
    }
    await sendText(scene.aliceChannel, 'Không ghim');
    const newestFirst = ids(
      (await scene.bobChannel.getPinnedMessages({ limit: 100 }, { pinned_at: -1 })).messages,
    );
    return { ...scene, pinned, newestFirst };
  }

  it('lists pins oldest first by default, as Stream pages them, and newest first with {pinned_at: -1}', async () => {
    const { bobChannel, pinned, newestFirst } = await fivePins();
    expect(newestFirst).toEqual([...pinned].reverse());
    const byDefault = await bobChannel.getPinnedMessages({ limit: 100 });
    expect(ids(byDefault.messages)).toEqual(pinned);
    const oldestFirst = await bobChannel.getPinnedMessages({ limit: 100 }, { pinned_at: 1 });
    expect(ids(oldestFirst.messages)).toEqual(pinned);
    // Stream's docs page forward from the oldest with id_gt.
    const next = await bobChannel.getPinnedMessages({ limit: 2, id_gt: pinned[1] });
    expect(ids(next.messages)).toEqual(pinned.slice(2, 4));
  });

  it('pages with id_lt / id_lte / id_gt / id_gte, each returning exactly the next page', async () => {
    const { bobChannel, newestFirst } = await fivePins();
    const page1 = await bobChannel.getPinnedMessages({ limit: 2 }, { pinned_at: -1 });
    expect(ids(page1.messages)).toEqual(newestFirst.slice(0, 2));
    const page2 = await bobChannel.getPinnedMessages(
      { limit: 2, id_lt: newestFirst[1] },
      { pinned_at: -1 },
    );
    expect(ids(page2.messages)).toEqual(newestFirst.slice(2, 4));
    const page3 = await bobChannel.getPinnedMessages(
      { limit: 2, id_lt: newestFirst[3] },
      { pinned_at: -1 },
    );
    expect(ids(page3.messages)).toEqual(newestFirst.slice(4));
    const lte = await bobChannel.getPinnedMessages(
      { limit: 2, id_lte: newestFirst[1] },
      { pinned_at: -1 },
    );
    expect(ids(lte.messages)).toEqual(newestFirst.slice(1, 3));
    // Going back up towards newer pins: the two just after the cursor, still newest first.
    const newer = await bobChannel.getPinnedMessages(
      { limit: 2, id_gt: newestFirst[4] },
      { pinned_at: -1 },
    );
    expect(ids(newer.messages)).toEqual(newestFirst.slice(2, 4));
    const gte = await bobChannel.getPinnedMessages(
      { limit: 10, id_gte: newestFirst[2] },
      { pinned_at: -1 },
    );
    expect(ids(gte.messages)).toEqual(newestFirst.slice(0, 3));
  });

  it('bounds the pin time with pinned_at_before / after (and _or_equal)', async () => {
    const { bobChannel, newestFirst } = await fivePins();
    const listed = (await bobChannel.getPinnedMessages({ limit: 100 }, { pinned_at: -1 })).messages;
    const middle = listed[2]!.pinned_at!;
    const before = await bobChannel.getPinnedMessages(
      { pinned_at_before: middle },
      { pinned_at: -1 },
    );
    expect(ids(before.messages)).toEqual(newestFirst.slice(3));
    const beforeOrEqual = await bobChannel.getPinnedMessages(
      {
        pinned_at_before_or_equal: middle,
      },
      { pinned_at: -1 },
    );
    expect(ids(beforeOrEqual.messages)).toEqual(newestFirst.slice(2));
    const after = await bobChannel.getPinnedMessages({ pinned_at_after: middle }, { pinned_at: 1 });
    expect(ids(after.messages)).toEqual(newestFirst.slice(0, 2).reverse());
    const afterOrEqual = await bobChannel.getPinnedMessages(
      {
        pinned_at_after_or_equal: middle,
        limit: 1,
      },
      { pinned_at: -1 },
    );
    expect(ids(afterOrEqual.messages)).toEqual([newestFirst[2]]);
  });

  it('refuses bad paging values with code 4 naming the option', async () => {
    const { bobChannel, channelId, alice } = await fivePins();
    const unpinned = await sendText(alice.channel('messaging', channelId), 'Thường');
    await expectStreamError(
      bobChannel.getPinnedMessages({ id_lt: unpinned.id }, { pinned_at: -1 }),
      {
        code: 4,
        status: 400,
        message: /id_lt/,
      },
    );
    await expectStreamError(
      bobChannel.getPinnedMessages({ id_gt: 'không-có' }, { pinned_at: -1 }),
      {
        code: 4,
        message: /id_gt/,
      },
    );
    await expectStreamError(
      bobChannel.getPinnedMessages({ pinned_at_after: 'mai' }, { pinned_at: -1 }),
      {
        code: 4,
        message: /pinned_at_after/,
      },
    );
    await expectStreamError(bobChannel.getPinnedMessages({ limit: 301 }, { pinned_at: -1 }), {
      code: 4,
      message: /limit/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ offset: -1 }, { pinned_at: -1 }), {
      code: 4,
      message: /offset/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({}, { created_at: -1 } as never), {
      code: 4,
      message: /pinned_at/,
    });
  });
});

describe('messages as Stream documents them', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('keeps @here, @channel and role mentions with the message and returns them as sent, to the other member too', async () => {
    const { aliceChannel, bobChannel } = await twoMembers(env(), 'nhac-ten');
    const seen = waitForEvent(bobChannel, 'message.new', (e) => e.message?.text === 'Chư vị!');
    const { message } = await aliceChannel.sendMessage({
      text: 'Chư vị!',
      mentioned_here: true,
      mentioned_channel: true,
      mentioned_roles: ['channel_moderator', 'admin'],
    });
    const expected = {
      mentioned_here: true,
      mentioned_channel: true,
      mentioned_roles: ['channel_moderator', 'admin'],
    };
    expect(message).toMatchObject(expected);
    expect((await seen).message).toMatchObject(expected);
    const { messages } = await bobChannel.query({ messages: { limit: 1 } });
    expect(messages[0]).toMatchObject(expected);

    const plain = await sendText(aliceChannel, 'Riêng ta');
    expect(plain).not.toHaveProperty('mentioned_here');
    for (const bad of [
      { mentioned_here: 'co' },
      { mentioned_roles: 'admin' },
      { mentioned_roles: [7] },
    ])
      await expectStreamError(aliceChannel.sendMessage({ text: 'Sai', ...bad } as never), {
        code: 4,
      });
  });

  it('renders the markdown of a message as html, as Stream documents, escaping what was written as HTML', async () => {
    const { aliceChannel, bobChannel } = await twoMembers(env(), 'html');
    const client = aliceChannel.getClient();
    const hello = await sendText(aliceChannel, 'Hello, world!');
    expect(hello.html).toBe('<p>Hello, world!</p>\n');
    const bold = await sendText(aliceChannel, 'some **bold**');
    expect(bold.html).toBe('<p>some <strong>bold</strong></p>\n');
    const seen = waitForEvent(
      bobChannel,
      'message.new',
      (e) => e.message?.text?.startsWith('<script') === true,
    );
    const script = await sendText(
      aliceChannel,
      '<script>alert(1)</script> [x](javascript:alert(1))',
    );
    expect(script.html).not.toContain('<script');
    expect(script.html).not.toContain('href="javascript');
    expect((await seen).message?.html).toBe(script.html);

    const { message: edited } = await client.updateMessage({
      id: hello.id,
      text: 'Chào *đạo hữu*',
    });
    expect(edited.html).toBe('<p>Chào <em>đạo hữu</em></p>\n');
    const { message: partial } = await client.partialUpdateMessage(hello.id, {
      set: { text: 'Chào' },
    });
    expect(partial.html).toBe('<p>Chào</p>\n');
    expect((await client.getMessage(hello.id)).message.html).toBe('<p>Chào</p>\n');
  });

  it('mentions at most 25 users in a message, as Stream documents: a 26th is code 4 and nothing is stored', async () => {
    const { aliceChannel } = await twoMembers(env(), 'nhac-nhieu');
    const people = Array.from({ length: 26 }, (_, i) => uniqueId(`nguoi-${i}`));
    await createUsers(env(), people);
    const { message } = await aliceChannel.sendMessage({
      text: 'Hai mươi lăm vị',
      mentioned_users: people.slice(0, 25),
    });
    expect(message.mentioned_users).toHaveLength(25);
    const id = uniqueId('qua-nhieu');
    await expectStreamError(
      aliceChannel.sendMessage({ id, text: 'Quá đông', mentioned_users: people }),
      { code: 4, message: /mentioned_users/ },
    );
    await expectStreamError(env().admin.getMessage(id), { code: 16 });
    await expectStreamError(
      env().admin.partialUpdateMessage(
        message.id,
        { set: { mentioned_users: people } } as never,
        aliceChannel.getClient().userID!,
      ),
      { code: 4, message: /mentioned_users/ },
    );
  });

  it('stores a system message the server sends and returns it as type system, without raising unread counts', async () => {
    const { aliceChannel, bobChannel, bob, aliceId } = await twoMembers(env(), 'sys');
    const seen = waitForEvent(bobChannel, 'message.new', (e) => e.message?.type === 'system');
    const serverChannel = env().admin.channel('messaging', aliceChannel.id!);
    const sent = await serverChannel.sendMessage({
      type: 'system',
      text: 'Tông môn vừa đổi tên',
      user_id: aliceId,
    });
    expect(sent.message).toMatchObject({ type: 'system', text: 'Tông môn vừa đổi tên' });
    await seen;
    const fresh = await bob
      .channel('messaging', aliceChannel.id!)
      .query({ messages: { limit: 5 } });
    expect(fresh.messages.find((m) => m.id === sent.message.id)?.type).toBe('system');
    expect(bobChannel.countUnread()).toBe(0);
  });

  it('refuses a client-side system message from a user without the Create System Message permission, storing nothing', async () => {
    const { aliceChannel } = await twoMembers(env(), 'sys-user');
    const id = uniqueId('sys-msg');
    await expectStreamError(aliceChannel.sendMessage({ id, type: 'system', text: 'Giả danh' }), {
      code: 17,
      status: 403,
    });
    await expectStreamError(env().admin.getMessage(id), { code: 16 });
  });

  it('lets an admin send a system message from their own client', async () => {
    const adminId = uniqueId('sys-admin');
    await createUsers(env(), [{ id: adminId, role: 'admin' }]);
    const admin = await connectUser(env(), adminId);
    const channel = admin.channel('messaging', uniqueId('sys-admin-ch'), { members: [adminId] });
    await channel.watch();
    const sent = await channel.sendMessage({ type: 'system', text: 'Khai môn' });
    expect(sent.message.type).toBe('system');
  });

  it('sets and unsets a nested custom field with partialUpdateMessage, keeping its siblings', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'nested');
    const message = await sendText(aliceChannel, 'Bí kíp', {
      bi_kip: { cap: 1, ten: 'Kiếm pháp' },
    } as never);
    const set = await alice.partialUpdateMessage(message.id, {
      set: { 'bi_kip.cap': 2, 'bi_kip.nguon.ten': 'Tàng kinh các' } as never,
    });
    expect(set.message.bi_kip).toEqual({
      cap: 2,
      ten: 'Kiếm pháp',
      nguon: { ten: 'Tàng kinh các' },
    });
    const unset = await alice.partialUpdateMessage(message.id, { unset: ['bi_kip.ten'] as never });
    expect(unset.message.bi_kip).toEqual({ cap: 2, nguon: { ten: 'Tàng kinh các' } });
    const stored = await env().admin.getMessage(message.id);
    expect(stored.message.bi_kip).toEqual({ cap: 2, nguon: { ten: 'Tàng kinh các' } });
  });

  it('refuses a nested path into a built-in field or the prototype with code 4, changing nothing', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'nested-bad');
    const message = await sendText(aliceChannel, 'Nguyên vẹn', { bi_kip: { cap: 1 } } as never);
    for (const set of [{ 'user.id': 'kẻ khác' }, { 'bi_kip.__proto__.x': 1 }, { 'bi_kip..x': 1 }])
      await expectStreamError(alice.partialUpdateMessage(message.id, { set: set as never }), {
        code: 4,
        status: 400,
      });
    const stored = await env().admin.getMessage(message.id);
    expect(stored.message.bi_kip).toEqual({ cap: 1 });
    expect(stored.message.user?.id).toBe(alice.userID);
  });

  it('deletes a message for the deleter only: they see it deleted_for_me from then on, the other member still sees it', async () => {
    const { alice, bob, aliceChannel, bobChannel, channelId } = await twoMembers(env(), 'dfm');
    const message = await sendText(bobChannel, 'Lời khó nghe');
    const ownEvent = waitForEvent(
      aliceChannel,
      'message.deleted',
      (e) => e.message?.id === message.id,
    );
    const response = await alice.deleteMessage(message.id, { deleteForMe: true });
    expect(response.message).toMatchObject({
      id: message.id,
      deleted_for_me: true,
      type: 'deleted',
    });
    const event = await ownEvent;
    expect(event.deleted_for_me).toBe(true);

    const aliceView = await alice
      .channel('messaging', channelId)
      .query({ messages: { limit: 10 } });
    expect(aliceView.messages.find((m) => m.id === message.id)).toMatchObject({
      type: 'deleted',
      deleted_for_me: true,
    });
    const bobView = await bob.channel('messaging', channelId).query({ messages: { limit: 10 } });
    const bobsCopy = bobView.messages.find((m) => m.id === message.id);
    expect(bobsCopy).toMatchObject({ type: 'regular', text: 'Lời khó nghe' });
    expect(bobsCopy).not.toHaveProperty('deleted_for_me');
    expect((await bob.getMessage(message.id)).message.type).toBe('regular');
  });

  it('deletes for a named user server-side with deleted_by, and refuses hard + delete_for_me and a missing deleted_by with code 4', async () => {
    const { aliceId, alice, bobChannel } = await twoMembers(env(), 'dfm-server');
    const message = await sendText(bobChannel, 'Tin cho máy chủ');
    await expectStreamError(
      env().admin.delete(`${env().admin.baseURL}/messages/${message.id}`, { delete_for_me: true }),
      { code: 4, status: 400, message: /deleted_by/ },
    );
    await expectStreamError(
      alice.delete(`${alice.baseURL}/messages/${message.id}`, { delete_for_me: true, hard: true }),
      { code: 4, status: 400 },
    );
    expect((await alice.getMessage(message.id)).message.type).toBe('regular');
    await env().admin.delete(`${env().admin.baseURL}/messages/${message.id}`, {
      delete_for_me: true,
      deleted_by: aliceId,
    });
    expect((await alice.getMessage(message.id)).message).toMatchObject({
      type: 'deleted',
      deleted_for_me: true,
    });
  });

  it('refuses to delete for another user from a client, with code 17', async () => {
    const { alice, bobId, aliceChannel, bob } = await twoMembers(env(), 'dfm-other');
    const message = await sendText(aliceChannel, 'Của ta');
    await expectStreamError(
      alice.delete(`${alice.baseURL}/messages/${message.id}`, {
        delete_for_me: true,
        deleted_by: bobId,
      }),
      { code: 17, status: 403 },
    );
    expect((await bob.getMessage(message.id)).message.type).toBe('regular');
  });
});
