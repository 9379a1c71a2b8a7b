import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  channelWithMembers,
  expectStreamError,
  inMs,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

/** Every switch a type can turn off, off at once: each test below checks that one of them is obeyed. */
const ALL_OFF = {
  reactions: false,
  replies: false,
  quotes: false,
  uploads: false,
  typing_events: false,
  read_events: false,
  custom_events: false,
  connect_events: false,
  polls: false,
  user_message_reminders: false,
  shared_locations: false,
  search: false,
  mutes: false,
};

async function customType(env: ContractEnv, prefix: string, settings: object): Promise<string> {
  const name = uniqueId(prefix).toLowerCase();
  await env.admin.createChannelType({ name, ...settings });
  return name;
}

describe('channel type switches', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  async function scene(prefix: string) {
    const type = await customType(env(), prefix, ALL_OFF);
    const shared = await channelWithMembers(env(), prefix, { type, users: ['a', 'b'] });
    const [alice, bob] = shared.members as [
      (typeof shared.members)[number],
      (typeof shared.members)[number],
    ];
    return { type, ...shared, alice, bob };
  }

  it('leaves out of own_capabilities every feature its type turns off', async () => {
    const { alice } = await scene('caps');
    const capabilities = alice.channel.data?.own_capabilities ?? [];

    expect(capabilities).toContain('send-message');
    for (const off of [
      'send-reaction',
      'send-reply',
      'quote-message',
      'upload-file',
      'send-typing-events',
      'read-events',
      'send-custom-events',
      'connect-events',
      'send-poll',
      'share-location',
      'search-messages',
      'mute-channel',
    ])
      expect(capabilities).not.toContain(off);
  });

  it('refuses reactions, replies and quotes', async () => {
    const { alice } = await scene('viet');
    const message = await sendText(alice.channel, 'Tâm pháp');

    await expectStreamError(alice.channel.sendReaction(message.id, { type: 'love' }), {
      code: 19,
      message: /reactions are disabled/,
    });
    await expectStreamError(sendText(alice.channel, 'Trả lời', { parent_id: message.id }), {
      code: 4,
      message: /replies are disabled/,
    });
    await expectStreamError(
      sendText(alice.channel, 'Trích dẫn', { quoted_message_id: message.id }),
      { code: 4, message: /quotes are disabled/ },
    );
  });

  it('refuses uploads, typing events, custom events and marking read', async () => {
    const { alice } = await scene('su-kien');

    await expectStreamError(
      alice.channel.sendFile(Readable.from([Buffer.from('abc')]), 'a.txt', 'text/plain'),
      { code: 19, message: /uploads are disabled/ },
    );
    await expectStreamError(alice.channel.sendEvent({ type: 'typing.start' }), {
      code: 19,
      message: /typing events are disabled/,
    });
    await expectStreamError(alice.channel.sendEvent({ type: 'luyen_dan' } as never), {
      code: 19,
      message: /custom events are disabled/,
    });
    // The client skips markRead itself when read_events is off, so ask the server directly.
    await expectStreamError(
      alice.client.post(
        `${alice.client.baseURL}/channels/${alice.channel.type}/${alice.channel.id}/read`,
        {},
      ),
      { code: 19, message: /read events are disabled/ },
    );
  });

  it('refuses polls, reminders, shared locations and channel mutes', async () => {
    const { alice } = await scene('tinh-nang');
    const { poll } = await alice.client.createPoll({ name: 'Hỏi', options: [{ text: 'Có' }] });
    await expectStreamError(sendText(alice.channel, 'Bỏ phiếu', { poll_id: poll.id }), {
      code: 19,
      message: /polls are disabled/,
    });
    const message = await sendText(alice.channel, 'Nhắc ta');
    await expectStreamError(alice.client.createReminder({ messageId: message.id }), {
      code: 19,
    });
    await expectStreamError(
      alice.channel.sendSharedLocation({
        message_id: randomUUID(),
        created_by_device_id: 'thiet-bi',
        latitude: 21.02,
        longitude: 105.8,
        end_at: inMs(60_000),
      }),
      { code: 19, message: /shared locations are disabled/ },
    );
    await expectStreamError(alice.channel.mute(), { code: 19, message: /mutes are disabled/ });
  });

  it('keeps messages of a type with search off out of search results', async () => {
    const word = `tim${randomUUID().slice(0, 8)}`;
    const { alice, cid } = await scene('tim-kiem');
    await sendText(alice.channel, `Bí kíp ${word}`);
    const open = await channelWithMembers(env(), 'tim-mo', { users: ['c'] });
    const opener = open.members[0]!;
    await sendText(opener.channel, `Bí kíp ${word}`);

    const hidden = await alice.client.search({ cid }, word);
    const shown = await opener.client.search({ cid: open.cid }, word);

    expect(hidden.results).toEqual([]);
    expect(shown.results.map((result) => result.message.cid)).toEqual([open.cid]);
  });

  it('stops counting unread messages once read_events is turned off', async () => {
    const type = await customType(env(), 'chua-doc', {});
    const { members, cid } = await channelWithMembers(env(), 'chua-doc', {
      type,
      users: ['a', 'b'],
    });
    const [alice, bob] = [members[0]!, members[1]!];
    await sendText(alice.channel, 'Tin chưa đọc');
    const unreadOf = async () => {
      const [channel] = await bob.client.queryChannels({ cid }, {}, { state: true });
      return channel?.state.read[bob.id]?.unread_messages;
    };
    expect(await unreadOf()).toBe(1);

    await env().admin.updateChannelType(type, { read_events: false });

    expect(await unreadOf()).toBe(0);
  });

  it('sends no user.watching.start when connect_events is off', async () => {
    const { alice, bob, type, channelId } = await scene('ket-noi');
    const seen: Event[] = [];
    alice.channel.on('user.watching.start', (event) => seen.push(event));
    await bob.channel.stopWatching();

    const later = waitForEvent(alice.channel, 'message.new');
    await bob.client.channel(type, channelId).watch();
    await sendText(bob.client.channel(type, channelId), 'Ta đến rồi');
    await later;

    expect(seen).toEqual([]);
  });
});

