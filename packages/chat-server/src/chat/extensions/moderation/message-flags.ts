import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import { requireModerator } from './moderator.ts';
import { page } from './review-queue.ts';
import type { ModerationContext } from './service.ts';

function ids(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list =
    typeof value === 'object' && !Array.isArray(value)
      ? ((value as JsonObject).$in ?? (value as JsonObject).$eq)
      : value;
  const items = Array.isArray(list) ? list : [list];
  if (items.length === 0 || items.length > 100 || !items.every((v) => typeof v === 'string' && v))
    throw chatError.input(`filter_conditions.${field} must be an id or {$in: [ids]}`);
  return items as string[];
}

function flagsFilter(conditions: JsonObject) {
  for (const key of Object.keys(conditions))
    if (!['channel_cid', 'user_id', 'is_reviewed', 'team'].includes(key))
      throw chatError.input(`filter_conditions.${key} is not supported`);
  const reviewed = conditions.is_reviewed;
  if (reviewed !== undefined && typeof reviewed !== 'boolean')
    throw chatError.input('filter_conditions.is_reviewed must be a boolean');
  return {
    channelCids: ids(conditions.channel_cid, 'channel_cid'),
    userIds: ids(conditions.user_id, 'user_id'),
    ...(reviewed !== undefined ? { reviewed } : {}),
  };
}

/** client.queryMessageFlags: message flags, newest first, each with its message, reporter and review state. */
export async function queryMessageFlags(
  context: ModerationContext,
  actor: Actor,
  payload: JsonObject,
): Promise<JsonObject> {
  requireModerator(actor, 'query message flags');
  const conditions = payload.filter_conditions ?? {};
  if (typeof conditions !== 'object' || conditions === null || Array.isArray(conditions))
    throw chatError.input('filter_conditions must be an object');
  const filter = flagsFilter(conditions as JsonObject);
  const rows = await context.review.messageFlags(actor.appId, filter, page(payload));
  const userIds = new Set(rows.flatMap((row) => [row.user_id, row.reviewed_by ?? row.user_id]));
  const users = await context.users.responses(actor.appId, userIds);
  const messages = new Map<string, MessageResponse | undefined>();
  for (const row of rows) {
    const id = row.target_message_id!;
    if (!messages.has(id))
      messages.set(id, await context.messages.eventMessage(actor.appId, id).catch(() => undefined));
  }
  return {
    flags: rows.map((row) => ({
      message: messages.get(row.target_message_id!) ?? { id: row.target_message_id },
      user: users.get(row.user_id) ?? { id: row.user_id },
      created_by_automod: row.created_by_automod === 1,
      ...(row.reason ? { reason: row.reason } : {}),
      ...(row.reviewed_at ? { reviewed_at: row.reviewed_at } : {}),
      ...(row.reviewed_by
        ? { reviewed_by: users.get(row.reviewed_by) ?? { id: row.reviewed_by } }
        : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    })),
  };
}
