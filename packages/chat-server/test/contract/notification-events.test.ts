import { describe, expect, it } from 'vitest';
import {
  connectUser,
  connectUsers,
  createUsers,
  inMs,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  waitForState,
  watchChannel,
} from './helpers.ts';

/**
 * Every `notification.*` event stream-chat reads (events.ts EVENT_MAP), each with the fields client.ts
 * `_handleClientEvent` and channel.ts `_handleChannelEvent` use, and the client state they change.
 */
describe('notification events the client reads', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  /** Alice creates a channel with bob as a member; only alice watches it. */
  async function bobNotWatching(prefix: string) {
    const [alice, bob] = await connectUsers(env(), [`${prefix}-a`, `${prefix}-b`]);
    const channel = await watchChannel(alice!.client, 'messaging', uniqueId(prefix), {
      members: [alice!.id, bob!.id],
    });
    return { alice: alice!, bob: bob!, channel };
  }

  it('sends notification.message_new with the channel config and the unread totals to a member not watching', async () => {
    const { bob, channel } = await bobNotWatching('nev-new');
    const arrived = waitForEvent(
      bob.client,
      'notification.message_new',
      (e) => e.cid === channel.cid,
    );
    const sent = await sendText(channel, 'Đạo hữu có ở đó không?');
    const event = await arrived;

    expect(event.message?.id).toBe(sent.id);
    expect(event.channel).toMatchObject({ id: channel.id, type: 'messaging', cid: channel.cid });
    expect(bob.client.configs[channel.cid]?.read_events).toBe(true);
    expect(event.total_unread_count).toBe(1);
    expect(event.unread_channels).toBe(1);
  });

  it('sends notification.added_to_channel with the channel and the new member', async () => {
    const [alice, bob] = await connectUsers(env(), ['nev-add-a', 'nev-add-b']);
    const channel = await watchChannel(alice!.client, 'messaging', uniqueId('nev-add'), {
      members: [alice!.id],
    });
    const arrived = waitForEvent(bob!.client, 'notification.added_to_channel');
    await channel.addMembers([bob!.id]);
    const event = await arrived;

    expect(event.cid).toBe(channel.cid);
    expect(event.channel).toMatchObject({ id: channel.id, type: 'messaging' });
    expect(event.member?.user_id).toBe(bob!.id);
    // What stream-chat-react does with it: open the channel, where bob is now a member.
    const opened = await watchChannel(bob!.client, 'messaging', channel.id ?? '');
    expect(Object.keys(opened.state.members)).toContain(bob!.id);
  });

  it('sends notification.removed_from_channel, and the client forgets the channel', async () => {
    const { alice, bob, channel } = await bobNotWatching('nev-rm');
    await watchChannel(bob.client, 'messaging', channel.id ?? '');
    expect(bob.client.activeChannels[channel.cid]).toBeDefined();
    const arrived = waitForEvent(bob.client, 'notification.removed_from_channel');
    await channel.removeMembers([bob.id]);
    const event = await arrived;

    expect(event.cid).toBe(channel.cid);
    expect(event.channel?.cid).toBe(channel.cid);
    expect(event.member?.user_id).toBe(bob.id);
    await waitForState(bob.client, () => !bob.client.activeChannels[channel.cid], 'evicted');
    expect(alice.client.activeChannels[channel.cid]).toBeDefined();
  });

  it('sends notification.invited, beside notification.added_to_channel, to the invitee with the channel and their pending membership', async () => {
    const [alice, bob] = await connectUsers(env(), ['nev-inv-a', 'nev-inv-b']);
    const channel = await watchChannel(alice!.client, 'messaging', uniqueId('nev-inv'), {
      members: [alice!.id],
    });
    const listed = waitForEvent(bob!.client, 'notification.added_to_channel');
    const arrived = waitForEvent(bob!.client, 'notification.invited');
    await channel.inviteMembers([bob!.id]);
    const event = await arrived;

    expect(event.cid).toBe(channel.cid);
    expect(event.channel).toMatchObject({ id: channel.id, type: 'messaging' });
    expect(event.member).toMatchObject({ user_id: bob!.id, invited: true });
    // The channel list learns of the pending invitation as of any new channel.
    expect((await listed).member).toMatchObject({ user_id: bob!.id, invited: true });
  });

  it('sends notification.invite_accepted and notification.invite_rejected to the one who answers', async () => {
    const [alice, bob, carol] = await connectUsers(env(), ['nev-ans-a', 'nev-ans-b', 'nev-ans-c']);
    const channel = await watchChannel(alice!.client, 'messaging', uniqueId('nev-ans'), {
      members: [alice!.id],
    });
    await channel.inviteMembers([bob!.id, carol!.id]);

    const accepted = waitForEvent(bob!.client, 'notification.invite_accepted');
    await bob!.client.channel('messaging', channel.id).acceptInvite();
    const acceptedEvent = await accepted;
    expect(acceptedEvent.cid).toBe(channel.cid);
    expect(acceptedEvent.channel?.id).toBe(channel.id);
    expect(acceptedEvent.member?.user_id).toBe(bob!.id);
    expect(acceptedEvent.member?.invite_accepted_at).toEqual(expect.any(String));

    const rejected = waitForEvent(carol!.client, 'notification.invite_rejected');
    await carol!.client.channel('messaging', channel.id).rejectInvite();
    const rejectedEvent = await rejected;
    expect(rejectedEvent.cid).toBe(channel.cid);
    expect(rejectedEvent.member?.user_id).toBe(carol!.id);
    expect(rejectedEvent.member?.invite_rejected_at).toEqual(expect.any(String));
  });

  it('refuses an invite answer from someone who was not invited', async () => {
    const { bob, channel } = await bobNotWatching('nev-noinv');
    await expect(bob.client.channel('messaging', channel.id).acceptInvite()).rejects.toMatchObject({
      code: 4,
    });
  });

  it('sends notification.mark_read with unread_channels 0 after mark all read, and the client zeroes every channel', async () => {
    const { aliceChannel, bob, bobChannel } = await twoMembers(env(), 'nev-read');
    const counted = waitForState(bob, () => bobChannel.countUnread() === 1, 'one unread');
    await sendText(aliceChannel, 'Chưa đọc');
    await counted;
    const arrived = waitForEvent(bob, 'notification.mark_read', (e) => e.cid === undefined);
    await bob.markAllRead();
    const event = await arrived;

    expect(event.unread_channels).toBe(0);
    expect(event.total_unread_count).toBe(0);
    expect(event.user?.id).toBe(bob.userID);
    expect(bobChannel.state.unreadCount).toBe(0);
  });

  it('sends notification.mark_unread with the first unread message, and the channel counts it unread again', async () => {
    const { aliceChannel, bob, bobChannel } = await twoMembers(env(), 'nev-unread');
    const sent = await sendText(aliceChannel, 'Đánh dấu chưa đọc');
    await bobChannel.markRead();
    const arrived = waitForEvent(bob, 'notification.mark_unread', (e) => e.cid === bobChannel.cid);
    await bobChannel.markUnread({ message_id: sent.id });
    const event = await arrived;

    expect(event.first_unread_message_id).toBe(sent.id);
    expect(event.unread_messages).toBe(1);
    expect(event.user?.id).toBe(bob.userID);
    expect(event.unread_channels).toBe(1);
    expect(bobChannel.state.unreadCount).toBe(1);
  });

  it('sends notification.channel_deleted to a member not watching, and the client forgets the channel', async () => {
    const { bob, channel } = await bobNotWatching('nev-del');
    // Registered in activeChannels but not watched: the notification, not channel.deleted, must evict it.
    bob.client.channel('messaging', channel.id);
    expect(bob.client.activeChannels[channel.cid]).toBeDefined();
    const arrived = waitForEvent(bob.client, 'notification.channel_deleted');
    await channel.delete();
    const event = await arrived;

    expect(event.cid).toBe(channel.cid);
    expect(event.channel?.deleted_at).toEqual(expect.any(String));
    await waitForState(bob.client, () => !bob.client.activeChannels[channel.cid], 'evicted');
  });

  it('sends notification.channel_truncated with the truncated channel to a member not watching', async () => {
    const { bob, channel } = await bobNotWatching('nev-trunc');
    await sendText(channel, 'Sắp bị xóa');
    const arrived = waitForEvent(bob.client, 'notification.channel_truncated');
    await channel.truncate();
    const event = await arrived;

    expect(event.cid).toBe(channel.cid);
    expect(event.channel?.truncated_at).toEqual(expect.any(String));
  });

  it('sends channel.truncated, not notification.channel_truncated, to a member who is watching', async () => {
    const { aliceChannel, bob } = await twoMembers(env(), 'nev-trw');
    const notified: string[] = [];
    bob.on('notification.channel_truncated', (e) => notified.push(e.cid ?? ''));
    const truncated = waitForEvent(bob, 'channel.truncated');
    // alice's own truncate reaches her user topic too; bob's truncated event is the fence after which we look.
    await aliceChannel.truncate();
    await truncated;
    const fence = waitForEvent(bob, 'message.new');
    await sendText(aliceChannel, 'Hàng rào');
    await fence;
    expect(notified).toEqual([]);
  });

  it('sends notification.reminder_due with the reminder when it comes due', async () => {
    const { aliceChannel, alice } = await twoMembers(env(), 'nev-rem');
    const sent = await sendText(aliceChannel, 'Nhắc ta luyện đan');
    const due = waitForEvent(alice, 'notification.reminder_due', (e) => e.message_id === sent.id);
    await alice.createReminder({ messageId: sent.id, remind_at: inMs(1_000) });
    const event = await due;

    expect(event.cid).toBe(aliceChannel.cid);
    expect(event.reminder).toMatchObject({ message_id: sent.id, user_id: alice.userID });
  });

  it('sends notification.mutes_updated with me.mutes to every connection, and each client updates mutedUsers', async () => {
    const aliceId = uniqueId('nev-mute-a');
    const bobId = uniqueId('nev-mute-b');
    await createUsers(env(), [bobId]);
    const phone = await connectUser(env(), aliceId);
    const laptop = await connectUser(env(), aliceId);
    const onLaptop = waitForEvent(laptop, 'notification.mutes_updated');
    const onPhone = waitForEvent(phone, 'notification.mutes_updated');
    await phone.muteUser(bobId);
    const [event] = await Promise.all([onLaptop, onPhone]);

    expect(event.me?.mutes.map((m) => m.target.id)).toEqual([bobId]);
    expect(laptop.mutedUsers.map((m) => m.target.id)).toEqual([bobId]);
    expect(phone.mutedUsers.map((m) => m.target.id)).toEqual([bobId]);
  });

  it('sends notification.thread_message_new with the parent id and unread threads to the parent author', async () => {
    const { aliceChannel, alice, bobChannel } = await twoMembers(env(), 'nev-thread');
    const parent = await sendText(aliceChannel, 'Ai biết luyện khí?');
    const arrived = waitForEvent(
      alice,
      'notification.thread_message_new',
      (e) => e.message?.parent_id === parent.id,
    );
    const reply = await sendText(bobChannel, 'Ta biết', { parent_id: parent.id });
    const event = await arrived;

    expect(event.message?.id).toBe(reply.id);
    expect(event.cid).toBe(aliceChannel.cid);
    expect(event.parent_id).toBe(parent.id);
  });
});
