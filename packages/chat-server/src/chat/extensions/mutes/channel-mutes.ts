import { requireFeature } from '../../core/channel-types/features.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import { announce } from './announce.ts';
import { actingUser, expiry, requestedCids } from './input.ts';
import type { MutesContext } from './service.ts';

export async function muteChannel(
  context: MutesContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const { deps, repo, channels } = context;
  const userId = actingUser(actor, body);
  const valid = requestedCids(body).filter(
    (cid): cid is string => typeof cid === 'string' && cid.includes(':'),
  );
  if (valid.length === 0) throw chatError.input('channel_cid is required');
  for (const cid of valid) {
    const access = await channels.access({ ...actor, userId }, cid);
    requireFeature(access.type, 'mutes');
    if (!actor.isServer && !access.permissions.has('mute-channel'))
      throw chatError.notAllowed('muting this channel is not allowed');
  }
  const now = deps.clock.now();
  const expires = expiry(body.expiration, 1, 'expiration');
  for (const cid of valid)
    await repo.muteChannel({
      app_id: actor.appId,
      user_id: userId,
      cid,
      created_at: now,
      updated_at: now,
      expires,
    });
  const own = await announce(context, actor.appId, userId, 'notification.channel_mutes_updated');
  const mutes = own.channel_mutes;
  return {
    channel_mute: mutes.find((m) => m.channel.cid === valid[0]),
    channel_mutes: mutes,
    own_user: own,
  };
}

export async function unmuteChannel(
  context: MutesContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, body);
  const valid = requestedCids(body).filter(
    (cid): cid is string => typeof cid === 'string' && cid.length > 0,
  );
  if (valid.length === 0) throw chatError.input('channel_cid is required');
  for (const cid of valid) await context.repo.unmuteChannel(actor.appId, userId, cid);
  await announce(context, actor.appId, userId, 'notification.channel_mutes_updated');
  return {};
}
