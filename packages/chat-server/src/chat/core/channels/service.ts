import { channelEvent, type ServerEventType } from '../wire/events.ts';
import { createHash } from 'node:crypto';
import type { Insertable, Transaction } from 'kysely';
import { normalizeIso } from '../../../db/clock.ts';
import type { Database, MembersTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Connection } from '../../../realtime/connection.ts';
import {
  ownCapabilities,
  permissionsFor,
  requirePermission,
  type Actor,
} from '../access/access.ts';
import {
  MAX_MEMBERS_PER_REQUEST,
  assertCustomSize,
  readImageUrl,
  readLabel,
} from '../field-rules.ts';
import { channelTypeByName, type ChannelType, type Permission } from '../channel-types.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { isPlainObject, parseObject, pickCustom, type JsonObject } from '../json.ts';
import { parseMessagePage } from '../messages/pagination.ts';
import type { ReadsRepo } from '../reads/repo.ts';
import type { UsersService } from '../users/service.ts';
import type { ChannelRow, ChannelsRepo, MemberRow } from './repo.ts';
import {
  toChannelResponse,
  toMemberResponse,
  type ChannelResponse,
  type MemberResponse,
} from './serialize.ts';
import { createWatchingEvents } from './watching-events.ts';
import {
  compileChannelFilter,
  compileChannelSort,
  compileMemberFilter,
  compileMemberSort,
} from './query.ts';
import type { ChannelStateResponse, StateBuilder, StateOptions } from './state.ts';

export const CHANNEL_TYPE_PATTERN = /^[a-z0-9_-]{1,64}$/;
export const CHANNEL_ID_PATTERN = /^[a-zA-Z0-9_!-]{1,64}$/;

/** Keys of channel data that are not custom. */
const RESERVED = new Set([
  'id',
  'type',
  'cid',
  'name',
  'image',
  'team',
  'members',
  'created_by',
  'created_by_id',
  'created_at',
  'updated_at',
  'deleted_at',
  'last_message_at',
  'truncated_at',
  'frozen',
  'disabled',
  'cooldown',
  'member_count',
  'config',
  'own_capabilities',
  'hidden',
  'blocked',
  'muted',
  'truncated_by',
  'truncated_by_id',
  'filter_tags',
  'auto_translation_enabled',
  'auto_translation_language',
  'messages',
  'watcher_count',
  'watchers',
  'read',
  'membership',
]);

export interface ChannelAccess {
  channel: ChannelRow;
  type: ChannelType;
  membership: MemberRow | undefined;
  permissions: Set<Permission>;
}

export function assertChannelType(name: unknown): ChannelType {
  if (typeof name !== 'string' || !CHANNEL_TYPE_PATTERN.test(name)) {
    throw chatError.input(
      'channel type may only contain lower-case letters, numbers, "_" and "-" (max 64)',
    );
  }
  const type = channelTypeByName(name);
  if (!type) throw chatError.input(`channel type "${name}" does not exist`);
  return type;
}

export function assertChannelId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !CHANNEL_ID_PATTERN.test(id)) {
    throw chatError.input(
      'channel id may only contain letters, numbers, "_", "-" and "!" (max 64)',
    );
  }
}

interface MemberInput {
  user_id: string;
  channel_role?: string;
}

function readMemberInputs(value: unknown, what: string): MemberInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw chatError.input(`${what} must be an array`);
  if (value.length > MAX_MEMBERS_PER_REQUEST)
    throw chatError.input(
      `${what} can hold at most ${MAX_MEMBERS_PER_REQUEST} members per request`,
    );
  return value.map((entry) => {
    if (typeof entry === 'string') return { user_id: entry };
    if (isPlainObject(entry)) {
      const id = entry.user_id ?? (isPlainObject(entry.user) ? entry.user.id : undefined);
      if (typeof id !== 'string' || !id) throw chatError.input(`${what} entries need a user_id`);
      const role = entry.channel_role;
      if (
        role !== undefined &&
        role !== 'channel_member' &&
        role !== 'channel_moderator' &&
        role !== 'owner'
      ) {
        throw chatError.input(`unknown channel_role ${String(role)}`);
      }
      return role ? { user_id: id, channel_role: role as string } : { user_id: id };
    }
    throw chatError.input(`${what} entries must be user ids or {user_id}`);
  });
}

/** Whether any entry asks for more than plain membership (a moderator or owner role). */
function grantsRole(inputs: MemberInput[]): boolean {
  return inputs.some((m) => m.channel_role !== undefined && m.channel_role !== 'channel_member');
}

/** Stream documents promoting and demoting as server-side only; no client role, not even an admin's, grants it. */
function requireServerForRoles(actor: Actor, what: string): void {
  if (!actor.isServer) throw chatError.notAllowed(`${what} is only allowed server-side`);
}

const GLOBAL_RANK = new Map([
  ['moderator', 3],
  ['admin', 4],
]);
const CHANNEL_RANK = new Map([
  ['channel_member', 0],
  ['channel_moderator', 1],
  ['owner', 2],
]);

/**
 * How far up someone stands in a channel: owner above channel moderators above members, and the app's moderators and
 * admins above them all. Removing someone else takes a strictly higher rank, so no one removes their equal or the
 * owner of a group, except staff.
 */
function rankOf(globalRole: string, member: MemberRow | undefined): number {
  const channelRank =
    member && member.banned !== 1 ? (CHANNEL_RANK.get(member.channel_role) ?? 0) : 0;
  return Math.max(GLOBAL_RANK.get(globalRole) ?? 0, channelRank);
}

export function distinctId(memberIds: string[]): { id: string; key: string } {
  const key = [...new Set(memberIds)].sort().join(',');
  const hash = createHash('sha256').update(key).digest('base64url').slice(0, 40);
  return { id: `!members-${hash}`, key };
}

