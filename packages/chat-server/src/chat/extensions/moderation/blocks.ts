import type { BlockedUserDetails, BlockUserAPIResponse } from 'stream-chat';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
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
  return {
    blocked_at: row.created_at,
    blocked_by_user_id: userId,
    blocked_user_id: blockedId,
  } satisfies Omit<BlockUserAPIResponse, 'duration'>;
}

export async function unblock(
  { deps, repo }: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, body.user_id, 'unblock users');
  const blockedId = requiredId(body.blocked_user_id, 'blocked_user_id');
  await deps.writes.run((trx) => repo.unblock(trx, actor.appId, userId, blockedId));
  return {};
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