describe('channel type grants', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('takes a grants change into account at once for a connected member', async () => {
    const type = await customType(env(), 'quyen', {});
    const { members, channelId } = await channelWithMembers(env(), 'quyen', {
      type,
      users: ['a', 'b'],
    });
    // Not the creator, who moderates the channel and keeps channel_moderator's grants.
    const alice = members[1]!;
    await sendText(alice.channel, 'Trước khi đổi');
    expect(alice.channel.data?.own_capabilities).toContain('send-message');

    await env().admin.updateChannelType(type, {
      grants: { channel_member: ['read-channel', 'watch-channel', 'read-events'] },
    });

    await expectStreamError(sendText(alice.channel, 'Sau khi đổi'), { code: 17 });
    const [again] = await alice.client.queryChannels({ cid: `${type}:${channelId}` });
    expect(again?.data?.own_capabilities).not.toContain('send-message');
    expect(again?.data?.own_capabilities).toContain('read-events');

    await env().admin.updateChannelType(type, {
      grants: { channel_member: ['read-channel', 'watch-channel', 'send-message'] },
    });
    expect((await sendText(alice.channel, 'Được nói lại')).text).toBe('Được nói lại');
  });

  it('lets a custom type open its channels to every user through the user role', async () => {
    const type = await customType(env(), 'cong-khai', {
      grants: { user: ['read-channel', 'watch-channel', 'create-channel'] },
    });
    const { channelId } = await channelWithMembers(env(), 'cong-khai', { type, users: ['a'] });
    const outsider = (await channelWithMembers(env(), 'ngoai', { users: ['o'] })).members[0]!;

    const channel = outsider.client.channel(type, channelId);
    const state = await channel.watch();

    expect(state.channel.cid).toBe(`${type}:${channelId}`);
    await expectStreamError(sendText(channel, 'Không phải thành viên'), { code: 17 });
  });
});
