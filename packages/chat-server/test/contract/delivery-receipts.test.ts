import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

describe('delivery receipts (markChannelsDelivered)', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('tells the other watchers a member got a message, unless that member turned delivery receipts off', async () => {
    const { alice, bobChannel, channelId } = await twoMembers(env(), 'da-nhan');
    const cid = `messaging:${channelId}`;
    const shyId = uniqueId('kin-dao');
    const shy = await connectUser(env(), shyId, {
      user: { privacy_settings: { delivery_receipts: { enabled: false } } },
    });
    await env().admin.channel('messaging', channelId).addMembers([shyId]);
    const heard: Event[] = [];
    bobChannel.on('message.delivered', (event) => heard.push(event));

    const message = await sendText(bobChannel, 'Đến chưa?');
    const delivered = waitForEvent(bobChannel, 'message.delivered');
    const latest = [{ cid, id: message.id }];
    await shy.markChannelsDelivered({ latest_delivered_messages: latest });
    const outsider = await connectUser(env(), uniqueId('ngoai'));
    await outsider.markChannelsDelivered({ latest_delivered_messages: latest });
    await alice.markChannelsDelivered({ latest_delivered_messages: latest });

    const event = await delivered;
    expect(event).toMatchObject({
      cid,
      user: { id: alice.userID },
      last_delivered_message_id: message.id,
      last_delivered_at: expect.any(String),
    });
    // Alice's second delivery, sent after the others, arrives last: by then theirs would have too.
    const second = waitForEvent(bobChannel, 'message.delivered', () => heard.length === 2);
    await alice.markChannelsDelivered({ latest_delivered_messages: latest });
    await second;
    expect(heard.map((e) => e.user?.id)).toEqual([alice.userID, alice.userID]);
  });

  it('refuses a malformed list with code 4', async () => {
    const { alice } = await twoMembers(env(), 'sai-nhan');
    for (const latest of [
      'messaging:x',
      [{ cid: 'messaging:x' }],
      Array(101).fill({ cid: 'a:b', id: 'c' }),
    ])
      await expectStreamError(
        alice.markChannelsDelivered({ latest_delivered_messages: latest } as never),
        { code: 4, status: 400 },
      );
  });
});
