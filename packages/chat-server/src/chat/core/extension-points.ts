import type { Insertable, RawBuilder, Transaction } from 'kysely';
import type { Database, MessagesTable } from '../../db/schema.ts';
import type { Actor } from './access/access.ts';
import type { ChannelAccess } from './channels/service.ts';
import type { ChannelStateEnricher } from './channels/state.ts';
import type { JsonObject } from './json.ts';
import type { MessageEnricher } from './messages/assembler.ts';
import type { MessageRow } from './messages/repo.ts';
import type { UserRow } from './users/repo.ts';
import type { OwnUserResponse } from './users/me.ts';
import type { UserResponse } from './users/serialize.ts';

/** What an own-user part is given: the user, their public object and the time of the request. */
export interface OwnUserContext {
  appId: string;
  row: UserRow;
  self: UserResponse;
  now: string;
}

/**
 * Fields an extension adds to the signed-in user's own object (`me` of `health.check`, mute events): mutes, blocked
 * users, live locations. Parts run concurrently and their fields are spread over the core's in registration order,
 * so two parts must not fill the same field.
 */
export interface OwnUserPart {
  read(context: OwnUserContext): Promise<Partial<OwnUserResponse>>;
  /**
   * The part for a user the handshake has just created. Nothing can name a user before their row exists (members
   * and groups need existing users, a hard delete forgets a user everywhere), so there is nothing to read: a
   * reconnect storm of new users skips every part's queries. A new object each time: `me` is the caller's to keep.
   */
  empty(): Partial<OwnUserResponse>;
}

/** What a check on a message about to be stored is given. */
export interface BeforeMessageStoredContext {
  actor: Actor;
  access: ChannelAccess;
  /** The author: the actor, or for a server-side send the user it sends as. */
  userId: string;
  /** The row about to be inserted; a check may change it (link previews add an attachment). */
  row: Insertable<MessagesTable>;
  /** The message's custom data, already serialised into `row.custom`; a check that changes it reserialises it. */
  custom: JsonObject;
  /** A system message of a channel update or truncate. */
  system: boolean;
  /** The request's top-level `skip_enrich_url` (the client already attached its link previews). */
  skipEnrichUrl: boolean;
  /** The message as the request sent it, reserved fields included (user groups read `mentioned_group_ids`). */
  input: JsonObject;
  /**
   * The send's top-level options beside `message` (`pending`, `pending_message_metadata`, …), as the route's schema
   * checked them; empty for system messages.
   */
  sendOptions: JsonObject;
  /**
   * Registers cleanup to run once the send is over, stored or refused (a later check's refusal included), for
   * state a check keeps beside the row until then.
   */
  onSettled(cleanup: () => void): void;
}

/** Work a check hands back to run in the message's insert transaction (a poll records the message carrying it). */
export type InMessageTransaction = (trx: Transaction<Database>) => Promise<void>;

/**
 * A check on a message about to be stored (sends and system messages alike). It may refuse by throwing, change the
 * row, and return work for the insert's transaction. Checks run one after another in registration order, and the
 * first refusal stops the send: the composition root registers those that only refuse (blocked direct messages),
 * then those that validate what they own (shared locations, polls), and last link enrichment, so that a refused
 * message never makes the server fetch anything.
 */
export type BeforeMessageStored = (
  context: BeforeMessageStoredContext,
) => Promise<InMessageTransaction | undefined>;

/** What a check on an edit that changes a message's text is given. */
export interface BeforeMessageTextChangedContext {
  actor: Actor;
  access: ChannelAccess;
  /** The message as stored before the edit. */
  row: MessageRow;
  /** The new text. */
  text: string;
}

/**
 * A check on an edit that changes a message's text (full and partial updates alike), so an edit cannot carry what a
 * send may not (block lists). It may refuse by throwing, or return work for the update's transaction.
 */
export type BeforeMessageTextChanged = (
  context: BeforeMessageTextChangedContext,
) => Promise<InMessageTransaction | undefined>;

