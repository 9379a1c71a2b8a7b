import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  waitUntilTime,
  watchChannel,
} from './helpers.ts';

describe('pinned messages', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('pins a message for everyone: the other watcher, pinned_messages and the channel query all see it', async () => {
    const { aliceId, alice, bob, aliceChannel, bobChannel, channelId } = await twoMembers(
      env(),
      'pin',
    );
    const other = await sendText(aliceChannel, 'Thường');
    const rule = await sendText(aliceChannel, 'Môn quy: không tàn sát đồng môn');

    const pinnedSeen = waitForEvent(
      bobChannel,
      'message.updated',
      (event) => event.message?.id === rule.id,
    );
    const response = await alice.pinMessage(rule);
    await pinnedSeen;

    expect(response.message).toMatchObject({
      id: rule.id,
      pinned: true,
      pinned_at: expect.any(String),
    });
    expect(response.message.pinned_by?.id).toBe(aliceId);
    expect(ids(bobChannel.state.pinnedMessages)).toEqual([rule.id]);
    const listed = await bobChannel.getPinnedMessages({ limit: 10 });
    expect(ids(listed.messages)).toEqual([rule.id]);
    const fresh = await bob.channel('messaging', channelId).query({ messages: { limit: 10 } });
    expect(ids(fresh.pinned_messages)).toEqual([rule.id]);
    expect(fresh.messages.find((message) => message.id === other.id)?.pinned).toBe(false);

    const unpinnedSeen = waitForEvent(
      bobChannel,
      'message.updated',
      (event) => event.message?.id === rule.id,
    );
    const unpinned = await alice.unpinMessage(rule);
    await unpinnedSeen;

    expect(unpinned.message.pinned).toBe(false);
    expect(bobChannel.state.pinnedMessages).toEqual([]);
    expect((await bobChannel.getPinnedMessages({ limit: 10 })).messages).toEqual([]);
  });

  it('lets a member who may not pin edit their own message with the whole message the client echoes back', async () => {
    // livestream members have no pin-message; stream-chat's updateMessage sends `pinned: false, pin_expires: null`.
    const memberId = uniqueId('tu-si');
    const member = await connectUser(env(), memberId);
    const channel = await watchChannel(member, 'livestream', uniqueId('quang-truong'));
    await channel.addMembers([memberId]);
    const sent = await sendText(channel, 'Bản nháp');
    const stored = channel.state.messages.find((message) => message.id === sent.id)!;

    const edited = await member.updateMessage({ ...stored, text: 'Đã sửa lại' });

    expect(edited.message).toMatchObject({ id: sent.id, text: 'Đã sửa lại', pinned: false });
    await expect(member.pinMessage(edited.message)).rejects.toMatchObject({ code: 17 });
  });

  it('lists several pins newest pin first', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'order');
    const first = await sendText(aliceChannel, 'Một');
    const second = await sendText(aliceChannel, 'Hai');
    await alice.pinMessage(second);
    await alice.pinMessage(first);

    const { messages } = await bobChannel.getPinnedMessages({ limit: 10 }, { pinned_at: -1 });

    expect(ids(messages)).toEqual([first.id, second.id]);
  });

  it('stops reporting a pin once its expiry has passed', async () => {
    const { alice, bob, aliceChannel, bobChannel, channelId } = await twoMembers(env(), 'expiry');
    const notice = await sendText(aliceChannel, 'Thông báo tạm thời');

    const response = await alice.pinMessage(notice, 2);
    const expires = response.message.pin_expires;
    expect(expires).toEqual(expect.any(String));
    expect(ids((await bobChannel.getPinnedMessages({ limit: 10 })).messages)).toEqual([notice.id]);

    await waitUntilTime(new Date(expires ?? 0).getTime() + 1_000);

    expect((await bobChannel.getPinnedMessages({ limit: 10 })).messages).toEqual([]);
    expect((await bob.getMessage(notice.id)).message.pinned).toBe(false);
    const fresh = await bob.channel('messaging', channelId).query({ messages: { limit: 10 } });
    expect(fresh.pinned_messages).toEqual([]);
  });
  it('pages pins around a pin or an instant, the pivot in the middle and one side filling in near the ends', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'around');
    const pinned = [];
    for (const text of ['Một', 'Hai', 'Ba', 'Bốn', 'Năm', 'Sáu', 'Bảy']) {
      const message = await sendText(aliceChannel, text);
      pinned.push((await alice.pinMessage(message)).message);
    }
    const pinIds = pinned.map((m) => m.id);

    const middle = await bobChannel.getPinnedMessages(
      { limit: 3, id_around: pinIds[3] },
      { pinned_at: -1 },
    );
    expect(ids(middle.messages)).toEqual([pinIds[4], pinIds[3], pinIds[2]]);

    const atStart = await bobChannel.getPinnedMessages(
      { limit: 4, id_around: pinIds[0] },
      { pinned_at: 1 },
    );
    expect(ids(atStart.messages)).toEqual(pinIds.slice(0, 4));

    const atEnd = await bobChannel.getPinnedMessages(
      { limit: 4, id_around: pinIds[6] },
      { pinned_at: -1 },
    );
    expect(ids(atEnd.messages)).toEqual([pinIds[6], pinIds[5], pinIds[4], pinIds[3]]);

    const byTime = await bobChannel.getPinnedMessages(
      { limit: 2, pinned_at_around: pinned[5]!.pinned_at! },
      { pinned_at: 1 },
    );
    expect(ids(byTime.messages)).toEqual([pinIds[4], pinIds[5]]);
  });

  it('refuses an id_around that is no pin of the channel, or one combined with other bounds', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'around-bad');
    const loose = await sendText(aliceChannel, 'Chưa ghim');
    const pin = (await alice.pinMessage(await sendText(aliceChannel, 'Đã ghim'))).message;

    await expectStreamError(bobChannel.getPinnedMessages({ id_around: loose.id }), {
      code: 4,
      status: 400,
      message: /id_around/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ id_around: pin.id, id_lt: pin.id }), {
      code: 4,
      message: /id_around/,
    });
    await expectStreamError(bobChannel.getPinnedMessages({ pinned_at_around: 'hôm qua' }), {
      code: 4,
      message: /pinned_at_around/,
    });
  });
});