export interface ChannelsService {
  repo: ChannelsRepo;
  access(actor: Actor, cid: string, executor?: Transaction<Database>): Promise<ChannelAccess>;
  accessRow(actor: Actor, channel: ChannelRow): Promise<ChannelAccess>;
  getOrCreate(
    actor: Actor,
    typeName: string,
    id: string | undefined,
    body: JsonObject,
  ): Promise<ChannelStateResponse>;
  queryChannels(actor: Actor, body: JsonObject): Promise<ChannelStateResponse[]>;
  update(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse; members: MemberResponse[] }>;
  updatePartial(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse; members: MemberResponse[] }>;
  remove(
    actor: Actor,
    typeName: string,
    id: string,
    hard: boolean,
  ): Promise<{ channel: ChannelResponse }>;
  truncate(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse }>;
  hide(actor: Actor, typeName: string, id: string, body: JsonObject): Promise<void>;
  show(actor: Actor, typeName: string, id: string, body: JsonObject): Promise<void>;
  stopWatching(actor: Actor, typeName: string, id: string): Promise<void>;
  updateMember(
    actor: Actor,
    typeName: string,
    id: string,
    userId: string | undefined,
    body: JsonObject,
  ): Promise<{ channel_member: MemberResponse }>;
  queryMembers(actor: Actor, payload: JsonObject): Promise<{ members: MemberResponse[] }>;
  /** The channel object for a shared event frame (no per-user own_capabilities). */
  eventChannel(channel: ChannelRow): Promise<ChannelResponse>;
  /** Registers how system messages of channel updates are sent (the messages feature provides it). */
  onSystemMessage(
    send: (actor: Actor, channel: ChannelRow, message: JsonObject) => Promise<void>,
  ): void;
  /** Registers who cleans up after messages removed with their channel (the uploads feature removes files). */
  onMessagesHardDeleted(listener: HardDeletedListener): void;
  /** Forgets the watches of a closed connection and tells the other watchers. */
  connectionClosed(connection: Connection, watched: string[]): Promise<void>;
  /** Drops pending batched watching events (server shutdown). */
  stop(): void;
}

/** Told, after the commit, of each hard-deleted message that carried attachments. */
export type HardDeletedListener = (
  appId: string,
  authorId: string,
  attachments: unknown[],
) => Promise<void>;

