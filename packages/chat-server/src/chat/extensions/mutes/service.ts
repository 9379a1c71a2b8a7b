import { isoFromMicros, MAX_ISO_MS } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import type { JsonObject } from '../../core/json.ts';
import type { OwnUserBuilder, OwnUserResponse } from '../../core/users/me.ts';
import type { UsersService } from '../../core/users/service.ts';
import { userEvent } from '../../core/wire/events.ts';
import type { MutesRepo } from './repo.ts';

export interface MutesService {
  muteUser(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unmuteUser(actor: Actor, body: JsonObject): Promise<JsonObject>;
  muteChannel(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unmuteChannel(actor: Actor, body: JsonObject): Promise<JsonObject>;
}

/**
 * Mutes change client state only through `notification.mutes_updated` / `notification.channel_mutes_updated`
 * carrying the whole `me`, so every change ends with that event to all of the user's connections.
 */
export interface MutesContext {
  deps: ChatDeps;
  repo: MutesRepo;
  users: UsersService;
  channels: ChannelsService;
  events: EventPublisher;
  buildMe: OwnUserBuilder;
}

type MutesEventType = 'notification.mutes_updated' | 'notification.channel_mutes_updated';

export function createMutesService({
  deps,
  repo,
  users,
  channels,
  events,
  buildMe,
}: MutesContext): MutesService {
  function actingUser(actor: Actor, body: JsonObject): string {
    const given = typeof body.user_id === 'string' ? body.user_id : undefined;
    const id = actor.isServer ? (given ?? actor.userId) : actor.userId;
    if (!id) throw chatError.input('user_id is required');
    if (actor.role === 'anonymous') throw chatError.notAllowed('anonymous users cannot mute');
    return id;
  }

  function expiry(amount: unknown, unitMs: number, name: string): string | null {
    if (amount === undefined || amount === null || amount === 0) return null;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0)
      throw chatError.input(`${name} must be a positive number`);
    const until = Date.now() + amount * unitMs;
    if (until > MAX_ISO_MS) throw chatError.input(`${name} ends after the year 9999`);
    return isoFromMicros(until * 1000);
  }

  async function me(appId: string, userId: string): Promise<OwnUserResponse> {
    const row = await users.getRow(appId, userId);
    if (!row) throw chatError.notFound(`user ${userId} does not exist`);
    return buildMe(row);
  }

  async function announce(
    appId: string,
    userId: string,
    type: MutesEventType,
  ): Promise<OwnUserResponse> {
    const own = await me(appId, userId);
    events.toUser(appId, userId, userEvent(type, deps.clock.now(), { me: own }));
    return own;
  }

  function targetsOf(body: JsonObject): string[] {
    const list = Array.isArray(body.target_ids) ? body.target_ids : [body.target_id];
    const ids = list.filter((id): id is string => typeof id === 'string' && id.length > 0);
    if (ids.length === 0) throw chatError.input('target_id is required');
    return ids;
  }

  return {
    async muteUser(actor, body) {
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
      const own = await announce(actor.appId, userId, 'notification.mutes_updated');
      const mute = own.mutes.find((m) => m.target.id === targets[0]);
      return {
        mute,
        mutes: own.mutes,
        own_user: own,
        ...(missing.length ? { non_existing_users: missing } : {}),
      };
    },

    async unmuteUser(actor, body) {
      const userId = actingUser(actor, body);
      for (const target of targetsOf(body)) await repo.unmuteUser(actor.appId, userId, target);
      await announce(actor.appId, userId, 'notification.mutes_updated');
      return {};
    },

    async muteChannel(actor, body) {
      const userId = actingUser(actor, body);
      const cids = Array.isArray(body.channel_cids) ? body.channel_cids : [body.channel_cid];
      const valid = cids.filter(
        (cid): cid is string => typeof cid === 'string' && cid.includes(':'),
      );
      if (valid.length === 0) throw chatError.input('channel_cid is required');
      for (const cid of valid) {
        const access = await channels.access({ ...actor, userId }, cid);
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
      const own = await announce(actor.appId, userId, 'notification.channel_mutes_updated');
      const mutes = own.channel_mutes;
      return {
        channel_mute: mutes.find((m) => m.channel.cid === valid[0]),
        channel_mutes: mutes,
        own_user: own,
      };
    },

    async unmuteChannel(actor, body) {
      const userId = actingUser(actor, body);
      const cids = Array.isArray(body.channel_cids) ? body.channel_cids : [body.channel_cid];
      const valid = cids.filter((cid): cid is string => typeof cid === 'string' && cid.length > 0);
      if (valid.length === 0) throw chatError.input('channel_cid is required');
      for (const cid of valid) await repo.unmuteChannel(actor.appId, userId, cid);
      await announce(actor.appId, userId, 'notification.channel_mutes_updated');
      return {};
    },
  };
}
