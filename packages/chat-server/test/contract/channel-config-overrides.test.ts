import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { expectStreamError, sendText, twoMembers, uniqueId, useContractEnv } from './helpers.ts';

/** The client types no `config_overrides` on a channel, though the server returns what it stored. */
const overridesOf = (channel: unknown) =>
  (channel as { config_overrides?: unknown } | undefined)?.config_overrides;

/** The client types only the switches; Stream's docs also override `blocklist` and `grants`. */
const settings = (overrides: object) => ({ set: { config_overrides: overrides } }) as never;

describe('channel-level settings (config_overrides)', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('turns a messaging channel’s features off for that channel only, as the server sets them', async () => {
    const scene = await twoMembers(env(), 'luat-rieng');
    const other = await twoMembers(env(), 'luat-chung');
    const server = env().admin.channel('messaging', scene.channelId);
    const answer = await server.updatePartial({
      set: {
        config_overrides: {
          replies: false,
          reactions: false,
          uploads: false,
          typing_events: false,
          max_message_length: 10,
        },
      },
    });
    expect(answer.channel.config).toMatchObject({
      replies: false,
      reactions: false,
      uploads: false,
      typing_events: false,
      max_message_length: 10,
      quotes: true,
    });
    expect(overridesOf(answer.channel)).toEqual({
      replies: false,
      reactions: false,
      uploads: false,
      typing_events: false,
      max_message_length: 10,
    });

    const channel = scene.alice.channel('messaging', scene.channelId);
    const state = await channel.watch();
    expect(state.channel.config?.max_message_length).toBe(10);
    expect(state.channel.own_capabilities).not.toContain('send-reaction');
    expect(state.channel.own_capabilities).not.toContain('send-reply');
    expect(state.channel.own_capabilities).not.toContain('upload-file');
    expect(state.channel.own_capabilities).toContain('send-message');

    const short = await sendText(channel, 'Tĩnh tọa');
    await expectStreamError(sendText(channel, 'Một câu dài hơn mười chữ'), { code: 4 });
    await expectStreamError(channel.sendReaction(short.id, { type: 'love' }), { code: 19 });
    await expectStreamError(sendText(channel, 'Đáp', { parent_id: short.id }), { code: 4 });
    await expectStreamError(
      channel.sendFile(Readable.from([Buffer.from('abc')]), 'a.txt', 'text/plain'),
      { code: 19 },
    );
    await expectStreamError(channel.sendEvent({ type: 'typing.start' }), { code: 19 });

    // The type and its other channels are untouched.
    const untouched = await sendText(other.aliceChannel, 'Một câu dài hơn mười chữ');
    await other.aliceChannel.sendReaction(untouched.id, { type: 'love' });
    expect((await env().admin.getChannelType('messaging')).max_message_length).toBe(5000);

    const cleared = await server.updatePartial({ unset: ['config_overrides'] });
    expect(cleared.channel.config?.max_message_length).toBe(5000);
    expect(overridesOf(cleared.channel)).toBeUndefined();
    await channel.sendReaction(short.id, { type: 'love' });
  });

  it('applies a channel’s own block list and behaviour', async () => {
    const list = uniqueId('y-te').replaceAll('-', '_');
    await env().admin.createBlockList({ name: list, words: ['thuốc lậu'] });
    const scene = await twoMembers(env(), 'kham-benh');
    await env()
      .admin.channel('messaging', scene.channelId)
      .updatePartial(settings({ blocklist: list, blocklist_behavior: 'block' }));

    await expectStreamError(sendText(scene.aliceChannel, 'Bán thuốc lậu đây'), {
      code: 4,
      message: /blocked by moderation policies/,
    });
    const other = await twoMembers(env(), 'cho-phien');
    await sendText(other.aliceChannel, 'Bán thuốc lậu đây');
  });

  it('changes grants per role: a member may no longer send, others keep their rights', async () => {
    const scene = await twoMembers(env(), 'chi-doc');
    await env()
      .admin.channel('messaging', scene.channelId)
      .updatePartial(settings({ grants: { channel_member: ['!create-message'] } }));
    const state = await scene.bob.channel('messaging', scene.channelId).watch();
    expect(state.channel.own_capabilities).not.toContain('send-message');
    await expectStreamError(sendText(scene.bobChannel, 'Ta muốn nói'), { code: 17 });
    // The owner (the creator) keeps the grant of its own role.
    await sendText(scene.aliceChannel, 'Chủ nhân vẫn nói được');
  });

  it('is the server’s to set: a client gets 17 in Stream’s words, at creation too, and nothing changes', async () => {
    const scene = await twoMembers(env(), 'tu-sua');
    await expectStreamError(
      scene.aliceChannel.updatePartial({ set: { config_overrides: { replies: false } } }),
      { code: 17, message: /field `config_overrides` can only be updated using server-side auth/ },
    );
    await expectStreamError(
      scene.aliceChannel.update({ config_overrides: { replies: false } } as never),
      { code: 17 },
    );
    await expectStreamError(
      scene.alice
        .channel('messaging', uniqueId('tu-lap'), {
          members: [scene.aliceId],
          config_overrides: { replies: false },
        } as never)
        .create(),
      { code: 17 },
    );
    const [state] = await env().admin.queryChannels({ cid: scene.aliceChannel.cid });
    expect(state?.data?.config?.replies).toBe(true);
  });

  it('refuses settings a channel cannot override and values of the wrong kind with code 4', async () => {
    const scene = await twoMembers(env(), 'sai-luat');
    const server = env().admin.channel('messaging', scene.channelId);
    for (const overrides of [
      { read_events: false },
      { max_message_length: 0 },
      { replies: 'khong' },
      { grants: { channel_member: ['bay-len-troi'] } },
      { grants: { tien_nhan: ['!create-message'] } },
      'replies',
    ])
      await expectStreamError(
        server.updatePartial({ set: { config_overrides: overrides } } as never),
        {
          code: 4,
          status: 400,
          message: /config_overrides/,
        },
      );
    const [state] = await env().admin.queryChannels({ cid: scene.aliceChannel.cid });
    expect(overridesOf(state?.data)).toBeUndefined();
  });
});
