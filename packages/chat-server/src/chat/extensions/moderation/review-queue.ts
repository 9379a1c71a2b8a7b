import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Database } from '../../../db/schema.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import { requireModerator } from './moderator.ts';
import {
  ENTITY_MESSAGE,
  ENTITY_USER,
  type QueueFilter,
  type QueueFlagRow,
  type ReviewItemRow,
} from './review-repo.ts';
import type { ModerationContext } from './service.ts';

const MAX_PAGE = 100;

/** The queue item of a flagged message or user, opened (or reopened) in the flag's transaction. */
export function openItemFor(
  context: ModerationContext,
  trx: Transaction<Database>,
  flag: Pick<QueueFlagRow, 'app_id' | 'target_message_id' | 'target_user_id' | 'channel_cid'>,
  creatorId: string,
): Promise<ReviewItemRow> {
  const now = context.deps.clock.now();
  const isMessage = flag.target_message_id !== null;
  return context.review.openItem(trx, {
    id: randomUUID(),
    app_id: flag.app_id,
    entity_type: isMessage ? ENTITY_MESSAGE : ENTITY_USER,
    entity_id: (isMessage ? flag.target_message_id : flag.target_user_id)!,
    entity_creator_id: creatorId,
    channel_cid: flag.channel_cid,
    status: 'pending',
    latest_moderator_action: '',
    reviewed_by: null,
    reviewed_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** `message.flagged` / `user.flagged` go to the app's moderators and admins only, never to ordinary users. */
export async function notifyModerators(
  context: ModerationContext,
  appId: string,
  event: JsonObject,
): Promise<void> {
  const ids = await context.review.moderatorIds(appId);
  if (ids.length > 0) context.events.toUsers(appId, ids, event);
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list =
    typeof value === 'object' && !Array.isArray(value)
      ? ((value as JsonObject).$in ?? (value as JsonObject).$eq)
      : value;
  const items = Array.isArray(list) ? list : [list];
  if (items.length === 0 || items.length > MAX_PAGE || !items.every((v) => typeof v === 'string'))
    throw chatError.input(
      `filter.${field} must be a string, or {$eq | $in} of at most ${MAX_PAGE} strings`,
    );
  return items as string[];
}

const QUEUE_FILTERS: Record<string, keyof QueueFilter> = {
  id: 'ids',
  entity_type: 'entityTypes',
  entity_id: 'entityIds',
  entity_creator_id: 'creatorIds',
  status: 'statuses',
  channel_cid: 'channelCids',
};

function queueFilter(filter: JsonObject): QueueFilter {
  const result: QueueFilter = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'reviewed') {
      if (typeof value !== 'boolean') throw chatError.input('filter.reviewed must be a boolean');
      result.reviewed = value;
      continue;
    }
    const field = QUEUE_FILTERS[key];
    if (!field) throw chatError.input(`filter.${key} is not supported by the review queue`);
    (result as Record<string, unknown>)[field] = stringList(value, key);
  }
  return result;
}

export function page(body: JsonObject): { limit: number; offset: number } {
  const limit = body.limit ?? 25;
  const offset = body.offset ?? body.next ?? 0;
  const asNumber = typeof offset === 'string' && /^\d{1,9}$/.test(offset) ? Number(offset) : offset;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw chatError.input(`limit must be a whole number from 1 to ${MAX_PAGE}`);
  if (
    typeof asNumber !== 'number' ||
    !Number.isInteger(asNumber) ||
    asNumber < 0 ||
    asNumber > 10_000
  )
    throw chatError.input('offset must be a whole number from 0 to 10000');
  return { limit, offset: asNumber };
}

function descending(sort: unknown): boolean {
  const first = Array.isArray(sort) ? (sort[0] as JsonObject | undefined) : undefined;
  if (!first) return true;
  if (first.field !== undefined && first.field !== 'created_at')
    throw chatError.input('sort may only be by created_at');
  return first.direction !== 1;
}

/** client.moderation.queryReviewQueue: items grouped per flagged entity, newest first, with flags and actions. */
export async function queryReviewQueue(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  requireModerator(actor, 'read the review queue');
  const filter = queueFilter((body.filter as JsonObject | undefined) ?? {});
  const { limit, offset } = page(body);
  const rows = await context.review.items(actor.appId, filter, {
    limit,
    offset,
    desc: descending(body.sort),
  });
  const items = await itemResponses(context, actor.appId, rows);
  return {
    items,
    ...(rows.length === limit ? { next: String(offset + limit) } : {}),
    ...(offset > 0 ? { prev: String(Math.max(0, offset - limit)) } : {}),
  };
}

/**
 * The flagged messages as a moderator must see them: soft-deleted ones with their text, and shadowed ones marked
 * `shadowed` (everyone else is served them as sent, or not at all), so nothing hides from review.
 */
async function messagesOf(
  context: ModerationContext,
  appId: string,
  rows: ReviewItemRow[],
): Promise<Map<string, MessageResponse>> {
  const ids = rows.filter((row) => row.entity_type === ENTITY_MESSAGE).map((row) => row.entity_id);
  const shadowed = await context.review.shadowedMessages(appId, ids);
  const found = new Map<string, MessageResponse>();
  for (const id of ids) {
    // A hard-deleted message is gone; its item and flags stay for the record.
    const message = await context.messages.eventMessage(appId, id).catch(() => undefined);
    if (message) found.set(id, shadowed.has(id) ? { ...message, shadowed: true } : message);
  }
  return found;
}

export async function itemResponses(
  context: ModerationContext,
  appId: string,
  rows: ReviewItemRow[],
): Promise<JsonObject[]> {
  const targets = rows.map(
    (row) => `${row.entity_type === ENTITY_MESSAGE ? 'message' : 'user'}:${row.entity_id}`,
  );
  const [flags, actions, messages] = await Promise.all([
    context.review.flagsOn(appId, targets),
    context.review.actions(rows.map((row) => row.id)),
    messagesOf(context, appId, rows),
  ]);
  const userIds = new Set<string>();
  for (const row of rows) userIds.add(row.entity_creator_id);
  for (const flag of flags) userIds.add(flag.user_id);
  for (const action of actions) if (action.user_id) userIds.add(action.user_id);
  const users = await context.users.responses(appId, userIds);
  return rows.map((row, index) => {
    const flagsOfItem = flags.filter((flag) => flag.target === targets[index]);
    const message = messages.get(row.entity_id);
    return {
      id: row.id,
      entity_type: row.entity_type,
      entity_id: row.entity_id,
      entity_creator_id: row.entity_creator_id,
      entity_creator: users.get(row.entity_creator_id) ?? null,
      ...(row.channel_cid ? { channel_cid: row.channel_cid } : {}),
      status: row.status,
      reviewed_at: row.reviewed_at,
      reviewed_by: row.reviewed_by,
      latest_moderator_action: row.latest_moderator_action,
      created_at: row.created_at,
      updated_at: row.updated_at,
      flags_count: flagsOfItem.length,
      reasons: [...new Set(flagsOfItem.map((flag) => flag.reason).filter(Boolean))],
      flags: flagsOfItem.map((flag) => ({
        entity_type: row.entity_type,
        entity_id: row.entity_id,
        entity_creator_id: row.entity_creator_id,
        review_queue_item_id: row.id,
        reason: flag.reason,
        custom: JSON.parse(flag.custom) as JsonObject,
        created_by_automod: flag.created_by_automod === 1,
        user: users.get(flag.user_id) ?? null,
        created_at: flag.created_at,
        updated_at: flag.updated_at,
      })),
      actions: actions
        .filter((action) => action.item_id === row.id)
        .map((action) => ({
          id: action.id,
          type: action.action_type,
          user_id: action.user_id,
          user: users.get(action.user_id) ?? null,
          reason: action.reason,
          custom: JSON.parse(action.options) as JsonObject,
          created_at: action.created_at,
        })),
      ...(message
        ? { message, moderation_payload: { texts: message.text ? [message.text] : [] } }
        : {}),
      has_text: Boolean(message?.text),
      has_image: false,
      has_video: false,
    };
  });
}
