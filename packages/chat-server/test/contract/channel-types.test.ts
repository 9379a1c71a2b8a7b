import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

/** Channel type names are lower-case in this server (uniqueId's suffix is hex, so it fits). */
const typeName = (prefix: string) => uniqueId(prefix).toLowerCase();

describe('channel types', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('lists the five built-in types with their config, grants and timestamps', async () => {
    const { channel_types: types } = await env().admin.listChannelTypes();

    expect(Object.keys(types)).toEqual(
      expect.arrayContaining(['messaging', 'livestream', 'team', 'commerce', 'gaming']),
    );
    const messaging = types.messaging!;
    expect(messaging).toMatchObject({
      name: 'messaging',
      reactions: true,
      max_message_length: 5000,
    });
    expect(messaging.grants?.channel_member).toContain('send-message');
    expect(Array.isArray(messaging.commands)).toBe(true);
    expect(typeof messaging.created_at).toBe('string');
    expect(typeof messaging.updated_at).toBe('string');
  });

  it('creates a custom type answering with command names, then reads it with command objects', async () => {
    const name = typeName('tong-mon');
    const created = await env().admin.createChannelType({
      name,
      reactions: false,
      max_message_length: 1200,
      commands: ['moderation_set'],
    });

    expect(created).toMatchObject({ name, reactions: false, max_message_length: 1200 });
    expect(created.commands).toEqual(['ban', 'unban', 'mute', 'unmute']);
    expect(created.grants?.channel_member).toContain('send-message');
    expect(typeof created.created_at).toBe('string');

    const read = await env().admin.getChannelType(name);
    expect(read).toMatchObject({ name, reactions: false, replies: true, max_message_length: 1200 });
    expect(read.commands.map((command) => command.name)).toEqual([
      'ban',
      'unban',
      'mute',
      'unmute',
    ]);
    expect(read.commands[0]).toMatchObject({
      description: expect.any(String),
      set: 'moderation_set',
    });
  });

  it('creates a type with the client default commands ["all"]', async () => {
    const name = typeName('mac-dinh');
    const created = await env().admin.createChannelType({ name });

    expect(created.commands).toEqual(['giphy', 'ban', 'unban', 'mute', 'unmute']);
  });

  it('lets members of a custom type chat, and reports the type config on the channel', async () => {
    const name = typeName('dong-phu');
    await env().admin.createChannelType({ name, replies: false });
    const userId = uniqueId('de-tu');
    const client = await connectUser(env(), userId);

    const channel = await watchChannel(client, name, uniqueId('phong'), { members: [userId] });
    const message = await sendText(channel, 'Chào sư huynh');

    expect(message.text).toBe('Chào sư huynh');
    expect(channel.getConfig()).toMatchObject({ name, replies: false, reactions: true });
    expect(channel.data?.own_capabilities).toContain('send-message');
    expect(channel.data?.own_capabilities).not.toContain('send-reply');
  });

  it('changes a built-in type, and the change shows in the config of its channels', async () => {
    const name = 'commerce';
    const before = await env().admin.getChannelType(name);
    const updated = await env().admin.updateChannelType(name, { max_message_length: 777 });
    try {
      expect(updated.max_message_length).toBe(777);
      expect(updated.updated_at >= before.updated_at).toBe(true);
      const userId = uniqueId('khach');
      const client = await connectUser(env(), userId);
      const channel = await watchChannel(client, name, uniqueId('cho'), { members: [userId] });
      expect(channel.getConfig()?.max_message_length).toBe(777);
      await expectStreamError(channel.sendMessage({ text: 'x'.repeat(778) }), { code: 4 });
    } finally {
      await env().admin.updateChannelType(name, { max_message_length: before.max_message_length });
    }
  });

  it('answers an unknown type with code 16 on read, update and delete', async () => {
    const name = typeName('khong-co');
    await expectStreamError(env().admin.getChannelType(name), { code: 16, status: 404 });
    await expectStreamError(env().admin.updateChannelType(name, { reactions: false }), {
      code: 16,
    });
    await expectStreamError(env().admin.deleteChannelType(name), { code: 16 });
  });

  it('refuses to create a type whose name is taken, with code 4', async () => {
    const name = typeName('trung');
    await env().admin.createChannelType({ name });

    await expectStreamError(env().admin.createChannelType({ name }), {
      code: 4,
      message: /already exists/,
    });
    await expectStreamError(env().admin.createChannelType({ name: 'messaging' }), { code: 4 });
  });

  it('deletes an unused custom type, after which channels of it cannot be created', async () => {
    const name = typeName('tam-thoi');
    await env().admin.createChannelType({ name });

    await env().admin.deleteChannelType(name);

    await expectStreamError(env().admin.getChannelType(name), { code: 16 });
    await createUsers(env(), ['nguoi-tao']);
    await expectStreamError(
      env().admin.channel(name, uniqueId('x'), { created_by_id: 'nguoi-tao' }).create(),
      { code: 4, message: /does not exist/ },
    );
  });

  it('refuses to delete a type that still has channels, and a built-in type, with code 4', async () => {
    const name = typeName('dang-dung');
    await env().admin.createChannelType({ name });
    await createUsers(env(), ['chu-phong']);
    await env().admin.channel(name, uniqueId('p'), { created_by_id: 'chu-phong' }).create();

    await expectStreamError(env().admin.deleteChannelType(name), {
      code: 4,
      message: /has channels/,
    });
    await expectStreamError(env().admin.deleteChannelType('livestream'), {
      code: 4,
      message: /built in/,
    });
    expect((await env().admin.getChannelType(name)).name).toBe(name);
  });

  it('refuses every channel-type route to a user token with code 17', async () => {
    const userId = uniqueId('pham-nhan');
    const user = await connectUser(env(), userId);
    const calls = [
      () => user.listChannelTypes(),
      () => user.getChannelType('messaging'),
      () => user.createChannelType({ name: typeName('tu-tao') }),
      () => user.updateChannelType('messaging', { reactions: false }),
      () => user.deleteChannelType('messaging'),
    ];
    for (const call of calls) await expectStreamError(call(), { code: 17, status: 403 });
    expect((await env().admin.getChannelType('messaging')).reactions).toBe(true);
  });

  it('refuses bad input with code 4 naming the field', async () => {
    const admin = env().admin;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: typeName('a'), flying_swords: true }, /flying_swords/],
      [{ name: 'Có Dấu' }, /name/],
      [{ name: typeName('b'), max_message_length: 0 }, /max_message_length/],
      [{ name: typeName('c'), max_message_length: 20_001 }, /max_message_length/],
      [{ name: typeName('d'), reactions: 'yes' }, /reactions/],
      [
        { name: typeName('e'), grants: { channel_member: ['fly-sword'] } },
        /grants\.channel_member/,
      ],
      [{ name: typeName('f'), grants: { emperor: ['send-message'] } }, /grants\.emperor/],
      [{ name: typeName('g'), commands: ['summon'] }, /commands/],
      [{ name: typeName('h'), automod_behavior: 'explode' }, /automod_behavior/],
      [{ reactions: true }, /name/],
    ];
    for (const [body, field] of cases)
      await expectStreamError(admin.createChannelType(body as never), { code: 4, message: field });
    await expectStreamError(
      admin.updateChannelType('messaging', { typing_event: false } as never),
      { code: 4, message: /typing_event/ },
    );
  });

  it('keeps created and changed types, built-in ones included, across a restart of the server', async () => {
    const name = typeName('ben-vung');
    await env().admin.createChannelType({ name, polls: false });
    await env().admin.updateChannelType(name, { grants: { channel_member: ['read-channel'] } });
    await env().admin.updateChannelType('team', { typing_events: false });

    await env().server.restart();

    expect((await env().admin.getChannelType('team')).typing_events).toBe(false);
    expect((await env().admin.getChannelType('gaming')).replies).toBe(false);

    const read = await env().admin.getChannelType(name);
    expect(read.polls).toBe(false);
    expect(read.grants.channel_member).toEqual(['read-channel']);
    const { channel_types: types } = await env().admin.listChannelTypes();
    expect(Object.keys(types)).toEqual(expect.arrayContaining(['messaging', name]));
  });
});
