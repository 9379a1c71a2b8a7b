import type { Event, EventTypes } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

/** The fields an event arrived with; `received_at` is the client's own stamp, not the server's. */
function fieldsOf(event: Event): string[] {
  return Object.keys(event)
    .filter((key) => key !== 'received_at')
    .sort();
}

describe('event shapes', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function pair(prefix: string) {
    const aliceId = uniqueId(`${prefix}-a`);
    const bobId = uniqueId(`${prefix}-b`);
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId(prefix);
    const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    const bobChannel = await watchChannel(bob, 'messaging', channelId);
    return { aliceId, bobId, alice, bob, channelId, aliceChannel, bobChannel };
  }

  it('relays a custom event with the sender’s own fields, the server setting its type, channel keys, time and user', async () => {
    const { aliceId, channelId, aliceChannel, bobChannel } = await pair('custom-shape');
    const type = 'phap-bao.luyen-xong' as EventTypes;
    const forgedAt = '2000-01-01T00:00:00.000Z';

    const relayed = waitForEvent(bobChannel, type);
    await aliceChannel.sendEvent({
      type,
      pham_cap: 3,
      cid: 'messaging:gia-mao',
      channel_id: 'gia-mao',
      channel_type: 'livestream',
      created_at: forgedAt,
      user: { id: 'mao-danh' },
    } as never);
    const event = await relayed;

    expect(event.cid).toBe(`messaging:${channelId}`);
    expect(event.channel_id).toBe(channelId);
    expect(event.channel_type).toBe('messaging');
    expect(event.created_at).not.toBe(forgedAt);
    expect(event.user?.id).toBe(aliceId);
    expect((event as Event & { pham_cap?: number }).pham_cap).toBe(3);
    expect(fieldsOf(event)).toEqual([
      'channel_id',
      'channel_type',
      'cid',
      'created_at',
      'pham_cap',
      'type',
      'user',
    ]);
  });

  it('sends typing and reaction events without a member count, and message.read with one', async () => {
    const { aliceChannel, bobChannel } = await pair('activity-shape');

    const typing = waitForEvent(bobChannel, 'typing.start');
    await aliceChannel.keystroke();
    expect(fieldsOf(await typing)).toEqual([
      'channel_id',
      'channel_type',
      'cid',
      'created_at',
      'type',
      'user',
    ]);

    const message = await sendText(aliceChannel, 'Đan dược đã thành');
    const reacted = waitForEvent(bobChannel, 'reaction.new');
    await aliceChannel.sendReaction(message.id, { type: 'like' });
    expect(fieldsOf(await reacted)).toEqual([
      'channel_id',
      'channel_type',
      'cid',
      'created_at',
      'message',
      'reaction',
      'type',
      'user',
    ]);

    const read = waitForEvent(aliceChannel, 'message.read');
    await bobChannel.markRead();
    expect(fieldsOf(await read)).toEqual([
      'channel_id',
      'channel_member_count',
      'channel_type',
      'cid',
      'created_at',
      'last_read_message_id',
      'type',
      'user',
    ]);
  });

  it('tells a channel’s watchers of a member’s profile change with the cid alone', async () => {
    const { alice, aliceId, bob, channelId } = await pair('user-shape');

    const updated = waitForEvent(
      bob,
      'user.updated',
      (event) => event.cid === `messaging:${channelId}` && event.user?.id === aliceId,
    );
    await alice.partialUpdateUser({ id: aliceId, set: { dao_hieu: 'Thanh Vân' } });
    const event = await updated;

    expect(event.user?.dao_hieu).toBe('Thanh Vân');
    expect(fieldsOf(event)).toEqual(['cid', 'created_at', 'type', 'user']);
  });

  it('zeroes every badge with a notification.mark_read that names no channel', async () => {
    const { aliceChannel, bob } = await pair('mark-all-shape');
    await sendText(aliceChannel, 'Tin chưa đọc');

    const marked = waitForEvent(bob, 'notification.mark_read', (event) => !event.cid);
    await bob.markAllRead();
    const event = await marked;

    expect(event.total_unread_count).toBe(0);
    expect(fieldsOf(event)).toEqual([
      'created_at',
      'total_unread_count',
      'type',
      'unread_channels',
      'unread_count',
      'unread_threads',
      'user',
    ]);
  });
});
