import { randomBytes } from 'node:crypto';
import type { Channel, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  expectStreamError,
  newClient,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

/**
 * The built-in `sect` type of the product's public rooms: read by anyone like livestream, but with read state, unread
 * counts, read and typing events for its members (every signed-in cultivator).
 */
describe('sect channels', { timeout: 20_000 }, () => {
  const env = useContractEnv({
    config: {
      apps: [
        {
          key: `sect-${randomBytes(4).toString('hex')}`,
          secret: randomBytes(16).toString('hex'),
          guests: { enabled: true },
        },
      ],
    },
  });

  interface Scene {
    channelId: string;
    aliceId: string;
    bobId: string;
    alice: StreamChat;
    bob: StreamChat;
    aliceChannel: Channel;
    bobChannel: Channel;
  }

  /** A sect room the server created, with alice and bob added as members by the server, both watching. */
  async function scene(prefix: string): Promise<Scene> {
    const aliceId = uniqueId(`${prefix}-a`);
    const bobId = uniqueId(`${prefix}-b`);
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId(prefix);
    await createChannelAsServer(env(), 'sect', channelId, aliceId, { name: 'Quảng Trường' });
    await env().admin.channel('sect', channelId).addMembers([aliceId, bobId]);
    const aliceChannel = alice.channel('sect', channelId);
    const bobChannel = bob.channel('sect', channelId);
    await aliceChannel.watch();
    await bobChannel.watch();
    return { channelId, aliceId, bobId, alice, bob, aliceChannel, bobChannel };
  }

  it('exists as a built-in type with read and typing events on', async () => {
    const type = await env().admin.getChannelType('sect');

    expect(type).toMatchObject({ typing_events: true, read_events: true, reactions: true });
  });

  it('lets a guest and an anonymous visitor read a sect room and its threads', async () => {
    const { aliceChannel, channelId } = await scene('doc');
    const parent = await sendText(aliceChannel, 'Chào các đạo hữu');
    await sendText(aliceChannel, 'Trả lời trong luồng', { parent_id: parent.id });
    const guest = newClient(env());
    await guest.setGuestUser({ id: uniqueId('khach') });
    const anonymous = newClient(env());
    await anonymous.connectAnonymousUser();

    for (const reader of [guest, anonymous]) {
      const channel = reader.channel('sect', channelId);
      const state = await channel.watch();
      expect(state.messages.map((message) => message.text)).toContain('Chào các đạo hữu');
      const replies = await channel.getReplies(parent.id, { limit: 10 });
      expect(replies.messages.map((message) => message.text)).toEqual(['Trả lời trong luồng']);
    }
  });

  it('refuses a guest who writes or reacts in a sect room with code 17', async () => {
    const { aliceChannel, channelId } = await scene('khach-viet');
    const message = await sendText(aliceChannel, 'Tin của thành viên');
    const guest = newClient(env());
    await guest.setGuestUser({ id: uniqueId('khach') });
    const channel = guest.channel('sect', channelId);
    await channel.watch();

    await expectStreamError(channel.sendMessage({ text: 'Khách muốn nói' }), { code: 17 });
    await expectStreamError(channel.sendReaction(message.id, { type: 'like' }), { code: 17 });
  });

  it('refuses a signed-in user who is not a member, and a user creating a sect room, with code 17', async () => {
    const { channelId } = await scene('ngoai');
    const outsider = await connectUser(env(), uniqueId('ngoai'));
    const channel = outsider.channel('sect', channelId);
    await channel.watch();

    await expectStreamError(channel.sendMessage({ text: 'Chưa là thành viên' }), { code: 17 });
    await expectStreamError(outsider.channel('sect', uniqueId('tu-lap')).create(), { code: 17 });
  });

  it('lets a member edit with the whole message the client echoes back (pinned: false) but not pin', async () => {
    const { alice, aliceChannel, bobChannel } = await scene('sua');
    const sent = await sendText(aliceChannel, 'Bán linh thạch');
    const stored = aliceChannel.state.messages.find((message) => message.id === sent.id)!;
    const updated = waitForEvent(bobChannel, 'message.updated', (e) => e.message?.id === sent.id);

    const edited = await alice.updateMessage({ ...stored, text: 'Bán linh thạch thượng phẩm' });

    expect(edited.message).toMatchObject({ text: 'Bán linh thạch thượng phẩm', pinned: false });
    expect((await updated).message?.text).toBe('Bán linh thạch thượng phẩm');
    await expectStreamError(alice.pinMessage(edited.message), { code: 17 });
  });

  it('lets a member delete their own message but not another member’s', async () => {
    const { alice, bob, aliceChannel } = await scene('xoa');
    const own = await sendText(aliceChannel, 'Tin sẽ xóa');
    const other = await sendText(aliceChannel, 'Tin của Alice');

    const deleted = await alice.deleteMessage(own.id);

    expect(deleted.message.type).toBe('deleted');
    await expectStreamError(bob.deleteMessage(other.id), { code: 17 });
  });

  it('counts unread messages for a member, live and on the server, until they mark the room read', async () => {
    const { bob, aliceChannel, bobChannel } = await scene('chua-doc');
    for (const text of ['Một', 'Hai', 'Ba']) await sendText(aliceChannel, text);

    expect(bobChannel.countUnread()).toBe(3);
    const counts = await bob.getUnreadCount();
    expect(counts.channels.find((c) => c.channel_id === bobChannel.cid)?.unread_count).toBe(3);
    expect(counts.total_unread_count).toBe(3);

    const read = waitForEvent(aliceChannel, 'message.read', (e) => e.user?.id === bob.userID);
    await bobChannel.markRead();
    await read;

    expect((await bob.getUnreadCount()).total_unread_count).toBe(0);
  });

  it('carries mentioned_users to the mentioned member', async () => {
    const { bobId, aliceChannel, bobChannel } = await scene('nhac');
    const arrived = waitForEvent(bobChannel, 'message.new', (e) => e.message?.text === '@bob xem');

    await sendText(aliceChannel, '@bob xem', { mentioned_users: [bobId] });

    expect((await arrived).message?.mentioned_users?.map((user) => user.id)).toEqual([bobId]);
  });

  it('delivers typing.start and typing.stop to the other member', async () => {
    const { aliceId, aliceChannel, bobChannel } = await scene('go');

    const started = waitForEvent(bobChannel, 'typing.start', (e) => e.user?.id === aliceId);
    await aliceChannel.keystroke();
    await started;
    expect(bobChannel.state.typing[aliceId]?.user?.id).toBe(aliceId);

    const stopped = waitForEvent(bobChannel, 'typing.stop', (e) => e.user?.id === aliceId);
    await aliceChannel.stopTyping();
    await stopped;
    expect(bobChannel.state.typing[aliceId]).toBeUndefined();
  });
});
