import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import {
  banHolds,
  ownCapabilities,
  ownerFacts,
  permissionsFor,
  type Actor,
} from '../access/access.ts';
import type { ChannelType, Permission } from '../channel-types.ts';
import { channelTypeOf } from '../channel-types/overrides.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type {
  ActivityListener,
  ChannelHiddenCondition,
  ChannelQueryResolver,
} from '../extension-points.ts';
import type { JsonObject } from '../json.ts';
import type { ReadsRepo } from '../reads/repo.ts';
import type { UserStanding, UsersService } from '../users/service.ts';
import { channelEvent, type ChannelEventBase, type ServerEventType } from '../wire/events.ts';
import type { ChannelRow, ChannelsRepo, MemberRow } from './repo.ts';
import {
  channelUserIds,
  toChannelResponse,
  toMemberResponse,
  type ChannelResponse,
  type MemberResponse,
} from './serialize.ts';
import type { StateBuilder } from './state.ts';
import { createWatchingEvents, type WatchingEvents } from './watching-events.ts';

/** What the composition root hands the channels service. */
export interface ChannelsContext {
  deps: ChatDeps;
  repos: { channels: ChannelsRepo; reads: ReadsRepo };
  users: UsersService;
  events: EventPublisher;
  buildStates: StateBuilder;
  /** Extensions' reasons a channel is hidden from its viewer (`ExtensionPoints.channelHidden`). */
  hiddenConditions?: readonly ChannelHiddenCondition[];
  /** Told of members added (`ExtensionPoints.activity`). */
  activity?: readonly ActivityListener[];
  /** Expand queryChannels requests naming a predefined filter (`ExtensionPoints.channelQuery`). */
  queryResolvers?: readonly ChannelQueryResolver[];
}

/** One actor's standing in one channel: the row, its type, their membership and what they may do. */
export interface ChannelAccess {
  channel: ChannelRow;
  type: ChannelType;
  membership: MemberRow | undefined;
  permissions: Set<Permission>;
  /** A ban holds against the actor here: in this channel, or app-wide. */
  banned?: boolean;
  /** The actor's app-wide standing as read for this check (none for the server or an anonymous actor). */
  standing?: UserStanding;
}

/** Told, after the commit, of each hard-deleted message that carried attachments. */
export type HardDeletedListener = (
  appId: string,
  authorId: string,
  attachments: unknown[],
) => Promise<void>;

/** Stores and announces a system message; returns it as the caller's reply carries it. */
export type SystemMessageSender = (
  actor: Actor,
  channel: ChannelRow,
  message: JsonObject,
) => Promise<JsonObject>;

/** Set once at wiring time by features that depend on channels (messages, uploads), never the other way round. */
export interface ChannelHooks {
  systemMessage?: SystemMessageSender;
  messagesHardDeleted: HardDeletedListener[];
}

/** What every channel use case shares: the service's context plus the helpers built once from it. */
export interface ChannelUseCaseContext extends ChannelsContext {
  repo: ChannelsRepo;
  hooks: ChannelHooks;
  watchingEvents: WatchingEvents;
  access(actor: Actor, cid: string, executor?: Transaction<Database>): Promise<ChannelAccess>;
  accessRow(
    actor: Actor,
    channel: ChannelRow,
    executor?: Transaction<Database>,
  ): Promise<ChannelAccess>;
  /** The channel object for a shared event frame (no per-user own_capabilities). */
  eventChannel(channel: ChannelRow): Promise<ChannelResponse>;
  /** The channel object as the caller sees it (own_capabilities, hidden), read fresh. */
  requesterChannel(actor: Actor, cid: string): Promise<ChannelResponse>;
  /** The first page of members, as update responses carry them. */
  membersResponse(appId: string, cid: string): Promise<MemberResponse[]>;
  /** A channel event stamped now. */
  baseEvent<T extends ServerEventType, F extends object>(
    type: T,
    channel: ChannelRow,
    fields: F,
  ): ChannelEventBase<T> & F;
}

export function createUseCaseContext(context: ChannelsContext): ChannelUseCaseContext {
  const { deps, users } = context;
  const repo = context.repos.channels;

  /** The channel's type with the channel's own settings over it. */
  function typeOf(channel: ChannelRow): ChannelType {
    const type = channelTypeOf(deps.channelTypes, channel);
    if (!type) throw chatError.notFound(`channel type "${channel.type}" does not exist`);
    return type;
  }

  async function accessRow(
    actor: Actor,
    channel: ChannelRow,
    executor?: Transaction<Database>,
  ): Promise<ChannelAccess> {
    const type = typeOf(channel);
    // Stream: a disabled channel refuses every client-side read and write; the server keeps full access.
    if (channel.disabled === 1 && !actor.isServer)
      throw chatError.notAllowed(`channel ${channel.cid} is disabled`);
    const membership = actor.userId
      ? await repo.member(actor.appId, channel.cid, actor.userId, executor)
      : undefined;
    const now = deps.clock.now();
    const facts = ownerFacts(
      actor,
      channel.created_by_id,
      membership
        ? {
            channelRole: membership.channel_role,
            banned: banHolds(membership.banned, membership.ban_expires, now),
          }
        : null,
    );
    const standing =
      actor.userId && !actor.isServer
        ? await users.standingOf(actor.appId, actor.userId)
        : undefined;
    return {
      channel,
      type,
      membership,
      permissions: permissionsFor(type, actor, facts, standing),
      banned: !!facts?.banned || !!standing?.banned,
      ...(standing ? { standing } : {}),
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

  async function eventChannel(channel: ChannelRow): Promise<ChannelResponse> {
    const named = channelUserIds(channel);
    const usersById = named.length ? await users.responses(channel.app_id, named) : new Map();
    return toChannelResponse(channel, typeOf(channel), usersById);
  }

  async function requesterChannel(actor: Actor, cid: string): Promise<ChannelResponse> {
    const current = await access(actor, cid);
    const named = channelUserIds(current.channel);
    const usersById = named.length ? await users.responses(actor.appId, named) : new Map();
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

  return {
    ...context,
    repo,
    hooks: { messagesHardDeleted: [] },
    watchingEvents: createWatchingEvents({
      presence: deps.presence,
      users,
      events: context.events,
      clock: deps.clock,
      channelTypes: deps.channelTypes,
      largeChannelWatchers: deps.config.limits.largeChannelWatchers,
      batchMs: deps.config.limits.largeChannelWatchingEventsMs,
      log: deps.log,
    }),
    access,
    accessRow,
    eventChannel,
    requesterChannel,
    membersResponse,
    baseEvent: (type, channel, fields) => channelEvent(type, channel, deps.clock.now(), fields),
  };
}