export function createChannelsService(
  deps: ChatDeps,
  repos: { channels: ChannelsRepo; reads: ReadsRepo },
  users: UsersService,
  events: EventPublisher,
  buildStates: StateBuilder,
): ChannelsService {
  const repo = repos.channels;
  // Set once at wiring time by the messages feature (which depends on this service, not the other way round).
  const hooks: {
    systemMessage?: (actor: Actor, channel: ChannelRow, message: JsonObject) => Promise<void>;
    messagesHardDeleted: HardDeletedListener[];
  } = { messagesHardDeleted: [] };

  /**
   * Messages with attachments that a hard delete of `cid` (up to `until`) is about to remove. Read in the deleting
   * transaction, so a message sent meanwhile cannot lose its row yet keep its files.
   */
  async function attachmentsOf(
    trx: Transaction<Database>,
    appId: string,
    cid: string,
    until?: string,
  ) {
    if (hooks.messagesHardDeleted.length === 0) return [];
    let query = trx
      .selectFrom('messages')
      .select(['user_id', 'attachments'])
      .where('app_id', '=', appId)
      .where('cid', '=', cid)
      .where('attachments', '<>', '[]');
    if (until) query = query.where('created_at', '<=', until);
    return query.execute();
  }

  async function announceHardDeleted(
    appId: string,
    rows: { user_id: string; attachments: string }[],
  ): Promise<void> {
    for (const row of rows) {
      const attachments = JSON.parse(row.attachments) as unknown;
      if (!Array.isArray(attachments)) continue;
      for (const listener of hooks.messagesHardDeleted) {
        // The rows are gone already; a file that cannot be removed must not fail the delete.
        await listener(appId, row.user_id, attachments).catch((error: unknown) =>
          deps.log.warn({ err: error, appId }, 'cleanup after a hard delete failed'),
        );
      }
    }
  }

  function facts(member: MemberRow | undefined) {
    return member ? { channelRole: member.channel_role, banned: member.banned === 1 } : null;
  }

  async function accessRow(
    actor: Actor,
    channel: ChannelRow,
    executor?: Transaction<Database>,
  ): Promise<ChannelAccess> {
    const type = channelTypeByName(channel.type);
    if (!type) throw chatError.notFound(`channel type "${channel.type}" does not exist`);
    const membership = actor.userId
      ? await repo.member(actor.appId, channel.cid, actor.userId, executor)
      : undefined;
    return {
      channel,
      type,
      membership,
      permissions: permissionsFor(type, actor, facts(membership)),
    };
  }

  async function access(
    actor: Actor,
    cid: string,
    executor?: Transaction<Database>,
  ): Promise<ChannelAccess> {
    const channel = await repo.get(actor.appId, cid, executor);
    if (!channel || channel.deleted_at) throw chatError.notFound(`channel "${cid}" does not exist`);
    return accessRow(actor, channel, executor);
  }

  function cidOf(typeName: string, id: string): string {
    assertChannelType(typeName);
    assertChannelId(id);
    return `${typeName}:${id}`;
  }

  function actorConnection(actor: Actor): Connection | undefined {
    return deps.hub.ownConnection(actor.connectionId, actor.appId, actor.userId);
  }

  async function eventChannel(channel: ChannelRow): Promise<ChannelResponse> {
    const usersById = channel.created_by_id
      ? await users.responses(channel.app_id, [channel.created_by_id])
      : new Map();
    return toChannelResponse(channel, channelTypeByName(channel.type)!, usersById);
  }

  async function requesterChannel(actor: Actor, cid: string): Promise<ChannelResponse> {
    const current = await access(actor, cid);
    const usersById = current.channel.created_by_id
      ? await users.responses(actor.appId, [current.channel.created_by_id])
      : new Map();
    return toChannelResponse(current.channel, current.type, usersById, {
      ownCapabilities: ownCapabilities(current.permissions, current.type.config),
      hidden: current.membership?.hidden === 1,
    });
  }

  async function membersResponse(appId: string, cid: string): Promise<MemberResponse[]> {
    const rows = (await repo.membersOf(appId, [cid], 100)).get(cid) ?? [];
    const usersById = await users.responses(
      appId,
      rows.map((r) => r.user_id),
    );
    return rows.map((r) => toMemberResponse(r, usersById));
  }

  const baseEvent = <T extends ServerEventType, F extends object>(
    type: T,
    channel: ChannelRow,
    fields: F,
  ) => channelEvent(type, channel, deps.clock.now(), fields);

  async function ensureUsersExist(appId: string, ids: string[]): Promise<void> {
    const found = await users.repo.getMany(appId, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw chatError.input(
        `The following users are specified in channel.members but don't exist: ${missing.join(', ')}`,
      );
    }
  }

  /**
   * Adding or inviting people: the member-update permission, or `join-channel` for adding only oneself (a user
   * joining a livestream, as on Stream); never into a distinct conversation (as Stream).
   */
  function requireAddRights(actor: Actor, current: ChannelAccess, added: string[]): void {
    const joiningAlone =
      actor.userId !== null && added.length > 0 && added.every((id) => id === actor.userId);
    if (!(joiningAlone && current.permissions.has('join-channel')))
      requirePermission(current.permissions, 'update-channel-members', 'adding channel members');
    if (current.channel.distinct_key !== null && !actor.isServer)
      throw chatError.notAllowed(
        'members cannot be added to a distinct channel: create a new channel with the desired members',
      );
  }

  /** Leaving is a member's own right; removing anyone else takes the member-update permission and a higher rank. */
  async function requireRemoveRights(
    actor: Actor,
    current: ChannelAccess,
    removes: string[],
  ): Promise<void> {
    if (actor.userId && removes.includes(actor.userId))
      requirePermission(current.permissions, 'leave-channel', 'leaving the channel');
    const others = removes.filter((userId) => userId !== actor.userId);
    if (others.length === 0 || actor.isServer) return;
    requirePermission(current.permissions, 'update-channel-members', 'removing channel members');
    const actorRank = rankOf(actor.role, current.membership);
    for (const userId of others) {
      const member = await repo.member(actor.appId, current.channel.cid, userId);
      if (!member) continue;
      if (rankOf(await users.roleOf(actor.appId, userId), member) >= actorRank)
        throw chatError.notAllowed(
          `removing ${userId} needs a higher role in the channel than theirs`,
        );
    }
  }

  /** Adds members inside a transaction; returns the rows that were new. */
  async function addMembersTx(
    trx: Transaction<Database>,
    appId: string,
    cid: string,
    inputs: MemberInput[],
    now: string,
    options: { invited?: boolean; hideHistory?: boolean; changeRoles?: boolean } = {},
  ) {
    const invited = options.invited === true;
    const added: MemberRow[] = [];
    for (const input of inputs) {
      const row: Insertable<MembersTable> = {
        app_id: appId,
        cid,
        user_id: input.user_id,
        channel_role: input.channel_role ?? 'channel_member',
        custom: '{}',
        invited: invited ? 1 : 0,
        banned: 0,
        shadow_banned: 0,
        notifications_muted: 0,
        hidden: 0,
        // `hide_history`: a newcomer sees only what is written from now on.
        ...(options.hideHistory ? { hide_messages_before: now } : {}),
        created_at: now,
        updated_at: now,
      };
      // Re-adding someone who is already a member never touches their role, unless the server asks for one.
      const changeRole = options.changeRoles === true && input.channel_role !== undefined;
      if (await repo.upsertMember(trx, row, changeRole)) {
        await repos.reads.upsert(trx, {
          app_id: appId,
          cid,
          user_id: input.user_id,
          thread_id: '',
          last_read: now,
          last_read_message_id: null,
        });
        added.push((await repo.member(appId, cid, input.user_id, trx))!);
      }
    }
    if (inputs.length > 0) await repo.refreshMemberCount(trx, appId, cid);
    return added;
  }

  async function publishMembersAdded(actor: Actor, cid: string, added: MemberRow[]): Promise<void> {
    if (added.length === 0) return;
    const channel = (await repo.get(actor.appId, cid))!;
    const usersById = await users.responses(
      actor.appId,
      added.map((m) => m.user_id),
    );
    const channelObject = await eventChannel(channel);
    for (const member of added) {
      const memberResponse = toMemberResponse(member, usersById);
      events.toChannel(
        actor.appId,
        cid,
        baseEvent('member.added', channel, { member: memberResponse, user: memberResponse.user }),
      );
      events.toUser(
        actor.appId,
        member.user_id,
        baseEvent('notification.added_to_channel', channel, {
          channel: channelObject,
          member: memberResponse,
          user: memberResponse.user,
        }),
      );
    }
  }

  async function publishMembersRemoved(
    actor: Actor,
    channel: ChannelRow,
    removed: string[],
  ): Promise<void> {
    if (removed.length === 0) return;
    const usersById = await users.responses(actor.appId, removed);
    const fresh = (await repo.get(actor.appId, channel.cid)) ?? channel;
    const channelObject = await eventChannel(fresh);
    for (const userId of removed) {
      const user = usersById.get(userId);
      events.toChannel(
        actor.appId,
        channel.cid,
        baseEvent('member.removed', fresh, { user, member: { user_id: userId, user } }),
      );
      events.toUser(
        actor.appId,
        userId,
        baseEvent('notification.removed_from_channel', fresh, {
          channel: channelObject,
          user,
          member: { user_id: userId, user },
        }),
      );
    }
  }

  const watchingEvents = createWatchingEvents({
    hub: deps.hub,
    users,
    events,
    clock: deps.clock,
    largeChannelWatchers: deps.config.limits.largeChannelWatchers,
    batchMs: deps.config.limits.largeChannelWatchingEventsMs,
    log: deps.log,
  });

  async function watch(actor: Actor, channel: ChannelRow): Promise<void> {
    const connection = actorConnection(actor);
    if (!connection) return;
    if (!deps.hub.watch(connection, channel.cid)) return;
    await watchingEvents.announce(actor.appId, channel, 'user.watching.start', connection.userId);
  }

  function stateOptions(body: JsonObject): StateOptions {
    const messages = isPlainObject(body.messages) ? body.messages : undefined;
    const members = isPlainObject(body.members) ? body.members : {};
    const watchers = isPlainObject(body.watchers) ? body.watchers : {};
    const page = parseMessagePage(messages, { limit: 100, max: 300 });
    const int = (value: unknown, fallback: number, max: number, name: string) => {
      if (value === undefined || value === null) return fallback;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
        throw chatError.input(`${name} must be an integer between 0 and ${max}`);
      }
      return value;
    };
    return {
      state: body.state !== false,
      messageLimit: page.limit,
      messagePage: page,
      memberLimit: int(members.limit, 100, 300, 'members.limit'),
      memberOffset: int(members.offset, 0, 10_000, 'members.offset'),
      watcherLimit: int(watchers.limit, 100, 300, 'watchers.limit'),
      watcherOffset: int(watchers.offset, 0, 10_000, 'watchers.offset'),
    };
  }

  async function createChannel(
    actor: Actor,
    type: ChannelType,
    cid: string,
    id: string,
    data: JsonObject,
    inputs: MemberInput[],
    distinctKey: string | null,
  ) {
    let memberInputs = inputs;
    const fields = channelFields(data);
    if (!actor.isServer) {
      const permissions = permissionsFor(type, actor, null);
      requirePermission(permissions, 'create-channel', `creating a ${type.name} channel`);
      refuseClientOnlyCreateData(actor, data, fields, inputs);
      // Anyone can become a guest: a guest may open a channel for itself, never one that reaches other users.
      if (actor.role === 'guest' && memberInputs.some((m) => m.user_id !== actor.userId))
        throw chatError.notAllowed('a guest can only create a channel whose only member is itself');
    }
    const creator =
      actor.userId ??
      (typeof data.created_by_id === 'string'
        ? data.created_by_id
        : isPlainObject(data.created_by) && typeof data.created_by.id === 'string'
          ? data.created_by.id
          : null);
    if (!creator)
      throw chatError.input(
        'either data.created_by or data.created_by_id must be provided when using server side auth',
      );
    await ensureUsersExist(actor.appId, [creator, ...memberInputs.map((m) => m.user_id)]);
    // The creator, when a member, owns the channel (channel moderator rights), as in Stream.
    memberInputs = memberInputs.map((m) =>
      m.user_id === creator && !m.channel_role ? { ...m, channel_role: 'owner' } : m,
    );
    const now = deps.clock.now();
    let added: MemberRow[];
    try {
      added = await deps.writes.run(async (trx) => {
        await repo.insert(trx, {
          app_id: actor.appId,
          cid,
          type: type.name,
          id,
          created_by_id: creator,
          name: fields.name ?? null,
          name_search: fields.name ? fields.name.toLocaleLowerCase() : null,
          image: fields.image ?? null,
          custom: JSON.stringify(fields.custom),
          team: fields.team ?? null,
          frozen: fields.frozen ? 1 : 0,
          disabled: fields.disabled ? 1 : 0,
          cooldown: fields.cooldown ?? 0,
          member_count: 0,
          distinct_key: distinctKey,
          created_at: now,
          updated_at: now,
        });
        return addMembersTx(trx, actor.appId, cid, memberInputs, now);
      });
    } catch (error) {
      // Lost a creation race: the channel exists now, which is what the caller wanted.
      if (await repo.get(actor.appId, cid)) return;
      throw error;
    }
    const channel = (await repo.get(actor.appId, cid))!;
    events.toChannel(
      actor.appId,
      cid,
      baseEvent('channel.created', channel, { channel: await eventChannel(channel) }),
    );
    await publishMembersAdded(actor, cid, added);
  }

  return {
    repo,
    access,
    accessRow,
    eventChannel,
    onMessagesHardDeleted(listener) {
      hooks.messagesHardDeleted.push(listener);
    },

    onSystemMessage(send) {
      hooks.systemMessage = send;
    },

    async getOrCreate(actor, typeName, id, body) {
      const type = assertChannelType(typeName);
      const data = body.data === undefined ? {} : body.data;
      if (!isPlainObject(data)) throw chatError.input('data must be an object');
      const memberInputs = readMemberInputs(data.members, 'data.members');
      let distinctKey: string | null = null;
      if (id === undefined) {
        if (memberInputs.length === 0)
          throw chatError.input('When channel id is not provided, members must be specified');
        const members = memberInputs.map((m) => m.user_id);
        if (actor.userId && !actor.isServer && !members.includes(actor.userId))
          members.push(actor.userId);
        const distinct = distinctId(members);
        distinctKey = distinct.key;
        const existing = await repo.byDistinctKey(actor.appId, type.name, distinct.key);
        id = existing?.id ?? distinct.id;
        if (!members.every((m) => memberInputs.some((i) => i.user_id === m)))
          memberInputs.push({ user_id: actor.userId! });
      }
      assertChannelId(id);
      const cid = `${type.name}:${id}`;
      let channel = await repo.get(actor.appId, cid);
      if (channel?.deleted_at) {
        // A soft-deleted channel is re-created fresh by get-or-create, as in Stream.
        await deps.writes.run((trx) => repo.remove(trx, actor.appId, cid));
        channel = undefined;
      }
      if (!channel) {
        await createChannel(actor, type, cid, id, data, memberInputs, distinctKey);
        channel = (await repo.get(actor.appId, cid))!;
      }
      const current = await accessRow(actor, channel);
      requirePermission(current.permissions, 'read-channel', `reading channel ${cid}`);
      if (body.watch === true) await watch(actor, channel);
      const options = stateOptions(body);
      const [state] = await buildStates(actor, [channel], options);
      if (body.presence === true)
        followPresence(
          actor,
          state!.members.map((m) => m.user_id),
        );
      return state!;
    },

    async queryChannels(actor, body) {
      const limit = intOption(body.limit, 10, 30, 'limit');
      const offset = intOption(body.offset, 0, 1000, 'offset');
      const messageLimit = intOption(body.message_limit, 25, 300, 'message_limit');
      const memberLimit = intOption(body.member_limit, 100, 100, 'member_limit');
      const filter = body.filter_conditions ?? {};
      if (!isPlainObject(filter)) throw chatError.input('filter_conditions must be an object');
      const where = compileChannelFilter(deps.dialect, actor, filter);
      const order = compileChannelSort(deps.dialect, body.sort);
      // Server-side calls without user_id see every channel, with no per-user state.
      const rows = await repo.query(actor.appId, actor.userId ?? '', where, order, limit, offset);
      const states = await buildStates(actor, rows, {
        state: body.state !== false,
        messageLimit,
        memberLimit,
        memberOffset: 0,
        watcherLimit: 100,
        watcherOffset: 0,
      });
      if (body.watch === true) for (const row of rows) await watch(actor, row);
      if (body.presence === true)
        followPresence(
          actor,
          states.flatMap((s) => s.members.map((m) => m.user_id)),
        );
      return states;
    },

    async update(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await access(actor, cid);
      const now = deps.clock.now();
      const adds = readMemberInputs(body.add_members, 'add_members');
      const removes = readMemberInputs(body.remove_members, 'remove_members').map((m) => m.user_id);
      const promote = readMemberInputs(body.add_moderators, 'add_moderators').map((m) => m.user_id);
      const demote = readMemberInputs(body.demote_moderators, 'demote_moderators').map(
        (m) => m.user_id,
      );
      const assign = readMemberInputs(body.assign_roles, 'assign_roles');
      const invites = readMemberInputs(body.invites, 'invites');
      const data = body.data;
      if (data !== undefined && data !== null && !isPlainObject(data))
        throw chatError.input('data must be an object');
      const acceptInvite = body.accept_invite === true;
      const rejectInvite = body.reject_invite === true;
      const cooldown = body.cooldown;

      if (!actor.isServer && typeof body.user_id === 'string' && body.user_id !== actor.userId)
        throw chatError.notAllowed('cannot act for another user');
      const self = actor.userId;
      const fields = isPlainObject(data) ? channelFields(data) : undefined;
      const cooldownChange = readCooldown(cooldown);
      if (fields || cooldownChange !== undefined)
        requirePermission(current.permissions, 'update-channel', 'updating the channel');
      if (fields) guardChannelFields(actor, current, fields);
      // Slow mode is its own permission in Stream (UpdateChannelCooldown), whoever may rename the channel.
      if (cooldownChange !== undefined)
        requirePermission(current.permissions, 'set-channel-cooldown', 'setting slow mode');
      if (promote.length) requireServerForRoles(actor, 'adding moderators');
      if (demote.length) requireServerForRoles(actor, 'demoting moderators');
      if (assign.length) requireServerForRoles(actor, 'assigning channel roles');
      if (grantsRole([...adds, ...invites])) requireServerForRoles(actor, 'giving channel roles');
      if (adds.length || invites.length)
        requireAddRights(actor, current, [
          ...adds.map((m) => m.user_id),
          ...invites.map((m) => m.user_id),
        ]);
      await requireRemoveRights(actor, current, removes);
      const inviteAnswer = acceptInvite || rejectInvite;
      if (inviteAnswer && current.membership?.invited !== 1)
        throw chatError.input('there is no pending invite to accept or reject');
      await ensureUsersExist(
        actor.appId,
        [...adds, ...invites].map((m) => m.user_id),
      );

      let added: MemberRow[] = [];
      const removed: string[] = [];
      const updatedMembers: string[] = [];
      await deps.writes.run(async (trx) => {
        if (fields || cooldownChange !== undefined) {
          const patch: JsonObject = { updated_at: now };
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
            });
          }
          if (cooldownChange !== undefined) patch.cooldown = cooldownChange;
          await repo.update(trx, actor.appId, cid, patch);
        }
        const hideHistory = body.hide_history === true;
        const changeRoles = actor.isServer;
        added = await addMembersTx(trx, actor.appId, cid, adds, now, { hideHistory, changeRoles });
        added.push(
          ...(await addMembersTx(trx, actor.appId, cid, invites, now, {
            invited: true,
            hideHistory,
            changeRoles,
          })),
        );
        for (const userId of removes)
          if (await repo.removeMember(trx, actor.appId, cid, userId)) removed.push(userId);
        if (removes.length) await repo.refreshMemberCount(trx, actor.appId, cid);
        const roleChanges: [string, string][] = [
          ...promote.map((u): [string, string] => [u, 'channel_moderator']),
          ...demote.map((u): [string, string] => [u, 'channel_member']),
          ...assign.map((m): [string, string] => [m.user_id, m.channel_role ?? 'channel_member']),
        ];
        for (const [userId, role] of roleChanges) {
          if (!(await repo.member(actor.appId, cid, userId, trx))) continue;
          await repo.updateMember(trx, actor.appId, cid, userId, {
            channel_role: role,
            updated_at: now,
          });
          updatedMembers.push(userId);
        }
        if (inviteAnswer && self) {
          await repo.updateMember(
            trx,
            actor.appId,
            cid,
            self,
            acceptInvite
              ? { invite_accepted_at: now, invited: 0, updated_at: now }
              : { invite_rejected_at: now, updated_at: now },
          );
          updatedMembers.push(self);
        }
      });
      const fresh = (await repo.get(actor.appId, cid))!;
      if (fields || cooldownChange !== undefined) {
        events.toChannel(
          actor.appId,
          cid,
          baseEvent('channel.updated', fresh, {
            channel: await eventChannel(fresh),
            ...(actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {}),
          }),
        );
      }
      await publishMembersAdded(actor, cid, added);
      await publishMembersRemoved(actor, fresh, removed);
      for (const userId of updatedMembers) await publishMemberUpdated(actor.appId, fresh, userId);
      const message = body.message;
      if (isPlainObject(message) && hooks.systemMessage)
        await hooks.systemMessage(actor, fresh, message);
      return {
        channel: await requesterChannel(actor, cid),
        members: await membersResponse(actor.appId, cid),
      };
    },

    async updatePartial(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await access(actor, cid);
      requirePermission(current.permissions, 'update-channel', 'updating the channel');
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      const channel = current.channel;
      const custom = { ...parseObject(channel.custom) };
      const fields = channelFields(set);
      Object.assign(custom, fields.custom);
      for (const key of unset as string[]) delete custom[key];
      assertCustomSize(custom, 'channel');
      // Unsetting a moderated field is a change like any other.
      for (const key of unset as string[]) {
        if (key === 'frozen') fields.frozen = false;
        if (key === 'disabled') fields.disabled = false;
        if (key === 'cooldown') fields.cooldown = 0;
        if (key === 'team') fields.team = null;
      }
      guardChannelFields(actor, current, fields);
      const now = deps.clock.now();
      const patch: JsonObject = { custom: JSON.stringify(custom), updated_at: now };
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
      for (const key of unset as string[]) {
        if (key === 'name') Object.assign(patch, { name: null, name_search: null });
        if (key === 'image') patch.image = null;
      }
      await deps.writes.run((trx) => repo.update(trx, actor.appId, cid, patch));
      const fresh = (await repo.get(actor.appId, cid))!;
      events.toChannel(
        actor.appId,
        cid,
        baseEvent('channel.updated', fresh, {
          channel: await eventChannel(fresh),
          ...(actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {}),
        }),
      );
      return {
        channel: await requesterChannel(actor, cid),
        members: await membersResponse(actor.appId, cid),
      };
    },

    async remove(actor, typeName, id, hard) {
      const cid = cidOf(typeName, id);
      const current = await access(actor, cid);
      requirePermission(current.permissions, 'delete-channel', 'deleting the channel');
      const now = deps.clock.now();
      const memberIds = await repo.memberIds(actor.appId, cid);
      const before = await eventChannel(current.channel);
      if (hard) {
        const withFiles = await deps.writes.run(async (trx) => {
          const rows = await attachmentsOf(trx, actor.appId, cid);
          await repo.remove(trx, actor.appId, cid);
          return rows;
        });
        await announceHardDeleted(actor.appId, withFiles);
      } else
        await deps.writes.run((trx) =>
          repo.update(trx, actor.appId, cid, { deleted_at: now, updated_at: now }),
        );
      const channelObject = { ...before, deleted_at: now };
      events.toChannel(
        actor.appId,
        cid,
        baseEvent('channel.deleted', current.channel, { channel: channelObject }),
      );
      events.toUsers(
        actor.appId,
        memberIds,
        baseEvent('notification.channel_deleted', current.channel, { channel: channelObject }),
        { skipWatchersOf: cid },
      );
      return { channel: channelObject };
    },

    async truncate(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await access(actor, cid);
      requirePermission(current.permissions, 'delete-channel', 'truncating the channel');
      let truncatedAt = deps.clock.now();
      if (typeof body.truncated_at === 'string') {
        truncatedAt = normalizeIso(body.truncated_at) ?? truncatedAt;
      }
      const hard = body.hard_delete === true;
      const withFiles = await deps.writes.run(async (trx) => {
        const rows = hard ? await attachmentsOf(trx, actor.appId, cid, truncatedAt) : [];
        await repo.update(trx, actor.appId, cid, {
          truncated_at: truncatedAt,
          updated_at: truncatedAt,
        });
        if (hard)
          await trx
            .deleteFrom('messages')
            .where('app_id', '=', actor.appId)
            .where('cid', '=', cid)
            .where('created_at', '<=', truncatedAt)
            .execute();
        return rows;
      });
      await announceHardDeleted(actor.appId, withFiles);
      const fresh = (await repo.get(actor.appId, cid))!;
      const channelObject = await eventChannel(fresh);
      events.toChannel(
        actor.appId,
        cid,
        baseEvent('channel.truncated', fresh, {
          channel: channelObject,
          ...(actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {}),
        }),
      );
      if (isPlainObject(body.message) && hooks.systemMessage)
        await hooks.systemMessage(actor, fresh, body.message);
      return { channel: await requesterChannel(actor, cid) };
    },

    async hide(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const userId = resolveUserId(actor, body.user_id);
      const current = await access({ ...actor, userId }, cid);
      if (!current.membership) throw chatError.input('only members can hide a channel');
      const now = deps.clock.now();
      const clear = body.clear_history === true;
      await deps.writes.run((trx) =>
        repo.updateMember(trx, actor.appId, cid, userId, {
          hidden: 1,
          updated_at: now,
          ...(clear ? { hide_messages_before: now } : {}),
        }),
      );
      events.toUser(
        actor.appId,
        userId,
        baseEvent('channel.hidden', current.channel, {
          clear_history: clear,
          channel: await eventChannel(current.channel),
          user: await users.response(actor.appId, userId),
        }),
      );
    },

    async show(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const userId = resolveUserId(actor, body.user_id);
      const current = await access({ ...actor, userId }, cid);
      if (!current.membership) throw chatError.input('only members can show a channel');
      await deps.writes.run((trx) =>
        repo.updateMember(trx, actor.appId, cid, userId, {
          hidden: 0,
          updated_at: deps.clock.now(),
        }),
      );
      events.toUser(
        actor.appId,
        userId,
        baseEvent('channel.visible', current.channel, {
          channel: await eventChannel(current.channel),
          user: await users.response(actor.appId, userId),
        }),
      );
    },

    async stopWatching(actor, typeName, id) {
      const cid = cidOf(typeName, id);
      const channel = await repo.get(actor.appId, cid);
      if (!channel) throw chatError.notFound(`channel "${cid}" does not exist`);
      const connection = actorConnection(actor);
      if (!connection || !deps.hub.unwatch(connection, cid)) return;
      await watchingEvents.announce(actor.appId, channel, 'user.watching.stop', connection.userId);
    },

    async updateMember(actor, typeName, id, targetUserId, body) {
      const cid = cidOf(typeName, id);
      const userId = targetUserId ?? actor.userId;
      if (!userId) throw chatError.input('user_id is required');
      const current = await access(actor, cid);
      // A membership holds its member's own choices (pinned, archived, muted, custom data): only they or the server
      // change it. Roles and bans have their own server-side and moderation endpoints.
      if (userId !== actor.userId && !actor.isServer)
        throw chatError.notAllowed(
          'only the member themselves or the server can update a membership',
        );
      const member = await repo.member(actor.appId, cid, userId);
      if (!member) throw chatError.notFound(`user ${userId} is not a member of channel ${cid}`);
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      const banFields = ['banned', 'shadow_banned', 'invited'].filter((key) => key in set);
      if (banFields.length > 0 && !actor.isServer)
        throw chatError.notAllowed(`${banFields.join(', ')} cannot be changed by a member update`);
      const now = deps.clock.now();
      const memberReserved = new Set([
        'pinned',
        'archived',
        'channel_role',
        'user_id',
        'user',
        'created_at',
        'updated_at',
        'banned',
        'shadow_banned',
        'notifications_muted',
        'hidden',
        'invited',
      ]);
      const custom = {
        ...parseObject(member.custom),
        ...pickCustom(set, memberReserved, 'member'),
      };
      const patch: Partial<Insertable<MembersTable>> = { updated_at: now };
      if ('pinned' in set) patch.pinned_at = set.pinned === true ? now : null;
      if ('archived' in set) patch.archived_at = set.archived === true ? now : null;
      if (typeof set.notifications_muted === 'boolean')
        patch.notifications_muted = set.notifications_muted ? 1 : 0;
      if (set.channel_role !== undefined) {
        requireServerForRoles(actor, 'changing a channel role');
        if (set.channel_role !== 'channel_member' && set.channel_role !== 'channel_moderator')
          throw chatError.input('unknown channel_role');
        patch.channel_role = set.channel_role;
      }
      for (const key of unset as string[]) {
        if (key === 'pinned') patch.pinned_at = null;
        else if (key === 'archived') patch.archived_at = null;
        else delete custom[key];
      }
      assertCustomSize(custom, 'member');
      patch.custom = JSON.stringify(custom);
      await deps.writes.run((trx) => repo.updateMember(trx, actor.appId, cid, userId, patch));
      const response = await publishMemberUpdated(actor.appId, current.channel, userId);
      return { channel_member: response };
    },

    async queryMembers(actor, payload) {
      const typeName = payload.type;
      const type = assertChannelType(typeName);
      let cid: string;
      let byMembers = false;
      if (typeof payload.id === 'string' && payload.id) cid = cidOf(type.name, payload.id);
      else {
        const members = readMemberInputs(payload.members, 'members').map((m) => m.user_id);
        if (members.length === 0) throw chatError.input('either id or members must be provided');
        const existing = await repo.byDistinctKey(actor.appId, type.name, distinctId(members).key);
        if (!existing) throw chatError.notFound('channel does not exist');
        cid = existing.cid;
        byMembers = true;
      }
      const current = await access(actor, cid);
      // Looked up by its members, a conversation the caller may not read must look like one that does not exist:
      // otherwise anyone could learn who talks with whom.
      if (byMembers && !current.permissions.has('read-channel'))
        throw chatError.notFound('channel does not exist');
      requirePermission(current.permissions, 'read-channel', `reading channel ${cid}`);
      const limit = intOption(payload.limit, 100, 300, 'limit');
      const offset = intOption(payload.offset, 0, 10_000, 'offset');
      const filter = payload.filter_conditions ?? {};
      if (!isPlainObject(filter)) throw chatError.input('filter_conditions must be an object');
      const rows = await repo.queryMembers(
        actor.appId,
        cid,
        compileMemberFilter(deps.dialect, filter),
        compileMemberSort(deps.dialect, payload.sort),
        limit,
        offset,
      );
      const usersById = await users.responses(
        actor.appId,
        rows.map((r) => r.user_id),
      );
      return { members: rows.map((r) => toMemberResponse(r, usersById)) };
    },

    async connectionClosed(connection, watched) {
      for (const cid of watched) {
        const channel = await repo.get(connection.appId, cid);
        if (channel) {
          await watchingEvents.announce(
            connection.appId,
            channel,
            'user.watching.stop',
            connection.userId,
          );
        }
      }
    },

    stop() {
      watchingEvents.stop();
    },
  };

  async function publishMemberUpdated(
    appId: string,
    channel: ChannelRow,
    userId: string,
  ): Promise<MemberResponse> {
    const member = (await repo.member(appId, channel.cid, userId))!;
    const usersById = await users.responses(appId, [userId]);
    const response = toMemberResponse(member, usersById);
    const event = baseEvent('member.updated', channel, { member: response, user: response.user });
    events.toChannel(appId, channel.cid, event);
    // The member may not be watching (pinning from the channel list): their own connections learn it too.
    events.toUser(appId, userId, event, { skipWatchersOf: channel.cid });
    return response;
  }

  function followPresence(actor: Actor, userIds: string[]): void {
    const connection = actorConnection(actor);
    if (connection) deps.hub.followPresence(connection, userIds);
  }
}

