import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  rawRequest,
  uniqueId,
  useContractEnv,
} from './helpers.ts';
import { connectModerator, flaggedScene, flagsFilter, itemOf } from './review-queue-helpers.ts';

describe('the review queue refuses', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('ordinary users on every moderator route with code 17', async () => {
    const { reporter, message } = await flaggedScene(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);
    await expectStreamError(reporter.client.moderation.queryReviewQueue(), {
      code: 17,
      status: 403,
    });
    await expectStreamError(reporter.client.moderation.submitAction('mark_reviewed', itemId!), {
      code: 17,
      status: 403,
    });
    await expectStreamError(reporter.client.queryMessageFlags(), { code: 17, status: 403 });
  });

  it('flagging a missing message, a missing user, or an unknown entity type', async () => {
    const { reporter, message } = await flaggedScene(env());
    await expectStreamError(reporter.client.flagMessage(uniqueId('khong-co')), {
      code: 16,
      status: 404,
    });
    await expectStreamError(reporter.client.moderation.flagUser(uniqueId('vo-danh'), 'x'), {
      code: 16,
      status: 404,
    });
    await expectStreamError(
      reporter.client.moderation.flag('stream:feeds:v2:activity', message.id, '', 'x'),
      {
        code: 4,
        status: 400,
      },
    );
  });

  it('a reporter’s 31st flag within a minute with code 9, keeping the 30 before it', async () => {
    const reporter = await connectUser(env(), uniqueId('bao-nhieu'));
    const moderator = await connectModerator(env());
    const targets = Array.from({ length: 31 }, () => uniqueId('bi-bao'));
    await createUsers(env(), targets);
    for (const target of targets.slice(0, 30)) await reporter.flagUser(target);
    await expectStreamError(reporter.flagUser(targets[30]!), { code: 9, status: 429 });
    const { items } = await moderator.client.moderation.queryReviewQueue(
      { entity_id: { $in: targets } },
      [],
      { limit: 100 },
    );
    expect(items).toHaveLength(30);
  });

  it('a new flag reopens a reviewed item, and the earlier review stays in its log', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);
    await moderator.client.moderation.submitAction('mark_reviewed', itemId!);
    await author.channel.addMembers([moderator.id]);
    await moderator.client.flagMessage(message.id, { reason: 'lại nữa' });
    const item = await itemOf(moderator.client, message.id);
    expect(item).toMatchObject({ id: itemId, status: 'pending', reviewed_at: null });
    expect(item.actions.map((action) => action.type)).toEqual(['mark_reviewed']);
  });

  it('actions on a missing item, unknown actions, and bad options', async () => {
    const { reporter, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id);
    await expectStreamError(
      moderator.client.moderation.submitAction('mark_reviewed', uniqueId('khong-co')),
      {
        code: 16,
        status: 404,
      },
    );
    await expectStreamError(moderator.client.moderation.submitAction('phong_an', itemId!), {
      code: 4,
      status: 400,
      message: /action_type/,
    });
    await expectStreamError(
      moderator.client.moderation.submitAction('ban', itemId!, { ban: { timeout: -5 } }),
      { code: 4, status: 400, message: /timeout/ },
    );
    await expectStreamError(
      moderator.client.moderation.submitAction('delete_message', itemId!, {
        delete_message: { reason: 'x'.repeat(501) },
      }),
      { code: 4, status: 400 },
    );
    const userItem = await reporter.client.moderation.flagUser(
      (await itemOf(moderator.client, message.id)).entity_creator_id!,
      'x',
    );
    await expectStreamError(
      moderator.client.moderation.submitAction('delete_message', userItem.item_id),
      {
        code: 4,
        status: 400,
      },
    );
    // Nothing refused was logged, and the message is still there.
    expect((await itemOf(moderator.client, message.id)).actions).toEqual([]);
    expect((await env().admin.getMessage(message.id)).message.deleted_at).toBeUndefined();
  });

  it('bad filters, pages and bodies with Stream’s code 4 naming the field', async () => {
    const moderator = await connectModerator(env());
    await expectStreamError(
      moderator.client.moderation.queryReviewQueue({ phap_bao: 'x' } as never),
      {
        code: 4,
        message: /phap_bao/,
      },
    );
    await expectStreamError(moderator.client.moderation.queryReviewQueue({}, [], { limit: 1000 }), {
      code: 4,
      message: /limit/,
    });
    await expectStreamError(
      moderator.client.moderation.queryReviewQueue({ reviewed: 'co' } as never),
      {
        code: 4,
        message: /reviewed/,
      },
    );
    await expectStreamError(moderator.client.queryMessageFlags({ is_reviewed: 'co' } as never), {
      code: 4,
      message: /is_reviewed/,
    });
    const response = await rawRequest(env(), {
      method: 'POST',
      path: '/api/v2/moderation/submit_action',
      userId: moderator.id,
      body: { item_id: 42 },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 4 });
  });
});

describe('message flags and unflag', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('lists message flags for moderators with message, reporter and review state, filtered by channel and reporter', async () => {
    const { cid, reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    const { review_queue_item_id: itemId } = await reporter.client.flagMessage(message.id, {
      reason: 'spam',
    });

    const { flags } = await moderator.client.queryMessageFlags({ channel_cid: cid });
    expect(flags).toMatchObject([
      {
        message: { id: message.id, user: { id: author.id } },
        user: { id: reporter.id },
        created_by_automod: false,
      },
    ]);
    expect(flags?.[0]?.reviewed_at).toBeUndefined();
    await moderator.client.moderation.submitAction('mark_reviewed', itemId!);
    const reviewed = await moderator.client.queryMessageFlags(
      flagsFilter({ channel_cid: cid, is_reviewed: true }),
    );
    expect(reviewed.flags).toMatchObject([{ reviewed_by: { id: moderator.id } }]);
    expect(
      (
        await moderator.client.queryMessageFlags(
          flagsFilter({ channel_cid: cid, is_reviewed: false }),
        )
      ).flags,
    ).toEqual([]);
    const byOther = await moderator.client.queryMessageFlags({
      channel_cid: cid,
      user_id: author.id,
    });
    expect(byOther.flags).toEqual([]);
  });

  it('answers unflag with success and keeps the flag for moderators, as Stream’s deprecated no-op does', async () => {
    const { reporter, author, message } = await flaggedScene(env());
    const moderator = await connectModerator(env());
    await reporter.client.flagMessage(message.id);
    await reporter.client.unflagMessage(message.id);
    await reporter.client.unflagUser(author.id);
    expect((await itemOf(moderator.client, message.id)).flags).toHaveLength(1);
    await expectStreamError(reporter.client.unflagMessage(uniqueId('khong-co')), {
      code: 16,
      status: 404,
    });
    await expectStreamError(reporter.client.unflagUser(uniqueId('vo-danh')), {
      code: 16,
      status: 404,
    });
  });
});
