import { describe, expect, it } from 'vitest';
import {
  connectUser,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('events to members who are not watching', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('sends notification.message_new with the channel and its config to a member who is not watching', async () => {
    const aliceId = uniqueId('pham-nhan');
    const carolId = uniqueId('nam-cung-uyen');
    const alice = await connectUser(env(), aliceId);
    const carol = await connectUser(env(), carolId);
    const aliceChannel = await watchChannel(alice, 'messaging', uniqueId('thu-tu'), {
      members: [aliceId, carolId],
    });

    const notified = waitForEvent(
      carol,
      'notification.message_new',
      (event) => event.cid === aliceChannel.cid,
    );
    const sent = await sendText(aliceChannel, 'Nàng có khỏe không?');
    const event = await notified;

    expect(event.message).toMatchObject({ id: sent.id, text: 'Nàng có khỏe không?' });
    expect(event.channel).toMatchObject({
      id: aliceChannel.id,
      type: 'messaging',
      cid: aliceChannel.cid,
    });
    expect(event.channel?.config?.read_events).toBe(true);
    expect(carol.configs[aliceChannel.cid]?.typing_events).toBe(true);
    // Opening the channel afterwards shows the message as unread.
    const opened = await watchChannel(carol, 'messaging', aliceChannel.id ?? '');
    expect(opened.state.unreadCount).toBe(1);
  });

  it('sends message.new, not notification.message_new, to a member who is watching', async () => {
    const aliceId = uniqueId('tan-moc');
    const bobId = uniqueId('lam-thien');
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId('sen-kenh');
    const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    await watchChannel(bob, 'messaging', channelId);
    const notifications: string[] = [];
    const listener = bob.on('notification.message_new', (event) => {
      if (event.message?.id) notifications.push(event.message.id);
    });

    const first = await sendText(aliceChannel, 'Một');
    // The second message.new is a fence: anything sent to bob for the first message has arrived before it.
    const fence = waitForEvent(bob, 'message.new', (event) => event.message?.text === 'Hai');
    await sendText(aliceChannel, 'Hai');
    await fence;
    listener.unsubscribe();

    expect(notifications).not.toContain(first.id);
  });

  it('tells a member who is not watching about new members, and lets them open the channel', async () => {
    const aliceId = uniqueId('thai-ho');
    const daveId = uniqueId('moi-vao');
    const alice = await connectUser(env(), aliceId);
    const dave = await connectUser(env(), daveId);
    const aliceChannel = await watchChannel(alice, 'messaging', uniqueId('nhap-mon'), {
      members: [aliceId],
    });
    const welcome = await sendText(aliceChannel, 'Chào mừng nhập môn');

    const added = waitForEvent(
      dave,
      'notification.added_to_channel',
      (event) => event.channel?.id === aliceChannel.id,
    );
    await aliceChannel.addMembers([daveId]);
    const event = await added;

    expect(event.channel?.cid).toBe(aliceChannel.cid);
    const opened = await watchChannel(dave, event.channel?.type ?? '', event.channel?.id ?? '');
    expect(opened.state.messages.map((message) => message.id)).toContain(welcome.id);
  });
});