function resolveUserId(actor: Actor, bodyUserId: unknown): string {
  if (typeof bodyUserId === 'string' && bodyUserId) {
    if (!actor.isServer && bodyUserId !== actor.userId)
      throw chatError.notAllowed('cannot act for another user');
    return bodyUserId;
  }
  if (!actor.userId) throw chatError.input('user_id is required');
  return actor.userId;
}

export function intOption(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw chatError.input(`${name} must be an integer between 0 and ${max}`);
  }
  return value;
}

interface ChannelFields {
  name?: string | null;
  image?: string | null;
  team?: string | null;
  frozen?: boolean;
  disabled?: boolean;
  cooldown?: number;
  custom: JsonObject;
}

const MAX_COOLDOWN_SECONDS = 120;

/** A slow-mode value; undefined when absent. Stream accepts 0 (off) to 120 seconds. */
function readCooldown(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_COOLDOWN_SECONDS
  )
    throw chatError.input(
      `cooldown must be an integer between 0 and ${MAX_COOLDOWN_SECONDS} seconds`,
    );
  return value;
}

function readFlag(data: JsonObject, key: 'frozen' | 'disabled'): boolean | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw chatError.input(`${key} must be a boolean`);
  return value;
}

function channelFields(data: JsonObject): ChannelFields {
  const fields: ChannelFields = { custom: pickCustom(data, RESERVED, 'channel') };
  if ('name' in data) fields.name = readLabel(data.name, 'channel name');
  if ('image' in data) fields.image = readImageUrl(data.image, 'channel image');
  if (typeof data.team === 'string') fields.team = readLabel(data.team, 'channel team');
  const frozen = readFlag(data, 'frozen');
  if (frozen !== undefined) fields.frozen = frozen;
  const disabled = readFlag(data, 'disabled');
  if (disabled !== undefined) fields.disabled = disabled;
  const cooldown = readCooldown(data.cooldown);
  if (cooldown !== undefined) fields.cooldown = cooldown;
  return fields;
}

