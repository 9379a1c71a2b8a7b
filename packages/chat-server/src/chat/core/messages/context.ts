import { requirePermission, type Actor } from '../access/access.ts';
import {
  actorWindow,
  inWindow,
  toWatchersWhoSee,
  type EventMessageRef,
} from '../access/visibility.ts';
import type { ChannelRow } from '../channels/repo.ts';
import {
  assertChannelId,
  assertChannelType,
  type ChannelAccess,
  type ChannelsService,
} from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { ExtensionPoints } from '../extension-points.ts';
import type { ReadsRepo } from '../reads/repo.ts';
import type { ThreadsRepo } from '../replies/repo.ts';
import type { UsersService } from '../users/service.ts';
import { channelEvent, type ChannelEventBase, type ServerEventType } from '../wire/events.ts';
import { chatError } from '../../../errors.ts';
import type { MessageAssembler } from './assembler.ts';
import type { MessageRow, MessagesRepo } from './repo.ts';
import type { MessageResponse } from './serialize.ts';

/** Everything the message use cases depend on, wired once by the composition root. */
export interface MessagesContext {
  deps: ChatDeps;
  repo: MessagesRepo;
  threads: ThreadsRepo;
  reads: ReadsRepo;
  channels: ChannelsService;
  users: UsersService;
  assembler: MessageAssembler;
  events: EventPublisher;
  points: Pick<
    ExtensionPoints,
    | 'beforeMessageStored'
    | 'beforeMessageTextChanged'
    | 'messageHardDeleted'
    | 'beforeChannelWrite'
    | 'activity'
  >;
}

/** Lookups and announcements every message use case shares. */
export interface MessageLookup {
  /**
   * Loads a message and the actor's access to its channel; hidden history does not exist for the actor. With
   * `serverAsAuthor` a server call sees the message as its author does (messages only their author sees).
   */
  accessMessage(
    actor: Actor,
    messageId: string,
    options?: { serverAsAuthor?: boolean },
  ): Promise<{ row: MessageRow; access: ChannelAccess }>;
  /** The actor's access to the channel named by a route's type and id. */
  channelAccess(actor: Actor, typeName: string, id: string): Promise<ChannelAccess>;
  /** The message as carried by shared events (no per-user own_reactions). */
  eventMessage(appId: string, messageId: string): Promise<MessageResponse>;
  /** The message as its actor sees it after a write. */
  viewedBy(actor: Actor, messageId: string): Promise<MessageResponse>;
  /** A channel event stamped now. */
  event<T extends ServerEventType, F extends object>(
    type: T,
    channel: ChannelRow,
    fields: F,
  ): ChannelEventBase<T> & F;
  /** An event about an existing message goes only to the watchers who may still see it. */
  toWatchersWhoSee(
    appId: string,
    channel: ChannelRow,
    message: string | EventMessageRef,
    event: object,
  ): Promise<void>;
  /** Announces the message's current state as `message.updated` (or `type`). */
  publishUpdated(
    actor: Actor,
    channel: ChannelRow,
    messageId: string,
    type?: ServerEventType,
  ): Promise<void>;
}

/** What a use-case factory is given: the dependencies and the shared lookups. */
export interface MessagesUseCaseContext extends MessagesContext {
  lookup: MessageLookup;
}

// Stream's words, which its docs' examples match.
function notFound(messageId: string) {
  return chatError.notFound(`message with id ${messageId} doesn't exist`);
}

export function createMessageLookup(context: MessagesContext): MessageLookup {
  const { deps, repo, channels, assembler, events } = context;

  const lookup: MessageLookup = {
    async accessMessage(actor, messageId, options) {
      const row = await repo.get(actor.appId, messageId);
      if (!row) throw notFound(messageId);
      const access = await channels.access(actor, row.cid);
      requirePermission(access.permissions, 'read-channel', `reading channel ${row.cid}`);
      const window = actorWindow(actor, access);
      if (options?.serverAsAuthor && actor.isServer) window.viewerId = row.user_id;
      // Truncated or hidden history (hide_history, clear_history) is gone for this viewer.
      if (!inWindow(window, row)) throw notFound(messageId);
      return { row, access };
    },

    channelAccess(actor, typeName, id) {
      assertChannelType(typeName);
      assertChannelId(id);
      return channels.access(actor, `${typeName}:${id}`);
    },

    async eventMessage(appId, messageId) {
      const row = await repo.get(appId, messageId);
      if (!row) throw notFound(messageId);
      return assembler.one(appId, row, null);
    },

    async viewedBy(actor, messageId) {
      return assembler.one(actor.appId, (await repo.get(actor.appId, messageId))!, actor.userId);
    },

    event: (type, channel, fields) => channelEvent(type, channel, deps.clock.now(), fields),

    toWatchersWhoSee: (appId, channel, message, event) =>
      toWatchersWhoSee(deps.db, events, appId, channel, message, event),

    async publishUpdated(actor, channel, messageId, type = 'message.updated') {
      const row = await repo.get(actor.appId, messageId);
      if (!row) throw notFound(messageId);
      const message = await assembler.one(actor.appId, row, null);
      await lookup.toWatchersWhoSee(
        actor.appId,
        channel,
        row,
        lookup.event(type, channel, { message, user: message.user }),
      );
    },
  };
  return lookup;
}
