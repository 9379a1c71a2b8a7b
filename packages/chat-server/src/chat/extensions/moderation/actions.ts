import { randomUUID } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import { actingModerator, requireModerator } from './moderator.ts';
import { itemResponses } from './review-queue.ts';
import { ENTITY_MESSAGE, type ReviewItemRow } from './review-repo.ts';
import type { ModerationContext } from './service.ts';

const MAX_REASON_LENGTH = 500;
/** Stream's ban timeout is in minutes; a year is the longest we take. */
const MAX_TIMEOUT_MINUTES = 525_600;

/** What one action does besides being logged (its options are checked before anything is done). */
type ActionRun = (
  context: ModerationContext,
  actor: Actor,
  item: ReviewItemRow,
  options: JsonObject,
) => Promise<void>;

/** Actions that only record a decision name it `decision_reason`; those that act name it `reason`. */
const DECISIONS = new Set(['mark_reviewed', 'unban', 'restore', 'unblock']);

function optionsOf(body: JsonObject, key: string): JsonObject {
  const value = body[key] ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw chatError.input(`${key} must be an object`);
  return value as JsonObject;
}

function reasonOf(options: JsonObject, key = 'reason'): string {
  const reason = options[key] ?? options.decision_reason ?? '';
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)
    throw chatError.input(`${key} must be text of at most ${MAX_REASON_LENGTH} characters`);
  return reason;
}

function messageOnly(item: ReviewItemRow, action: string): string {
  if (item.entity_type !== ENTITY_MESSAGE)
    throw chatError.input(`${action} applies to message items only`);
  return item.entity_id;
}

/** The user a ban acts on: the one named in the options, else the flagged entity's author (or the flagged user). */
function banTarget(item: ReviewItemRow, options: JsonObject): string {
  const named = options.target_user_id;
  if (named !== undefined && (typeof named !== 'string' || named === ''))
    throw chatError.input('ban.target_user_id must be a user id');
  return (named as string | undefined) ?? item.entity_creator_id;
}

function timeoutOf(options: JsonObject): number | undefined {
  const timeout = options.timeout;
  if (timeout === undefined || timeout === null) return undefined;
  if (
    typeof timeout !== 'number' ||
    !Number.isInteger(timeout) ||
    timeout < 1 ||
    timeout > MAX_TIMEOUT_MINUTES
  )
    throw chatError.input(`ban.timeout must be whole minutes from 1 to ${MAX_TIMEOUT_MINUTES}`);
  return timeout;
}

const ACTIONS: Record<string, ActionRun> = {
  mark_reviewed: async () => undefined,
  async delete_message(context, actor, item, options) {
    const messageId = messageOnly(item, 'delete_message');
    const hard = options.hard_delete === true;
    await context.messages.remove(actor, messageId, { hard, deleteForMe: false });
  },
  async ban(context, actor, item, options) {
    const channelOnly = options.channel_ban_only === true;
    const channelCid = channelOnly
      ? ((options.channel_cid as string | undefined) ?? item.channel_cid)
      : undefined;
    if (channelOnly && !channelCid) throw chatError.input('ban.channel_ban_only needs a channel');
    const reason = reasonOf(options);
    await context.bans.ban({
      appId: actor.appId,
      targetId: banTarget(item, options),
      actor,
      ...(channelCid ? { channelCid } : {}),
      ...(reason ? { reason } : {}),
      ...(timeoutOf(options) ? { timeoutMinutes: timeoutOf(options) } : {}),
      shadow: options.shadow === true,
      ipBan: options.ip_ban === true,
    });
  },
  async shadow_block(context, actor, item, options) {
    const reason = reasonOf(options);
    await context.bans.ban({
      appId: actor.appId,
      targetId: item.entity_creator_id,
      actor,
      shadow: true,
      ...(reason ? { reason } : {}),
    });
  },
  async unban(context, actor, item, options) {
    const channelCid = options.channel_cid;
    if (channelCid !== undefined && typeof channelCid !== 'string')
      throw chatError.input('unban.channel_cid must be a channel cid');
    await context.bans.unban({
      appId: actor.appId,
      targetId: item.entity_creator_id,
      actor,
      ...(channelCid ? { channelCid } : {}),
    });
  },
  async restore(context, actor, item) {
    const messageId = messageOnly(item, 'restore');
    const { message } = await context.messages.get(actor, messageId);
    if (message.deleted_at)
      throw chatError.input('restoring a deleted message is not supported on this server');
  },
  // A blocked message is refused before it is stored, so there is nothing to let through later: unblock records
  // the moderator's decision on the item.
  unblock: async () => undefined,
};

/** client.moderation.submitAction: acts on a queue item, logs the action, and marks the item reviewed. */
export async function submitAction(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  requireModerator(actor, 'act on the review queue');
  const type = body.action_type;
  if (typeof type !== 'string' || !Object.hasOwn(ACTIONS, type))
    throw chatError.input(`action_type must be one of ${Object.keys(ACTIONS).join(', ')}`);
  if (typeof body.item_id !== 'string' || body.item_id === '')
    throw chatError.input('item_id is required');
  const options = optionsOf(body, type);
  const item = await context.review.item(actor.appId, body.item_id);
  if (!item) throw chatError.notFound(`review queue item ${body.item_id} does not exist`);
  const reason = reasonOf(options, DECISIONS.has(type) ? 'decision_reason' : 'reason');
  await ACTIONS[type]!(context, actor, item, options);
  const now = context.deps.clock.now();
  const moderator = actingModerator(actor, body.user_id);
  await context.deps.writes.run(async (trx) => {
    await context.review.logAction(trx, {
      id: randomUUID(),
      app_id: actor.appId,
      item_id: item.id,
      user_id: moderator,
      action_type: type,
      reason,
      options: JSON.stringify(options),
      created_at: now,
    });
    await context.review.updateItem(trx, item.id, {
      status: 'reviewed',
      latest_moderator_action: type,
      reviewed_at: now,
      reviewed_by: moderator || null,
      updated_at: now,
    });
  });
  const updated = (await context.review.item(actor.appId, item.id))!;
  const [response] = await itemResponses(context, actor.appId, [updated]);
  return { item: response };
}
