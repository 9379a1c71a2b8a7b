import type { Insertable } from 'kysely';
import type { ChannelsTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { permissionsFor, requirePermission, type Actor } from '../access/access.ts';
import type { ChannelType } from '../channel-types.ts';
import { isPlainObject, type JsonObject, type JsonText } from '../json.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { channelFields, namedCreator, type ChannelFields } from './fields.ts';
import { assertChannelId, distinctId, existingChannelType } from './ids.ts';
import { publishMembersAdded } from './member-events.ts';
import {
  grantsRole,
  readMemberInputs,
  requireServerForRoles,
  type MemberInput,
} from './member-rules.ts';
import { addMembersTx, ensureUsersExist } from './member-writes.ts';
import { stateOptions } from './query-channels.ts';
import type { ChannelRow, MemberRow } from './repo.ts';
import type { ChannelsService } from './service.ts';
import type { ChannelStateResponse } from './state.ts';
import { followPresence, watch } from './watchers.ts';

/** A channel about to be created: where, what, with whom. */
interface NewChannel {
  type: ChannelType;
  cid: string;
  id: string;
  data: JsonObject;
  inputs: MemberInput[];
  /** `data.invites`: members added with a pending invitation (Stream's channel_invites). */
  invites: MemberInput[];
  distinctKey: string | null;
}

export function createGetOrCreate(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'getOrCreate' | 'queryAnswer'> {
  const { deps, repo } = ctx;
  async function queryState(
    actor: Actor,
    typeName: string,
    requestedId: string | undefined,
    body: JsonObject,
    shareable: boolean,
  ): Promise<ChannelStateResponse | JsonText> {
    const type = existingChannelType(deps.channelTypes, actor.appId, typeName);
    const data = body.data === undefined ? {} : body.data;
    if (!isPlainObject(data)) throw chatError.input('data must be an object');
    const inputs = readMemberInputs(data.members, 'data.members');
    const invites = readMemberInputs(data.invites, 'data.invites');
    const { id, distinctKey } =
      requestedId === undefined
        ? await resolveDistinct(ctx, actor, type, inputs)
        : { id: requestedId, distinctKey: null };
    assertChannelId(id);
    const cid = `${type.name}:${id}`;
    let channel = await repo.get(actor.appId, cid);
    if (channel?.deleted_at) channel = await recreate(ctx, actor, channel, inputs);
    if (!channel) {
      await createChannel(ctx, actor, { type, cid, id, data, inputs, invites, distinctKey });
      channel = (await repo.get(actor.appId, cid))!;
    }
    const current = await ctx.accessRow(actor, channel);
    requirePermission(current.permissions, 'read-channel', `reading channel ${cid}`);
    if (body.watch === true) await watch(ctx, actor, [channel]);
    const options = stateOptions(body);
    const known = { membership: current.membership, standing: current.standing };
    // `presence: true` follows the members, which the shared text does not list apart.
    if (shareable && body.presence !== true) {
      const answer = await ctx.buildStates.answer(actor, channel, options, known);
      if (answer) return answer;
    }
    const [state] = await ctx.buildStates(actor, [channel], options, known);
    if (body.presence === true)
      await followPresence(
        ctx,
        actor,
        state!.members.map((m) => m.user_id),
      );
    return state!;
  }

  return {
    getOrCreate: (actor, typeName, id, body) =>
      queryState(actor, typeName, id, body, false) as Promise<ChannelStateResponse>,
    queryAnswer: (actor, typeName, id, body) => queryState(actor, typeName, id, body, true),
  };
}

/**
 * A channel named by its members only: the distinct conversation between them (the caller included), existing or
 * to be created. Adds the caller to `inputs` when they did not list themselves.
 */
async function resolveDistinct(
  ctx: Pick<ChannelUseCaseContext, 'repo'>,
  actor: Actor,
  type: ChannelType,
  inputs: MemberInput[],
): Promise<{ id: string; distinctKey: string }> {
  if (inputs.length === 0)
    throw chatError.input('When channel id is not provided, members must be specified');
  const members = inputs.map((m) => m.user_id);
  if (actor.userId && !actor.isServer && !members.includes(actor.userId))
    members.push(actor.userId);
  const distinct = distinctId(members);
  const existing = await ctx.repo.byDistinctKey(actor.appId, type.name, distinct.key);
  if (!members.every((m) => inputs.some((i) => i.user_id === m)))
    inputs.push({ user_id: actor.userId! });
  return { id: existing?.id ?? distinct.id, distinctKey: distinct.key };
}

/**
 * Get-or-create on a softly deleted channel. One deleted with its history (truncated when it was deleted, the
 * default) is created afresh, as in Stream. One deleted with `skip_truncate` comes back with its messages, and the
 * members the request names are members again; only the server or one of its members may bring it back, so nobody
 * else reads, or wipes, the history it kept.
 */
async function recreate(
  ctx: ChannelUseCaseContext,
  actor: Actor,
  channel: ChannelRow,
  inputs: MemberInput[],
): Promise<ChannelRow | undefined> {
  const { deps, repo } = ctx;
  const { cid } = channel;
  if (channel.truncated_at !== null && channel.truncated_at === channel.deleted_at) {
    await deps.writes.run((trx) => repo.remove(trx, actor.appId, cid));
    return undefined;
  }
  if (!actor.isServer) {
    const named = inputs.map((m) => m.user_id);
    const members = await repo.membersAmong(actor.appId, cid, [...named, actor.userId ?? '']);
    if (!actor.userId || !members.has(actor.userId))
      throw chatError.notAllowed(`channel ${cid} was deleted; only its members can bring it back`);
    // A member brings back what was there: adding people or giving roles stays what it always is.
    if (grantsRole(inputs)) requireServerForRoles(actor, 'giving channel roles');
    const newcomer = named.find((userId) => !members.has(userId));
    if (newcomer !== undefined)
      throw chatError.notAllowed(
        `${newcomer} was not a member of ${cid}; add them once it is back`,
      );
  }
  await ensureUsersExist(
    ctx,
    actor.appId,
    inputs.map((m) => m.user_id),
  );
  const now = deps.clock.now();
  await deps.writes.run(async (trx) => {
    await repo.update(trx, actor.appId, cid, { deleted_at: null, updated_at: now });
    await addMembersTx(ctx, trx, { appId: actor.appId, cid, now }, inputs);
  });
  return repo.get(actor.appId, cid);
}

async function createChannel(
  ctx: ChannelUseCaseContext,
  actor: Actor,
  target: NewChannel,
): Promise<void> {
  const { deps, repo } = ctx;
  const { cid, data } = target;
  const fields = channelFields(data);
  if (!actor.isServer) authorizeClientCreate(actor, target, fields);
  const creator = actor.userId ?? namedCreator(data);
  if (!creator)
    throw chatError.input(
      'either data.created_by or data.created_by_id must be provided when using server side auth',
    );
  // Someone listed both as a member and as an invitee is a member.
  const invites = target.invites.filter((i) => !target.inputs.some((m) => m.user_id === i.user_id));
  await ensureUsersExist(ctx, actor.appId, [
    creator,
    ...[...target.inputs, ...invites].map((m) => m.user_id),
  ]);
  // The creator, when a member, owns the channel (channel moderator rights), as in Stream.
  const inputs = target.inputs.map((m) =>
    m.user_id === creator && !m.channel_role ? { ...m, channel_role: 'owner' } : m,
  );
  const now = deps.clock.now();
  let added: MemberRow[];
  try {
    added = await deps.writes.run(async (trx) => {
      await repo.insert(trx, newChannelRow(actor.appId, target, fields, creator, now));
      const where = { appId: actor.appId, cid, now };
      const members = await addMembersTx(ctx, trx, where, inputs);
      return [...members, ...(await addMembersTx(ctx, trx, where, invites, { invited: true }))];
    });
  } catch (error) {
    // Lost a creation race: the channel exists now, which is what the caller wanted.
    if (await repo.get(actor.appId, cid)) return;
    throw error;
  }
  const channel = (await repo.get(actor.appId, cid))!;
  ctx.events.toChannel(
    actor.appId,
    cid,
    ctx.baseEvent('channel.created', channel, { channel: await ctx.eventChannel(channel) }),
  );
  await publishMembersAdded(ctx, actor, cid, added);
}

/**
 * What a client may not do when creating: create without the permission, give roles, create in someone else's
 * name, set a team or a disabled flag; a guest may open a channel for itself, never one that reaches other users
 * (anyone can become a guest).
 */
function authorizeClientCreate(actor: Actor, target: NewChannel, fields: ChannelFields): void {
  const { type, data, inputs, invites } = target;
  const permissions = permissionsFor(type, actor, null);
  requirePermission(permissions, 'create-channel', `creating a ${type.name} channel`);
  if (grantsRole([...inputs, ...invites])) requireServerForRoles(actor, 'giving channel roles');
  const creator = namedCreator(data);
  if (creator !== null && creator !== actor.userId)
    throw chatError.notAllowed('a channel can only be created in your own name');
  if (fields.team) throw chatError.notAllowed('a channel team can only be set server-side');
  if (fields.disabled)
    throw chatError.notAllowed('disabling a channel is only allowed server-side');
  if (fields.configOverrides !== undefined)
    throw chatError.notAllowed('channel-level settings can only be set server-side');
  if (actor.role === 'guest' && [...inputs, ...invites].some((m) => m.user_id !== actor.userId))
    throw chatError.notAllowed('a guest can only create a channel whose only member is itself');
}

function newChannelRow(
  appId: string,
  target: NewChannel,
  fields: ChannelFields,
  creator: string,
  now: string,
): Insertable<ChannelsTable> {
  return {
    app_id: appId,
    cid: target.cid,
    type: target.type.name,
    id: target.id,
    created_by_id: creator,
    name: fields.name ?? null,
    name_search: fields.name ? fields.name.toLocaleLowerCase() : null,
    image: fields.image ?? null,
    custom: JSON.stringify(fields.custom),
    team: fields.team ?? null,
    frozen: fields.frozen ? 1 : 0,
    disabled: fields.disabled ? 1 : 0,
    cooldown: fields.cooldown ?? 0,
    config_overrides: fields.configOverrides ?? null,
    member_count: 0,
    distinct_key: target.distinctKey,
    created_at: now,
    updated_at: now,
  };
}