/** A message whose row is gone: its author and the attachments it carried. */
export interface HardDeletedMessage {
  appId: string;
  authorId: string;
  attachments: unknown[];
}

/**
 * Told, after the commit, of each hard-deleted message (one message, or those removed with a channel's history),
 * in registration order, one message after another. Uploads removes the author's files.
 */
export type MessageHardDeleted = (message: HardDeletedMessage) => Promise<void>;

/**
 * Told, after the commit, of each hard-deleted user, in registration order, so what an extension keeps about them
 * (mutes, blocks, flags) goes with them: a user created again under the same id starts clean, as on Stream.
 */
export type UserHardDeleted = (user: { appId: string; userId: string }) => Promise<void>;

/**
 * Fields an extension adds to every message it is assembled for a viewer (polls → `poll`, live locations →
 * `shared_location`, reminders → the viewer's own `reminder`), loaded in bulk per batch of messages. They run one
 * after another, in registration order, once the core has built the messages; two must not fill the same field. A null viewer means the payload is shared by every watcher (events).
 */
export type MessageFields = MessageEnricher;

/**
 * Per-viewer fields an extension adds to channel states (drafts → `draft`), by cid, loaded in bulk for a page of
 * channels after the core has built the states; spread in registration order.
 */
export type ChannelStateFields = ChannelStateEnricher;

/**
 * Per-viewer fields an extension adds to the channel object of channel states (blocks → `blocked`, `hidden`), by
 * cid, loaded in bulk like `channelStateFields`; spread over the core's channel object in registration order.
 */
export type ChannelFields = ChannelStateEnricher;

/**
 * A condition, in SQL over the queried channel `c`, under which a channel counts as hidden for `viewerId` although
 * their membership is not hidden (blocks: a one-to-one conversation with someone they blocked). queryChannels leaves
 * such channels out unless the filter asks about `hidden`, exactly as channels the viewer hid themselves.
 */
export type ChannelHiddenCondition = (viewerId: string) => RawBuilder<boolean>;

/**
 * A condition, in SQL over the message `msg` and the read state `r`, under which the message is left out of
 * `r.user_id`'s unread counts although they may read it (blocks: what someone they blocked wrote in a one-to-one
 * conversation). Read when the counting statement is first built, so extensions plug in at start-up.
 */
export type UnreadExclusion = () => RawBuilder<boolean>;

/** A user-driven write into a channel other than a new message (edits, reactions), before it is stored. */
export interface BeforeChannelWriteContext {
  actor: Actor;
  access: ChannelAccess;
  /** Whose write it is: the actor, or the user a server-side call acts for. */
  userId: string;
  action: 'update-message' | 'send-reaction';
}

/** Refuses a write by throwing; runs in registration order, like `beforeMessageStored`. */
export type BeforeChannelWrite = (context: BeforeChannelWriteContext) => Promise<void>;

/** One channel event about to be published: the channel it belongs to and the user it comes from. */
export interface ChannelEventOrigin {
  appId: string;
  cid: string;
  userId: string;
  /** The channel's member count when the event carries it (`channel_member_count`). */
  memberCount?: number;
}

/**
 * Who must not receive an event a user caused in a channel (blocks: the blocker, in a one-to-one conversation with
 * the blocked user). Answers the user ids to leave out, at once when it can tell without a lookup (every event goes
 * through it); the publisher keeps events of one channel in order.
 */
export type EventAudienceFilter = (origin: ChannelEventOrigin) => string[] | Promise<string[]>;

/**
 * Something done that another user may be told of, reported after its commit: a message stored (sends and system
 * messages), a reaction stored, members added to a channel, a reminder come due.
 */
export type Activity =
  | { kind: 'message'; appId: string; message: MessageRow }
  | { kind: 'reaction'; appId: string; message: MessageRow; userId: string; type: string }
  | { kind: 'members-added'; appId: string; cid: string; actorId: string | null; userIds: string[] }
  | { kind: 'reminder-due'; appId: string; userId: string; message: MessageRow };

