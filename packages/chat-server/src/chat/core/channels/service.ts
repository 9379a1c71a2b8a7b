import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Connection } from '../../../realtime/connection.ts';
import type { Actor } from '../access/access.ts';
import type { JsonObject, JsonText } from '../json.ts';
import {
  createUseCaseContext,
  type ChannelAccess,
  type ChannelsContext,
  type HardDeletedListener,
  type SystemMessageSender,
} from './context.ts';
import { createGetOrCreate } from './create.ts';
import { createDeleteChannel } from './delete.ts';
import { createHideShow } from './hide-show.ts';
import { createMemberUseCases } from './members.ts';
import { createQueryChannels } from './query-channels.ts';
import type { ChannelRow, ChannelsRepo } from './repo.ts';
import type { ChannelResponse, MemberResponse } from './serialize.ts';
import type { ChannelStateResponse } from './state.ts';
import { createTruncateChannel } from './truncate.ts';
import { createUpdateChannel } from './update.ts';
import { createWatcherUseCases } from './watchers.ts';

// Other modules import these from here; their homes are the use-case files beside this one.
export type { ChannelAccess, ChannelsContext, HardDeletedListener } from './context.ts';
export {
  CHANNEL_ID_PATTERN,
  CHANNEL_TYPE_PATTERN,
  assertChannelId,
  assertChannelType,
  distinctId,
  intOption,
} from './ids.ts';

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
  /**
   * getOrCreate for the channel query routes: a viewer with nothing of their own in the channel gets the state as
   * text whose viewer-neutral part is shared with others (shared-state.ts).
   */
  queryAnswer(
    actor: Actor,
    typeName: string,
    id: string | undefined,
    body: JsonObject,
  ): Promise<ChannelStateResponse | JsonText>;
  queryChannels(actor: Actor, body: JsonObject): Promise<ChannelStateResponse[]>;
  /** queryChannels' whole answer: the channels, and what a resolved predefined filter adds. */
  queryChannelsAnswer(
    actor: Actor,
    body: JsonObject,
  ): Promise<{ channels: ChannelStateResponse[] } & JsonObject>;
  update(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse; members: MemberResponse[]; message?: JsonObject }>;
  updatePartial(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse; members: MemberResponse[] }>;
  /**
   * Deletes a channel: for good (`hard`), or softly, truncating it at that moment unless `keepHistory` (Stream's
   * `skip_truncate`), in which case creating it again brings it back with its messages.
   */
  remove(
    actor: Actor,
    typeName: string,
    id: string,
    hard: boolean,
    keepHistory?: boolean,
  ): Promise<{ channel: ChannelResponse }>;
  truncate(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ channel: ChannelResponse; message?: JsonObject }>;
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
  onSystemMessage(send: SystemMessageSender): void;
  /** Registers who cleans up after messages removed with their channel (the uploads feature removes files). */
  onMessagesHardDeleted(listener: HardDeletedListener): void;
  /** Forgets the watches of a closed connection and tells the other watchers. */
  connectionClosed(connection: Connection, watched: string[]): Promise<void>;
  /** Drops pending batched watching events (server shutdown). */
  stop(): void;
}

/** Assembles the channels service from its use cases, which share one context built here. */
export function createChannelsService(context: ChannelsContext): ChannelsService {
  const ctx = createUseCaseContext(context);
  return {
    repo: ctx.repo,
    access: ctx.access,
    accessRow: ctx.accessRow,
    eventChannel: ctx.eventChannel,
    onMessagesHardDeleted(listener) {
      ctx.hooks.messagesHardDeleted.push(listener);
    },
    onSystemMessage(send) {
      ctx.hooks.systemMessage = send;
    },
    ...createGetOrCreate(ctx),
    ...createQueryChannels(ctx),
    ...createUpdateChannel(ctx),
    ...createDeleteChannel(ctx),
    ...createTruncateChannel(ctx),
    ...createHideShow(ctx),
    ...createMemberUseCases(ctx),
    ...createWatcherUseCases(ctx),
  };
}