/** The creator (`created_by` / `created_by_id`) a create request names, if any. */
function namedCreator(data: JsonObject): string | null {
  if (typeof data.created_by_id === 'string') return data.created_by_id;
  if (isPlainObject(data.created_by) && typeof data.created_by.id === 'string')
    return data.created_by.id;
  return null;
}

/** What a client may not put in a channel it creates: roles for others, someone else's name, a team, a disabled flag. */
function refuseClientOnlyCreateData(
  actor: Actor,
  data: JsonObject,
  fields: ChannelFields,
  inputs: MemberInput[],
): void {
  if (grantsRole(inputs)) requireServerForRoles(actor, 'giving channel roles');
  const creator = namedCreator(data);
  if (creator !== null && creator !== actor.userId)
    throw chatError.notAllowed('a channel can only be created in your own name');
  if (fields.team) throw chatError.notAllowed('a channel team can only be set server-side');
  if (fields.disabled)
    throw chatError.notAllowed('disabling a channel is only allowed server-side');
}

/**
 * Fields beyond a plain channel update: freezing and slow mode are moderation (Stream's UpdateChannelFrozen and
 * UpdateChannelCooldown), and disabling a channel or moving it to a team is the server's decision. Only an actual
 * change is checked, so a client re-sending the channel's current data is not refused.
 */
function guardChannelFields(actor: Actor, current: ChannelAccess, fields: ChannelFields): void {
  const { channel, permissions } = current;
  if (fields.frozen !== undefined && fields.frozen !== (channel.frozen === 1))
    requirePermission(permissions, 'freeze-channel', 'freezing the channel');
  if (fields.cooldown !== undefined && fields.cooldown !== channel.cooldown)
    requirePermission(permissions, 'set-channel-cooldown', 'setting slow mode');
  if (actor.isServer) return;
  if (fields.disabled !== undefined && fields.disabled !== (channel.disabled === 1))
    throw chatError.notAllowed('disabling a channel is only allowed server-side');
  if (fields.team !== undefined && (fields.team ?? null) !== channel.team)
    throw chatError.notAllowed('a channel team can only be changed server-side');
}