/** A queryChannels request as the core runs it, and the top-level fields its answer carries beside `channels`. */
export interface ResolvedChannelQuery {
  body: JsonObject;
  answer: JsonObject;
}

/**
 * Expands a queryChannels request naming a `predefined_filter` (predefined filters) into the `filter_conditions` and
 * `sort` the core runs, plus what the answer adds (`predefined_filter`). Answers undefined for a request it does not
 * handle; resolvers are asked in registration order and the first answer wins. A request naming a predefined filter
 * that no resolver handles is refused (code 4).
 */
export type ChannelQueryResolver = (
  actor: Actor,
  body: JsonObject,
) => Promise<ResolvedChannelQuery | undefined>;

/**
 * Users stored messages mention beyond their `mentioned_users` (user groups: the mentioned groups' members who are
 * members of the channel), by message id; a message mentioning nobody more may be left out. Asked for a batch of
 * messages at once (notifications hand over every message waiting to be recorded, so a burst of sends costs one
 * lookup), every resolver in registration order, the union treated like `mentioned_users`.
 */
export type MentionedUsersResolver = (
  appId: string,
  messages: readonly MessageRow[],
) => Promise<Map<string, string[]>>;

/**
 * Poll copies for messages sent to many targets at once (campaigns: a poll is on one message at most, so each target's
 * message carries its own copy of the template poll, its votes its own). The first registered copier is used.
 */
export interface PollCopier {
  /** Whether the poll exists (a campaign naming an unknown template poll is refused when stored). */
  exists(appId: string, pollId: string): Promise<boolean>;
  /**
   * Copies the poll's fields and options, no votes, under `id`, created by `createdById` and on no message yet. A copy
   * already stored under `id` (an earlier attempt) is kept as it is. False when the source poll is gone.
   */
  copy(input: {
    appId: string;
    sourceId: string;
    id: string;
    createdById: string;
  }): Promise<boolean>;
  /** Removes a copy that is on no message (its send was refused), so refused targets leave no stray polls. */
  discard(appId: string, id: string): Promise<void>;
}

/** Told of each activity (notifications). The core does not wait for it, and its failure never fails a request. */
export type ActivityListener = (activity: Activity) => Promise<void>;

/** Hands `activity` to every listener without waiting; a listener that fails is its own business (it logs). */
export function reportActivity(
  listeners: readonly ActivityListener[] | undefined,
  activity: Activity,
): void {
  for (const listener of listeners ?? []) listener(activity).catch(() => undefined);
}

/**
 * The core's extension points. Extensions register here while the composition root (`chat/services.ts`) installs
 * them; nothing is registered after start-up. docs/architecture.md lists every point and its order.
 */
export interface ExtensionPoints {
  ownUser: OwnUserPart[];
  beforeMessageStored: BeforeMessageStored[];
  beforeMessageTextChanged: BeforeMessageTextChanged[];
  messageHardDeleted: MessageHardDeleted[];
  userHardDeleted: UserHardDeleted[];
  messageFields: MessageFields[];
  channelStateFields: ChannelStateFields[];
  channelFields: ChannelFields[];
  channelHidden: ChannelHiddenCondition[];
  beforeChannelWrite: BeforeChannelWrite[];
  eventAudience: EventAudienceFilter[];
  unreadExcluded: UnreadExclusion[];
  activity: ActivityListener[];
  mentionedUsers: MentionedUsersResolver[];
  channelQuery: ChannelQueryResolver[];
  pollCopiers: PollCopier[];
}

export function createExtensionPoints(): ExtensionPoints {
  return {
    ownUser: [],
    beforeMessageStored: [],
    beforeMessageTextChanged: [],
    messageHardDeleted: [],
    userHardDeleted: [],
    messageFields: [],
    channelStateFields: [],
    channelFields: [],
    channelHidden: [],
    beforeChannelWrite: [],
    eventAudience: [],
    unreadExcluded: [],
    activity: [],
    mentionedUsers: [],
    channelQuery: [],
    pollCopiers: [],
  };
}
