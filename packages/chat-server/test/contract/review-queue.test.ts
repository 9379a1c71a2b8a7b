import { describe, expect, it } from 'vitest';
import type { Event, EventTypes } from 'stream-chat';
import {
  connectUser,
  createUsers,
  expectStreamError,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';
import { connectModerator, flaggedScene, itemOf } from './review-queue-helpers.ts';

describe('the review queue', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('groups the flags of one message into one item with its message, author, reasons and reporters', async () => {
    const { cid, reporter, author, message } = await flaggedScene(env());
    const second = await connectUser(env(), uniqueId('nhan-chung'));
    await author.channel.addMembers([second.userID!]);
    const moderator = await connectModerator(env());

    const flagged = await reporter.client.flagMessage(message.id, { reason: 'xúc phạm' });
    expect(flagged.review_queue_item_id).toEqual(expect.any(String));
    await second.flagMessage(message.id, { reason: 'spam' });

    const item = await itemOf(moderator.client, message.id);
    expect(item).toMatchObject({
      id: flagged.review_queue_item_id,
      entity_type: 'stream:chat:v1:message',
      entity_id: message.id,
      entity_creator_id: author.id,
      channel_cid: cid,
      status: 'pending',
      reviewed_at: null,
      actions: [],
      message: { id: message.id, text: 'Lời lẽ thô tục', user: { id: author.id } },
      entity_creator: { id: author.id },
    });
    expect(item.reasons).toEqual(['xúc phạm', 'spam']);
    expect(item.flags.map((flag) => flag.user.id)).toEqual([reporter.id, second.userID]);
  });

  it('lets a reporter flag again to change the reason and custom data, keeping one flag and one item', async () => {
    const { reporter, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    // Newer clients type `custom` in flagMessage's options; this one sends whatever the options hold, as Stream's docs do.
    type Flagged = { review_queue_item_id?: string; flag: Record<string, unknown> };
    const flag = (options?: Record<string, unknown>) =>
      reporter.client.flagMessage(message.id, options) as Promise<Flagged>;

    const first = await flag();
    expect(first.flag).toMatchObject({
      target_message_id: message.id,
      custom: {},
      user: { id: reporter.id },
    });

    const withReason = await flag({
      reason: 'spammy_user',
      custom: { user_comment: 'Rao vặt khắp nơi.', page: 'trang-chu' },
    });
    expect(withReason.review_queue_item_id).toBe(first.review_queue_item_id);
    expect(withReason.flag).toMatchObject({
      reason: 'spammy_user',
      custom: { user_comment: 'Rao vặt khắp nơi.', page: 'trang-chu' },
      created_at: first.flag.created_at,
    });

    const onlyCustom = await flag({ custom: { page: 'kenh' } });
    expect(onlyCustom.flag.custom).toEqual({ page: 'kenh' });

    const item = await itemOf(moderator.client, message.id);
    expect(item.flags).toHaveLength(1);
    expect(item.flags_count).toBe(1);
  });

  it('flags a message and a user through the v2 moderation API and answers with the item id', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());

    const onMessage = await reporter.client.moderation.flagMessage(message.id, 'quấy rối');
    const onUser = await reporter.client.moderation.flagUser(author.id, 'giả mạo');

    const { items } = await moderator.client.moderation.queryReviewQueue({
      entity_creator_id: author.id,
    });
    expect(items.map((item) => [item.id, item.entity_type]).sort()).toEqual(
      [
        [onMessage.item_id, 'stream:chat:v1:message'],
        [onUser.item_id, 'stream:user'],
      ].sort(),
    );
    const userItem = await itemOf(moderator.client, author.id);
    expect(userItem.flags[0]).toMatchObject({ reason: 'giả mạo', user: { id: reporter.id } });
  });

  it('tells moderators and admins of a flag, and never the reporter or the author', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const admin = await connectModerator(env(), 'admin');
    const seenByUsers: string[] = [];
    for (const client of [reporter.client, author.client])
      client.on((event: Event) => {
        if (String(event.type).endsWith('.flagged')) seenByUsers.push(event.type);
      });
    const flaggedType = 'message.flagged' as EventTypes;
    const toModerator = waitForEvent(moderator.client, flaggedType);
    const toAdmin = waitForEvent(admin.client, flaggedType);

    await reporter.client.flagMessage(message.id, { reason: 'xúc phạm' });

    const event = await toModerator;
    expect(event).toMatchObject({ message: { id: message.id }, user: { id: reporter.id } });
    await toAdmin;
    const userFlagged = waitForEvent(moderator.client, 'user.flagged' as EventTypes);
    await reporter.client.flagUser(author.id);
    expect(await userFlagged).toMatchObject({ target_user: { id: author.id } });
    // An event both users receive after the flags: had a flag event gone to them, it would have come first.
    const later = waitForEvent(author.client, 'message.new');
    await sendText(reporter.channel, 'Sau báo cáo');
    await later;
    expect(seenByUsers).toEqual([]);
  });

  it('marks an item reviewed and keeps every action in the item’s log with who acted and why', async () => {
    const { reporter, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);

    const { item } = await moderator.client.moderation.submitAction('mark_reviewed', itemId!, {
      mark_reviewed: { decision_reason: 'không vi phạm' },
    });
    expect(item).toMatchObject({
      id: itemId,
      status: 'reviewed',
      latest_moderator_action: 'mark_reviewed',
    });
    expect(item?.reviewed_at).toEqual(expect.any(String));
    await moderator.client.moderation.submitAction('mark_reviewed', itemId!);

    const stored = await itemOf(moderator.client, message.id);
    expect(stored.actions).toMatchObject([
      { type: 'mark_reviewed', user_id: moderator.id, reason: 'không vi phạm' },
      { type: 'mark_reviewed', user_id: moderator.id, reason: '' },
    ]);
    const reviewed = await moderator.client.moderation.queryReviewQueue({
      reviewed: true,
      entity_id: message.id,
    });
    expect(reviewed.items).toHaveLength(1);
    const pending = await moderator.client.moderation.queryReviewQueue({
      reviewed: false,
      entity_id: message.id,
    });
    expect(pending.items).toEqual([]);
  });

  it('deletes the flagged message softly or for good from the queue, and the item keeps its flags', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const other = await sendText(author.channel, 'Lời thứ hai');
    const moderator = await connectModerator(env());
    const soft = await reporter.client.flagMessage(message.id);
    const hard = await reporter.client.flagMessage(other.id);

    const deleted = waitForEvent(reporter.channel, 'message.deleted');
    await moderator.client.moderation.submitAction('delete_message', soft.review_queue_item_id!, {
      delete_message: { reason: 'thô tục' },
    });
    expect((await deleted).message?.id).toBe(message.id);
    const { message: softened } = await env().admin.getMessage(message.id);
    expect(softened.deleted_at).toEqual(expect.any(String));

    await moderator.client.moderation.submitAction('delete_message', hard.review_queue_item_id!, {
      delete_message: { hard_delete: true },
    });
    await expectStreamError(env().admin.getMessage(other.id), { code: 16, status: 404 });
    const gone = await itemOf(moderator.client, other.id);
    expect(gone).toMatchObject({ latest_moderator_action: 'delete_message', flags_count: 1 });
    expect(gone.message).toBeUndefined();
  });

  it('refuses to restore a deleted message rather than pretend, and restores (keeps) a message still there', async () => {
    const { reporter, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);
    await moderator.client.moderation.submitAction('restore', itemId!);
    await moderator.client.moderation.submitAction('delete_message', itemId!);
    await expectStreamError(moderator.client.moderation.submitAction('restore', itemId!), {
      code: 4,
      status: 400,
    });
    expect((await itemOf(moderator.client, message.id)).actions.map((a) => a.type)).toEqual([
      'restore',
      'delete_message',
    ]);
  });

  it('bans the author through the bans module, channel-only and for a time, and unbans them', async () => {
    const { cid, reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);

    await moderator.client.moderation.submitAction('ban', itemId!, {
      ban: { reason: 'tái phạm', timeout: 60, channel_ban_only: true },
    });
    // Only the channel ban exists: no app-wide ban came with it.
    const { bans } = await env().admin.queryBannedUsers({ user_id: author.id });
    expect(bans).toMatchObject([
      {
        user: { id: author.id },
        banned_by: { id: moderator.id },
        channel: { cid },
        reason: 'tái phạm',
        expires: expect.any(String),
        shadow: false,
      },
    ]);
    // The timeout is in minutes, as on Stream: the ban lapses an hour after it was made.
    const ban = bans![0]! as { expires?: string; created_at?: string };
    const length = Date.parse(ban.expires!) - Date.parse(ban.created_at!);
    expect(Math.abs(length - 60 * 60_000)).toBeLessThan(5_000);
    await expectStreamError(sendText(author.channel, 'Vẫn nói được?'), { code: 17 });

    await moderator.client.moderation.submitAction('unban', itemId!, {
      unban: { channel_cid: cid },
    });
    expect((await env().admin.queryBannedUsers({ user_id: author.id })).bans).toEqual([]);
    await sendText(author.channel, 'Được ân xá');
    expect((await itemOf(moderator.client, message.id)).actions.map((a) => a.type)).toEqual([
      'ban',
      'unban',
    ]);
  });

  it('keeps showing the moderator a flagged message its author deleted, with its author', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    await reporter.client.flagMessage(message.id);
    await author.client.deleteMessage(message.id);
    const item = await itemOf(moderator.client, message.id);
    expect(item.message).toMatchObject({
      id: message.id,
      user: { id: author.id },
      deleted_at: expect.any(String),
    });
    expect(item.message?.shadowed).toBe(false);
  });

  it('records no action when the bans module refuses it (today: bans unavailable or not allowed)', async () => {
    const { reporter, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);
    // A moderator may not ban an admin: whatever the bans module answers, a refusal leaves no trace in the log.
    const admin = uniqueId('chuong-mon');
    await createUsers(env(), [{ id: admin, name: admin, role: 'admin' }]);
    await expectStreamError(
      moderator.client.moderation.submitAction('ban', itemId!, { ban: { target_user_id: admin } }),
      { code: 17, status: 403 },
    );
    expect((await itemOf(moderator.client, message.id)).actions).toEqual([]);
  });

  it('pages the queue newest first and filters by status and entity type', async () => {
    const { reporter, author } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const messages = [];
    for (const text of ['một', 'hai', 'ba']) messages.push(await sendText(author.channel, text));
    for (const message of messages) await reporter.client.flagMessage(message.id);

    const filter = { entity_creator_id: author.id, entity_type: 'stream:chat:v1:message' };
    const first = await moderator.client.moderation.queryReviewQueue(filter, [], { limit: 2 });
    expect(first.items.map((item) => item.entity_id)).toEqual([messages[2]!.id, messages[1]!.id]);
    const second = await moderator.client.moderation.queryReviewQueue(filter, [], {
      limit: 2,
      next: first.next,
    });
    expect(second.items.map((item) => item.entity_id)).toEqual([messages[0]!.id]);
    const oldest = await moderator.client.moderation.queryReviewQueue(filter, [{ created_at: 1 }], {
      limit: 1,
    });
    expect(oldest.items[0]?.entity_id).toBe(messages[0]!.id);
    const none = await moderator.client.moderation.queryReviewQueue({
      ...filter,
      status: 'reviewed',
    });
    expect(none.items).toEqual([]);
  });
});
