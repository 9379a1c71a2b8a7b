import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import { announce } from './announce.ts';
import { actingUser, expiry, targetsOf } from './input.ts';
import type { MutesContext } from './service.ts';

export async function muteUser(
  context: MutesContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const { deps, repo, users } = context;
  const userId = actingUser(actor, body);
  const targets = targetsOf(body);
  if (targets.includes(userId)) throw chatError.input('you cannot mute yourself');
  const found = await users.repo.getMany(actor.appId, targets);
  const missing = targets.filter((id) => !found.has(id));
  if (missing.length === targets.length)
    throw chatError.notFound(`user ${missing.join(', ')} does not exist`);
  const now = deps.clock.now();
  const expires = expiry(body.timeout, 60_000, 'timeout');
  for (const target of targets.filter((id) => found.has(id))) {
    await repo.muteUser({
      app_id: actor.appId,
      user_id: userId,
      target_id: target,
      created_at: now,
      updated_at: now,
      expires,
    });
  }
  const own = await announce(context, actor.appId, userId, 'notification.mutes_updated');
  const mute = own.mutes.find((m) => m.target.id === targets[0]);
  return {
    mute,
    mutes: own.mutes,
    own_user: own,
    ...(missing.length ? { non_existing_users: missing } : {}),
  };
}

export async function unmuteUser(
  context: MutesContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, body);
  for (const target of targetsOf(body)) await context.repo.unmuteUser(actor.appId, userId, target);
  await announce(context, actor.appId, userId, 'notification.mutes_updated');
  return {};
}
