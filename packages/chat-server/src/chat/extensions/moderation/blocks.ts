import type { BlockedUserDetails, BlockUserAPIResponse } from 'stream-chat';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import { channelEvent } from '../../core/wire/events.ts';
import { sharedConversations } from './blocks-rules.ts';
import { actingUser, existingUser, requiredId } from './checks.ts';
import type { ModerationContext } from './service.ts';

export async function block(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const { deps, repo } = context;
  const userId = actingUser(actor, body.user_id, 'block users');
  const blockedId = requiredId(body.blocked_user_id, 'blocked_user_id');
  if (blockedId === userId) throw chatError.input('you cannot block yourself');
  await existingUser(context, actor.appId, blockedId);
  const row = await deps.writes.run((trx) =>
    repo.block(trx, {
      app_id: actor.appId,
      user_id: userId,
      blocked_user_id: blockedId,
      created_at: deps.clock.now(),
    }),
  );
  await announceVisibility(context, actor.appId, userId, blockedId, 'channel.hidden');
  return {
    blocked_at: row.created_at,
    blocked_by_user_id: userId,
    blocked_user_id: blockedId,
  } satisfies Omit<BlockUserAPIResponse, 'duration'>;
}

export async function unblock(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const { deps, repo } = context;
  const userId = actingUser(actor, body.user_id, 'unblock users');
  const blockedId = requiredId(body.blocked_user_id, 'blocked_user_id');
  await deps.writes.run((trx) => repo.unblock(trx, actor.appId, userId, blockedId));
  await announceVisibility(context, actor.appId, userId, blockedId, 'channel.visible');
  return {};
}

/**
 * Tells the blocker's connections that their one-to-one conversations with the other user left (or came back to)
 * their channel list: the client reads `channel.blocked` from these events and the React channel list drops or
 * re-adds the channel.
 */
async function announceVisibility(
  { deps, users, events }: ModerationContext,
  appId: string,
  userId: string,
  otherId: string,
  type: 'channel.hidden' | 'channel.visible',
): Promise<void> {
  const channels = await sharedConversations(deps.db, appId, userId, otherId);
  if (channels.length === 0) return;
  const user = await users.response(appId, userId);
  const now = deps.clock.now();
  const blocked = type === 'channel.hidden';
  for (const channel of channels) {
    const channelRef = { cid: channel.cid, id: channel.id, type: channel.type, blocked };
    events.toUser(appId, userId, channelEvent(type, channel, now, { channel: channelRef, user }));
  }
}

export async function blocks(
  { repo, users }: ModerationContext,
  actor: Actor,
  query: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, query.user_id, 'list blocked users');
  const rows = await repo.blocks(actor.appId, userId);
  const byId = await users.responses(actor.appId, [userId, ...rows.map((r) => r.blocked_user_id)]);
  return {
    // responses() answers every id asked for (a placeholder for a deleted user).
    blocks: rows.map(
      (row) =>
        ({
          user_id: userId,
          user: byId.get(userId)!,
          blocked_user_id: row.blocked_user_id,
          blocked_user: byId.get(row.blocked_user_id)!,
          created_at: row.created_at,
        }) satisfies Omit<BlockedUserDetails, 'duration'>,
    ),
  };
}

export async function blockedUserIds(
  { repo }: ModerationContext,
  appId: string,
  userId: string,
): Promise<string[]> {
  return (await repo.blocks(appId, userId)).map((row) => row.blocked_user_id);
}
