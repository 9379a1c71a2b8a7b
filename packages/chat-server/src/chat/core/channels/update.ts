import type { Updateable } from 'kysely';
import type { ChannelsTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { assertCustomSize } from '../field-rules.ts';
import { isPlainObject, parseObject, type JsonObject } from '../json.ts';
import type { ChannelAccess, ChannelUseCaseContext } from './context.ts';
import { setPath, unsetPath } from '../messages/dotted-paths.ts';
import {
  channelFields,
  guardChannelFields,
  readCooldown,
  RESERVED_CHANNEL_KEYS,
  type ChannelFields,
} from './fields.ts';
import { cidOf } from './ids.ts';
import {
  applyMemberChanges,
  authorizeMemberChanges,
  publishMemberChanges,
  readMemberChanges,
} from './member-changes.ts';
import type { ChannelRow } from './repo.ts';
import type { ChannelsService } from './service.ts';

type ChannelPatch = Updateable<ChannelsTable>;

/** The channel data a full update sets: its fields and a slow-mode change, each absent when not asked for. */
interface DataChange {
  fields: ChannelFields | undefined;
  cooldown: number | undefined;
}

export function createUpdateChannel(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'update' | 'updatePartial'> {
  const { deps, repo } = ctx;

  /** `channel.updated` with the fresh channel, naming who changed it. */
  async function publishUpdated(actor: Actor, fresh: ChannelRow): Promise<void> {
    ctx.events.toChannel(
      actor.appId,
      fresh.cid,
      ctx.baseEvent('channel.updated', fresh, {
        channel: await ctx.eventChannel(fresh),
        ...(actor.userId ? { user: await ctx.users.response(actor.appId, actor.userId) } : {}),
      }),
    );
  }

  async function respond(actor: Actor, cid: string) {
    return {
      channel: await ctx.requesterChannel(actor, cid),
      members: await ctx.membersResponse(actor.appId, cid),
    };
  }

  return {
    async update(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await ctx.access(actor, cid);
      const now = deps.clock.now();
      const members = readMemberChanges(body);
      const data = body.data;
      if (data !== undefined && data !== null && !isPlainObject(data))
        throw chatError.input('data must be an object');
      if (!actor.isServer && typeof body.user_id === 'string' && body.user_id !== actor.userId)
        throw chatError.notAllowed('cannot act for another user');
      const change = authorizeDataChange(actor, current, data, body.cooldown);
      await authorizeMemberChanges(ctx, actor, current, members);
      const done = await deps.writes.run(async (trx) => {
        const patch = dataPatch(change, now);
        if (patch) await repo.update(trx, actor.appId, cid, patch);
        return applyMemberChanges(ctx, trx, actor, { cid, now }, members);
      });
      const fresh = (await repo.get(actor.appId, cid))!;
      if (change.fields || change.cooldown !== undefined) await publishUpdated(actor, fresh);
      await publishMemberChanges(ctx, actor, fresh, done);
      // Stream's reply carries the system message the update posted.
      const message =
        isPlainObject(body.message) && ctx.hooks.systemMessage
          ? await ctx.hooks.systemMessage(actor, fresh, body.message)
          : undefined;
      return { ...(await respond(actor, cid)), ...(message ? { message } : {}) };
    },

    async updatePartial(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await ctx.access(actor, cid);
      requirePermission(current.permissions, 'update-channel', 'updating the channel');
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      const patch = partialPatch(actor, current, set, unset as string[], deps.clock);
      await deps.writes.run((trx) => repo.update(trx, actor.appId, cid, patch));
      await publishUpdated(actor, (await repo.get(actor.appId, cid))!);
      return respond(actor, cid);
    },
  };
}

/** Checks the data part of a full update against the caller's permissions. */
function authorizeDataChange(
  actor: Actor,
  current: ChannelAccess,
  data: unknown,
  cooldown: unknown,
): DataChange {
  const fields = isPlainObject(data) ? channelFields(data) : undefined;
  const cooldownChange = readCooldown(cooldown);
  if (fields || cooldownChange !== undefined)
    requirePermission(current.permissions, 'update-channel', 'updating the channel');
  if (fields) guardChannelFields(actor, current, fields, 'update');
  // Slow mode is its own permission in Stream (UpdateChannelCooldown), whoever may rename the channel.
  if (cooldownChange !== undefined)
    requirePermission(current.permissions, 'set-channel-cooldown', 'setting slow mode');
  return { fields, cooldown: cooldownChange };
}

/** The row change of a full update's data, which replaces name, image and custom data; undefined when none. */
function dataPatch(change: DataChange, now: string): ChannelPatch | undefined {
  const { fields, cooldown } = change;
  if (!fields && cooldown === undefined) return undefined;
  const patch: ChannelPatch = { updated_at: now };
  if (fields) {
    Object.assign(patch, {
      name: fields.name ?? null,
      name_search: fields.name ? fields.name.toLocaleLowerCase() : null,
      image: fields.image ?? null,
      custom: JSON.stringify(fields.custom),
      ...(fields.frozen !== undefined ? { frozen: fields.frozen ? 1 : 0 } : {}),
      ...(fields.disabled !== undefined ? { disabled: fields.disabled ? 1 : 0 } : {}),
      ...(fields.team !== undefined ? { team: fields.team } : {}),
      ...(fields.cooldown !== undefined ? { cooldown: fields.cooldown } : {}),
      ...(fields.configOverrides !== undefined ? { config_overrides: fields.configOverrides } : {}),
    });
  }
  if (cooldown !== undefined) patch.cooldown = cooldown;
  return patch;
}

/**
 * Merges a partial update's custom `set` and `unset` into `custom`. Dotted keys name nested fields, as in Stream
 * (`set: {'details.topic': 'x'}` keeps the other keys of `details`); one starting at a built-in field is refused.
 */
function mergeCustom(custom: JsonObject, set: JsonObject, unset: readonly string[]): void {
  for (const key of [...Object.keys(set), ...unset]) {
    if (key.includes('.') && RESERVED_CHANNEL_KEYS.has(key.split('.')[0]!))
      throw chatError.input(`${key} is not a custom field`);
  }
  for (const [key, value] of Object.entries(set)) {
    if (key.includes('.')) setPath(custom, key, value);
    else custom[key] = value;
  }
  for (const key of unset) {
    if (key.includes('.')) unsetPath(custom, key);
    else delete custom[key];
  }
}

/** The row change of a partial update (`set` / `unset`), checked; custom data is merged, not replaced. */
function partialPatch(
  actor: Actor,
  current: ChannelAccess,
  set: JsonObject,
  unset: string[],
  clock: { now(): string },
): ChannelPatch {
  const custom = parseObject(current.channel.custom);
  const fields = channelFields(set);
  mergeCustom(custom, fields.custom, unset);
  assertCustomSize(custom, 'channel');
  // Unsetting a moderated field is a change like any other.
  for (const key of unset) {
    if (key === 'frozen') fields.frozen = false;
    if (key === 'disabled') fields.disabled = false;
    if (key === 'cooldown') fields.cooldown = 0;
    if (key === 'team') fields.team = null;
    if (key === 'config_overrides') fields.configOverrides = null;
  }
  guardChannelFields(actor, current, fields, 'partial');
  const patch: ChannelPatch = { custom: JSON.stringify(custom), updated_at: clock.now() };
  if ('name' in set)
    Object.assign(patch, {
      name: fields.name ?? null,
      name_search: fields.name?.toLocaleLowerCase() ?? null,
    });
  if ('image' in set) patch.image = fields.image ?? null;
  if (fields.team !== undefined) patch.team = fields.team;
  if (fields.frozen !== undefined) patch.frozen = fields.frozen ? 1 : 0;
  if (fields.disabled !== undefined) patch.disabled = fields.disabled ? 1 : 0;
  if (fields.cooldown !== undefined) patch.cooldown = fields.cooldown;
  if (fields.configOverrides !== undefined) patch.config_overrides = fields.configOverrides;
  for (const key of unset) {
    if (key === 'name') Object.assign(patch, { name: null, name_search: null });
    if (key === 'image') patch.image = null;
  }
  return patch;
}
