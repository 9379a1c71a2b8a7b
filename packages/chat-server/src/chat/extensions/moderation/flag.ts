import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../../core/json.ts';
import { actingUser, existingUser, requiredId } from './checks.ts';
import type { FlagRow } from './repo.ts';
import { notifyModerators, openItemFor } from './review-queue.ts';
import type { ModerationContext } from './service.ts';

const MAX_REASON_LENGTH = 500;
const FLAG_RESERVED = new Set([
  'target_message_id',
  'target_user_id',
  'reason',
  'user_id',
  'custom',
]);
const NOTHING_RESERVED = new Set<string>();

/** The columns of a flag that do not depend on what is flagged. */
type FlagBase = Omit<FlagRow, 'target' | 'target_message_id' | 'target_user_id' | 'channel_cid'>;

function flagBase(context: ModerationContext, actor: Actor, userId: string, body: JsonObject) {
  const reason = body.reason ?? '';
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)
    throw chatError.input(`reason must be text of at most ${MAX_REASON_LENGTH} characters`);
  // stream-chat sends `custom: {…}` (flagMessage's options); extra top-level keys count as custom data too.
  const nested = isPlainObject(body.custom) ? body.custom : {};
  const custom = JSON.stringify(
    pickCustom({ ...pickCustom(body, FLAG_RESERVED, 'flag'), ...nested }, NOTHING_RESERVED, 'flag'),
  );
  const now = context.deps.clock.now();
  return {
    app_id: actor.appId,
    user_id: userId,
    reason,
    custom,
    created_at: now,
    updated_at: now,
  } satisfies FlagBase;
}

async function flagMessage(
  context: ModerationContext,
  actor: Actor,
  base: FlagBase,
  target: unknown,
): Promise<{ row: FlagRow; itemId: string }> {
  const { messages } = context;
  const userId = base.user_id;
  const messageId = requiredId(target, 'target_message_id');
  // Only what the reporter can read may be reported.
  const { row: message, access } = await messages.accessMessage(
    actor.isServer ? { ...actor, userId } : actor,
    messageId,
  );
  if (message.user_id === userId) throw chatError.input('you cannot flag your own message');
  if (!actor.isServer && !access.permissions.has('flag-message'))
    throw chatError.notAllowed('flagging messages in this channel is not allowed');
  const row = {
    ...base,
    target: `message:${messageId}`,
    target_message_id: messageId,
    target_user_id: null,
    channel_cid: message.cid,
  };
  return storeFlag(context, row, message.user_id);
}

/**
 * Stores the flag with its queue item. A reporter has one flag per target: flagging it again, as Stream's own docs
 * do to add a reason or custom data, replaces the reason and custom data and keeps the first time.
 */
async function storeFlag(
  context: ModerationContext,
  row: FlagRow,
  creatorId: string,
): Promise<{ row: FlagRow; itemId: string }> {
  return context.deps.writes.run(async (trx) => {
    const stored = await context.repo.flag(trx, row);
    const item = await openItemFor(context, trx, row, creatorId);
    return { row: stored, itemId: item.id };
  });
}

async function flagUser(
  context: ModerationContext,
  actor: Actor,
  base: FlagBase,
  target: unknown,
): Promise<{ row: FlagRow; itemId: string }> {
  const targetId = requiredId(target, 'target_user_id');
  if (targetId === base.user_id) throw chatError.input('you cannot flag yourself');
  await existingUser(context, actor.appId, targetId);
  const row = {
    ...base,
    target: `user:${targetId}`,
    target_message_id: null,
    target_user_id: targetId,
    channel_cid: null,
  };
  return storeFlag(context, row, targetId);
}

async function flagResponse(
  context: ModerationContext,
  appId: string,
  userId: string,
  { row, itemId }: { row: FlagRow; itemId: string },
): Promise<JsonObject> {
  const byId = await context.users.responses(appId, [userId, row.target_user_id ?? userId]);
  const now = context.deps.clock.now();
  if (row.target_message_id) {
    const message = await context.messages.eventMessage(appId, row.target_message_id);
    await notifyModerators(context, appId, {
      type: 'message.flagged',
      cid: row.channel_cid,
      message,
      user: byId.get(userId),
      review_queue_item_id: itemId,
      created_at: now,
    });
  } else {
    await notifyModerators(context, appId, {
      type: 'user.flagged',
      user: byId.get(userId),
      target_user: byId.get(row.target_user_id!),
      review_queue_item_id: itemId,
      created_at: now,
    });
  }
  return {
    review_queue_item_id: itemId,
    flag: {
      user: byId.get(userId),
      created_by_automod: false,
      created_at: row.created_at,
      updated_at: row.updated_at,
      ...(row.reason ? { reason: row.reason } : {}),
      custom: JSON.parse(row.custom) as JsonObject,
      ...(row.target_message_id
        ? { target_message_id: row.target_message_id, channel_cid: row.channel_cid }
        : { target_user: byId.get(row.target_user_id!) }),
    },
  };
}

/** Reports a message or a user for moderators to review; nothing is hidden by it. */
export async function flag(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, body.user_id, 'flag');
  const base = flagBase(context, actor, userId, body);
  context.limitFlags(actor.appId, userId);
  let stored: { row: FlagRow; itemId: string };
  if (body.target_message_id !== undefined)
    stored = await flagMessage(context, actor, base, body.target_message_id);
  else if (body.target_user_id !== undefined)
    stored = await flagUser(context, actor, base, body.target_user_id);
  else throw chatError.input('target_message_id or target_user_id is required');
  return flagResponse(context, actor.appId, userId, stored);
}

/** client.moderation.flag (v2): the same flag, named by entity type and id; replies with the queue item's id. */
export async function flagEntity(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const { entity_type: type, entity_id: id, ...rest } = body;
  if (type === 'stream:chat:v1:message')
    body = { ...rest, target_message_id: requiredId(id, 'entity_id') };
  else if (type === 'stream:user') body = { ...rest, target_user_id: requiredId(id, 'entity_id') };
  else throw chatError.input('entity_type must be stream:chat:v1:message or stream:user');
  delete body.entity_creator_id;
  delete body.moderation_payload;
  const answer = await flag(context, actor, body);
  return { item_id: answer.review_queue_item_id };
}

/**
 * client.unflagMessage / unflagUser. Stream made `/moderation/unflag` a no-op that answers success (the client marks
 * it deprecated: moderators clear flags through the review queue), so nothing stored changes; the target must exist.
 */
export async function unflag(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  actingUser(actor, body.user_id, 'unflag');
  if (body.target_message_id !== undefined) {
    const messageId = requiredId(body.target_message_id, 'target_message_id');
    await context.messages.accessMessage(actor, messageId);
  } else if (body.target_user_id !== undefined) {
    await existingUser(context, actor.appId, requiredId(body.target_user_id, 'target_user_id'));
  } else throw chatError.input('target_message_id or target_user_id is required');
  return {};
}
