import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createUsers,
  expectStreamError,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

describe('disabled and frozen channels', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('refuses client-side reads and writes of a disabled channel and leaves it out of client lists', async () => {
    const { alice, aliceId, channelId, aliceChannel } = await twoMembers(env(), 'phong-an');
    await sendText(aliceChannel, 'Trước khi phong ấn');
    await env()
      .admin.channel('messaging', channelId)
      .updatePartial({ set: { disabled: true } });

    const fresh = alice.channel('messaging', channelId);
    await expectStreamError(fresh.watch(), {
      code: 17,
      status: 403,
      message: new RegExp(`messaging:${channelId} is disabled`),
    });
    await expectStreamError(aliceChannel.sendMessage({ id: randomUUID(), text: 'Phá ấn' }), {
      code: 17,
    });
    const cid = `messaging:${channelId}`;
    expect(await alice.queryChannels({ cid }, {}, { watch: false })).toHaveLength(0);
    expect(
      await alice.queryChannels(
        { members: { $in: [aliceId] }, cid, disabled: false },
        {},
        {
          watch: false,
        },
      ),
    ).toHaveLength(0);
    // Asking for disabled channels is reading them: Stream refuses it (its ReadDisabledChannel permission).
    await expectStreamError(alice.queryChannels({ cid, disabled: true }, {}, { watch: false }), {
      code: 17,
      message: /ReadDisabledChannel/,
    });
    await expectStreamError(
      alice.queryChannels({ $or: [{ frozen: true }, { disabled: true }] }, {}, { watch: false }),
      { code: 17 },
    );
    const [serverView] = await env().admin.queryChannels({ cid });
    expect(serverView?.data?.disabled).toBe(true);
    // Server-side, only a filter naming the channel or `disabled` finds it, as Stream's docs show.
    const asAlice = { user_id: aliceId };
    expect(await env().admin.queryChannels({ members: { $in: [aliceId] } }, {}, asAlice)).toEqual(
      [],
    );
    const byFlag = await env().admin.queryChannels(
      { members: { $in: [aliceId] }, disabled: true },
      {},
      asAlice,
    );
    expect(byFlag.map((channel) => channel.cid)).toEqual([cid]);
  });

  it('refuses a client disabling a channel in Stream’s words for each kind of update', async () => {
    const { aliceChannel } = await twoMembers(env(), 'tu-phong');
    await expectStreamError(aliceChannel.update({ disabled: true }), {
      code: 17,
      message: /changing channel disabled is not allowed client-side/,
    });
    await expectStreamError(aliceChannel.updatePartial({ set: { disabled: true } }), {
      code: 17,
      message: /field `disabled` can only be updated using server-side auth/,
    });
    await expectStreamError(aliceChannel.updatePartial({ set: { team: 'xanh' } }), {
      code: 17,
      message: /field `team` can only be updated using server-side auth/,
    });
    const [state] = await aliceChannel.getClient().queryChannels({ cid: aliceChannel.cid });
    expect(state?.data?.disabled).toBe(false);
  });

  it('lets the members back in once the server enables the channel again', async () => {
    const { alice, channelId } = await twoMembers(env(), 'giai-an');
    const serverChannel = env().admin.channel('messaging', channelId);
    await serverChannel.updatePartial({ set: { disabled: true } });
    await serverChannel.updatePartial({ set: { disabled: false } });
    const state = await alice.channel('messaging', channelId).watch();
    expect(state.channel.disabled).toBe(false);
  });

  it('answers a send to a frozen channel with Stream’s error message and stores nothing', async () => {
    const { aliceChannel, bobChannel, bobId, channelId } = await twoMembers(env(), 'dong-bang');
    const before = await sendText(bobChannel, 'Còn kịp');
    await env()
      .admin.channel('messaging', channelId)
      .updatePartial({ set: { frozen: true } });

    const id = randomUUID();
    const { message } = await aliceChannel.sendMessage({ id, text: 'Đã muộn' });

    expect(message).toMatchObject({
      id,
      type: 'error',
      text: 'Sorry, this channel has been frozen by the admin',
    });
    await expectStreamError(env().admin.getMessage(id), { code: 16 });
    await expectStreamError(aliceChannel.sendReaction(before.id, { type: 'like' }), {
      code: 17,
      status: 403,
    });
    // The server still writes to a frozen channel.
    const { message: fromServer } = await env()
      .admin.channel('messaging', channelId)
      .sendMessage({ text: 'Thông cáo', user_id: bobId });
    expect(fromServer.type).toBe('regular');
  });

  it('lets whoever the type grants use-frozen-channel write in a frozen channel, and keeps Stream’s other grant names', async () => {
    const { grants } = await env().admin.getChannelType('messaging');
    const type = uniqueId('bang').toLowerCase();
    const stream = [
      'create-mention',
      'notify-here',
      'notify-channel',
      'notify-role',
      'notify-group',
    ];
    await env().admin.createChannelType({
      name: type,
      grants: {
        ...grants,
        channel_member: [...(grants.channel_member ?? []), ...stream],
        channel_moderator: [...(grants.channel_moderator ?? []), 'use-frozen-channel'],
      },
    } as never);
    expect((await env().admin.getChannelType(type)).grants.channel_member).toEqual(
      expect.arrayContaining(stream),
    );
    const { alice, bob, aliceId, bobId } = await twoMembers(env(), 'giu-lua');
    // Neither of them owns it: Bob is a channel moderator, Alice a plain member.
    const ownerId = uniqueId('chu-bang');
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('bang-tam');
    const server = env().admin.channel(type, channelId, {
      created_by_id: ownerId,
      members: [ownerId, aliceId, bobId],
    });
    await server.create();
    await server.addModerators([bobId]);
    await server.updatePartial({ set: { frozen: true } });

    const bobChannel = bob.channel(type, channelId);
    await bobChannel.watch();
    const written = await sendText(bobChannel, 'Trưởng lão vẫn nói');
    expect(written.type).toBe('regular');
    await bobChannel.sendReaction(written.id, { type: 'like' });
    const aliceChannel = alice.channel(type, channelId);
    await aliceChannel.watch();
    const { message } = await aliceChannel.sendMessage({
      id: randomUUID(),
      text: 'Đệ tử thì không',
    });
    expect(message.type).toBe('error');
  });

  it('refuses a non-member’s send to a frozen channel with code 17, not the frozen message', async () => {
    const { channelId } = await twoMembers(env(), 'bang-phong');
    await env()
      .admin.channel('messaging', channelId)
      .updatePartial({ set: { frozen: true } });
    const { alice: outsider } = await twoMembers(env(), 'ke-la');
    await expectStreamError(
      outsider.channel('messaging', channelId).sendMessage({ id: randomUUID(), text: 'Xin vào' }),
      { code: 17 },
    );
  });

  it('returns the system message an update posted in the reply', async () => {
    const { aliceChannel, bob, bobId } = await twoMembers(env(), 'doi-ten');
    const announced = waitForEvent(bob, 'message.new', (event) => event.message?.type === 'system');
    const reply = await aliceChannel.update(
      { name: 'Thiên Sơn phái' },
      { text: 'Đổi tên môn phái', user_id: bobId },
    );
    const { message } = reply as typeof reply & {
      message?: { id: string; type: string; text: string };
    };
    expect(message).toMatchObject({ type: 'system', text: 'Đổi tên môn phái' });
    expect((await announced).message?.id).toBe(message?.id);
  });
});
