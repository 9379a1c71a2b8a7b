import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  inMs,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  waitForState,
  watchChannel,
} from './contract/helpers.ts';

const HOUR_MS = 3_600_000;

describe('message reminders and save for later', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('advertises reminders in the channel config, which the UI needs to show the actions', async () => {
    const { aliceChannel } = await twoMembers(env(), 'rem-config');
    expect(aliceChannel.getConfig()?.user_message_reminders).toBe(true);
  });

  it('creates a reminder and a bookmark, and every message carries only its viewer’s own reminder', async () => {
    const { aliceId, alice, bob, aliceChannel, channelId } = await twoMembers(env(), 'rem-create');
    const later = await sendText(aliceChannel, 'Nhắc ta luyện đan');
    const saved = await sendText(aliceChannel, 'Lưu bí kíp này');
    const remindAt = inMs(HOUR_MS);

    const created = await alice.createReminder({ messageId: later.id, remind_at: remindAt });
    expect(created.reminder).toMatchObject({
      message_id: later.id,
      user_id: aliceId,
      channel_cid: `messaging:${channelId}`,
      user: { id: aliceId },
      message: { id: later.id, text: 'Nhắc ta luyện đan' },
    });
    expect(Date.parse(created.reminder.remind_at ?? '')).toBe(Date.parse(remindAt));
    const bookmark = await alice.createReminder({ messageId: saved.id });
    expect(bookmark.reminder.remind_at).toBeUndefined();
    expect(bookmark.reminder.message_id).toBe(saved.id);

    const mine = await alice.channel('messaging', channelId).query({ messages: { limit: 10 } });
    const byId = new Map(mine.messages.map((m) => [m.id, m]));
    expect(Date.parse(byId.get(later.id)?.reminder?.remind_at ?? '')).toBe(Date.parse(remindAt));
    expect(byId.get(saved.id)?.reminder).toMatchObject({ message_id: saved.id, user_id: aliceId });
    expect(byId.get(saved.id)?.reminder?.remind_at).toBeUndefined();

    const theirs = await bob.channel('messaging', channelId).query({ messages: { limit: 10 } });
    expect(theirs.messages.map((m) => m.reminder)).toEqual([undefined, undefined]);
    const single = await alice.getMessage(later.id);
    expect(single.message.reminder?.message_id).toBe(later.id);
  });

  it('refuses a second reminder with the duplicate text the client matches, and upsertReminder falls back to update', async () => {
    const { aliceId, aliceChannel, alice } = await twoMembers(env(), 'rem-dup');
    const message = await sendText(aliceChannel, 'Hai lần nhắc');
    await alice.createReminder({ messageId: message.id });

    await expectStreamError(alice.createReminder({ messageId: message.id }), {
      code: 4,
      status: 400,
      message: /already has reminder created for this message_id/,
    });

    // A fresh client has nothing cached, so upsert tries create first and must recover from the duplicate error.
    const other = await connectUser(env(), aliceId);
    const remindAt = inMs(2 * HOUR_MS);
    await other.reminders.upsertReminder({ messageId: message.id, remind_at: remindAt });
    const stored = await alice.queryReminders({ filter: { message_id: message.id } });
    expect(stored.reminders).toHaveLength(1);
    expect(Date.parse(stored.reminders[0]?.remind_at ?? '')).toBe(Date.parse(remindAt));
  });

  it('answers update and delete of a missing reminder with the text the client matches', async () => {
    const { aliceChannel, alice } = await twoMembers(env(), 'rem-missing');
    const message = await sendText(aliceChannel, 'Chưa có lời nhắc');
    await expectStreamError(
      alice.updateReminder({ messageId: message.id, remind_at: inMs(HOUR_MS) }),
      {
        code: 16,
        status: 404,
        message: /reminder does not exist/,
      },
    );
    await expectStreamError(alice.deleteReminder(message.id), {
      code: 16,
      status: 404,
      message: /reminder does not exist/,
    });
  });

  it('refuses bad input with a clear 4xx', async () => {
    const { aliceChannel, alice, bob } = await twoMembers(env(), 'rem-bad');
    const message = await sendText(aliceChannel, 'Sai ngày');
    await expectStreamError(
      alice.createReminder({ messageId: message.id, remind_at: 'ngày mai' }),
      {
        code: 4,
        status: 400,
      },
    );
    await expectStreamError(alice.createReminder({ messageId: 'no-such-message' }), {
      code: 16,
      status: 404,
    });
    const outsider = uniqueId('rem-outsider');
    const stranger = await connectUser(env(), outsider);
    await expectStreamError(stranger.createReminder({ messageId: message.id }), { code: 17 });
    await expectStreamError(bob.queryReminders({ limit: 1000 }), { code: 4, status: 400 });
  });

  it('sends reminder.created, updated and deleted to the owner’s other connections with the fields the client reads', async () => {
    const { aliceId, alice, aliceChannel, bobChannel } = await twoMembers(env(), 'rem-events');
    const second = await connectUser(env(), aliceId);
    second.reminders.registerSubscriptions();
    const bobReminderEvents: Event[] = [];
    bobChannel.getClient().on((event) => {
      if (event.type.startsWith('reminder.')) bobReminderEvents.push(event);
    });
    const message = await sendText(aliceChannel, 'Nhắc khi trăng tròn');

    const createdSeen = waitForEvent(second, 'reminder.created');
    await alice.createReminder({ messageId: message.id, remind_at: inMs(HOUR_MS) });
    const created = await createdSeen;
    expect(created).toMatchObject({
      message_id: message.id,
      user_id: aliceId,
      cid: aliceChannel.cid,
      reminder: { message_id: message.id, user_id: aliceId, channel_cid: aliceChannel.cid },
    });
    await waitForState(second, () => !!second.reminders.getFromState(message.id), 'cached');

    const laterAt = inMs(3 * HOUR_MS);
    const updatedSeen = waitForEvent(second, 'reminder.updated');
    await alice.updateReminder({ messageId: message.id, remind_at: laterAt });
    expect(Date.parse((await updatedSeen).reminder?.remind_at ?? '')).toBe(Date.parse(laterAt));

    const deletedSeen = waitForEvent(second, 'reminder.deleted');
    await alice.deleteReminder(message.id);
    const deleted = await deletedSeen;
    expect(deleted.message_id).toBe(message.id);
    expect(deleted.reminder?.message_id).toBe(message.id);
    await waitForState(second, () => !second.reminders.getFromState(message.id), 'removed');

    // Bob watches the same channel: a later channel event reaches him, the reminder events never did.
    const marker = waitForEvent(bobChannel, 'message.new', (e) => e.message?.text === 'mốc');
    await sendText(aliceChannel, 'mốc');
    await marker;
    expect(bobReminderEvents).toEqual([]);
  });

  it('queries reminders with filters, sort and next/prev cursors', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 'rem-query');
    const messages = [];
    for (const text of ['một', 'hai', 'ba']) messages.push(await sendText(aliceChannel, text));
    const [first, second, third] = messages as [
      (typeof messages)[0],
      (typeof messages)[0],
      (typeof messages)[0],
    ];
    await alice.createReminder({ messageId: first.id, remind_at: inMs(3 * HOUR_MS) });
    await alice.createReminder({ messageId: second.id, remind_at: inMs(HOUR_MS) });
    await alice.createReminder({ messageId: third.id });

    const page1 = await alice.queryReminders({
      filter: { channel_cid: aliceChannel.cid ?? '' },
      sort: { remind_at: 1 },
      limit: 2,
    });
    expect(page1.reminders.map((r) => r.message_id)).toEqual([second.id, first.id]);
    expect(page1.next).toEqual(expect.any(String));
    const page2 = await alice.queryReminders({
      filter: { channel_cid: aliceChannel.cid ?? '' },
      sort: { remind_at: 1 },
      limit: 2,
      next: page1.next,
    });
    expect(page2.reminders.map((r) => r.message_id)).toEqual([third.id]);
    expect(page2.next).toBeUndefined();
    expect(page2.prev).toEqual(expect.any(String));
    const back = await alice.queryReminders({
      filter: { channel_cid: aliceChannel.cid ?? '' },
      sort: { remind_at: 1 },
      limit: 2,
      prev: page2.prev,
    });
    expect(back.reminders.map((r) => r.message_id)).toEqual([second.id, first.id]);

    const bookmarks = await alice.queryReminders({
      filter: { channel_cid: aliceChannel.cid ?? '', remind_at: { $exists: false } },
    });
    expect(bookmarks.reminders.map((r) => r.message_id)).toEqual([third.id]);
    expect(bookmarks.reminders[0]?.message.text).toBe('ba');

    await alice.deleteMessage(second.id);
    const remaining = await alice.queryReminders({
      filter: { channel_cid: aliceChannel.cid ?? '' },
    });
    expect(remaining.reminders.map((r) => r.message_id).sort()).toEqual(
      [first.id, third.id].sort(),
    );
  });

  it('emits notification.reminder_due to the user when remind_at comes', async () => {
    const { aliceId, alice, aliceChannel, bob } = await twoMembers(env(), 'rem-due');
    const message = await sendText(aliceChannel, 'Giờ Tý luyện công');
    const bobDue: Event[] = [];
    bob.on('notification.reminder_due', (event) => bobDue.push(event));
    const due = waitForEvent(
      alice,
      'notification.reminder_due',
      (e) => e.message_id === message.id,
    );
    await alice.createReminder({ messageId: message.id, remind_at: inMs(1_000) });
    const event = await due;
    expect(event).toMatchObject({
      user_id: aliceId,
      cid: aliceChannel.cid,
      reminder: { message_id: message.id, user_id: aliceId, message: { id: message.id } },
    });
    expect(bobDue).toEqual([]);
  });
});

describe('reminders across a restart', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('announces a stored reminder after the server restarts', async () => {
    const aliceId = uniqueId('rem-restart');
    const alice = await connectUser(env(), aliceId);
    const channel = await watchChannel(alice, 'messaging', uniqueId('rem-restart'), {
      members: [aliceId],
    });
    const message = await sendText(channel, 'Nhớ ta sau khi khởi động lại');
    await alice.createReminder({ messageId: message.id, remind_at: inMs(6_000) });

    const recovered = waitForEvent(alice, 'connection.recovered', () => true, 10_000);
    await env().server.restart();
    await recovered;
    const event = await waitForEvent(
      alice,
      'notification.reminder_due',
      (e) => e.message_id === message.id,
      10_000,
    );
    expect(event.reminder?.user_id).toBe(aliceId);
  });
});
