import { channelEvent, type ServerEventType } from '../wire/events.ts';
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database, MessagesTable } from '../../../db/schema.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { reusableQuery } from '../../../db/reusable-query.ts';
import { visibleAfter } from '../channels/state.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import type { ChannelAccess, ChannelsService } from '../channels/service.ts';
import { assertChannelId, assertChannelType } from '../channels/service.ts';
import type { ChannelRow } from '../channels/repo.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { isPlainObject, parseObject, pickCustom, type JsonObject } from '../json.ts';
import { OWN_TOTALS_MEMBER_CAP, ownTotalsOfConnected } from '../reads/own-totals.ts';
import type { ReadsRepo } from '../reads/repo.ts';
import type { ThreadsRepo } from '../replies/repo.ts';
import type { UsersService } from '../users/service.ts';
import type { MessageAssembler } from './assembler.ts';
import { createAnnounceOrder } from './announce-order.ts';
import { insertMessageRow } from './insert-statement.ts';
import { parseMessagePage } from './pagination.ts';
import type { MessageRow, MessagesRepo } from './repo.ts';
import { toHardDeletedResponse, type MessageResponse } from './serialize.ts';
import {
  referencedMessage,
  toWatchersWhoSee as publishToWatchersWhoSee,
} from '../access/visibility.ts';

/** Message keys that are not custom data (read-only ones the client echoes back are ignored). */
const RESERVED = new Set([
  'id',
  'cid',
  'type',
  'text',
  'html',
  '__html',
  'user',
  'user_id',
  'attachments',
  'mentioned_users',
  'mentioned_channel',
  'mentioned_here',
  'mentioned_group_ids',
  'mentioned_roles',
  'mentioned_groups',
  'parent_id',
  'show_in_channel',
  'quoted_message_id',
  'quoted_message',
  'silent',
  'shadowed',
  'pinned',
  'pinned_at',
  'pinned_by',
  'pinned_by_id',
  'pin_expires',
  'reply_count',
  'deleted_reply_count',
  'latest_reactions',
  'own_reactions',
  'reaction_counts',
  'reaction_scores',
  'reaction_groups',
  'created_at',
  'updated_at',
  'deleted_at',
  'deleted_for_me',
  'status',
  'thread_participants',
  'i18n',
  'command',
  'command_info',
  'args',
  'channel',
  'error',
  'moderation',
  'moderation_details',
  'restricted_visibility',
  'message_text_updated_at',
  'member',
  'draft',
  'localMetadata',
  'before_message_send_failed',
  'reminder',
  'poll',
  'participants',
]);

// Run in every send's transaction: compiled once (see reusable-query.ts).
const bumpLastMessageAt = reusableQuery<[string, string, string], unknown>(
  3,
  (executor, at, appId, cid) =>
    executor
      .updateTable('channels')
      .set({ last_message_at: at })
      .where('app_id', '=', appId)
      .where('cid', '=', cid),
);
const unhideMembers = reusableQuery<[string, string], unknown>(2, (executor, appId, cid) =>
  executor
    .updateTable('members')
    .set({ hidden: 0 })
    .where('app_id', '=', appId)
    .where('cid', '=', cid)
    .where('hidden', '=', 1),
);

const MESSAGE_ID_PATTERN = /^[\w:.!@-]{1,255}$/;

/** `pin_expires` as stored: absent or null pins for good; anything else must be a date within years 0000–9999. */
function pinExpiry(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const iso = typeof value === 'string' ? normalizeIso(value) : null;
  if (!iso) throw chatError.input('pin_expires must be a date between the years 0000 and 9999');
  return iso;
}
/** SPEC §5: at most 10 files per message (the client's API_MAX_FILES_ALLOWED_PER_MESSAGE). */
const ATTACHMENTS_MAX = 10;

/**
 * A feature module's check on a message about to be inserted (polls validate `poll_id`). It may refuse by throwing,
 * and may return work to run in the insert's transaction.
 */
export type MessageSendHook = (context: {
  actor: Actor;
  access: ChannelAccess;
  userId: string;
  row: Insertable<MessagesTable>;
  custom: JsonObject;
  system: boolean;
  /** The request's top-level `skip_enrich_url` (the client already attached its link previews). */
  skipEnrichUrl: boolean;
}) => Promise<((trx: Transaction<Database>) => Promise<void>) | undefined>;

export interface MessagesService {
  repo: MessagesRepo;
  addSendHook(hook: MessageSendHook): void;
  /** Called after a hard delete with the message's author and attachments (uploads removes the files). */
  onHardDeleted(
    listener: (appId: string, authorId: string, attachments: unknown[]) => Promise<void>,
  ): void;
  send(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ message: MessageResponse }>;
  /** A system message from a channel update/truncate carrying `message`. */
  sendSystem(actor: Actor, channel: ChannelRow, message: JsonObject): Promise<void>;
  update(actor: Actor, messageId: string, body: JsonObject): Promise<{ message: MessageResponse }>;
  partialUpdate(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ message: MessageResponse }>;
  remove(
    actor: Actor,
    messageId: string,
    options: { hard: boolean; deleteForMe: boolean },
  ): Promise<{ message: MessageResponse | Record<string, unknown> }>;
  get(actor: Actor, messageId: string): Promise<{ message: MessageResponse }>;
  getMany(
    actor: Actor,
    typeName: string,
    id: string,
    ids: string[],
  ): Promise<{ messages: MessageResponse[] }>;
  replies(
    actor: Actor,
    parentId: string,
    query: JsonObject,
  ): Promise<{ messages: MessageResponse[] }>;
  pinned(
    actor: Actor,
    typeName: string,
    id: string,
    payload: JsonObject,
  ): Promise<{ messages: MessageResponse[] }>;
  /** Loads a message and the actor's access to its channel (for reactions, threads). */
  accessMessage(
    actor: Actor,
    messageId: string,
  ): Promise<{ row: MessageRow; access: ChannelAccess }>;
  /** The message as carried by shared events (no per-user own_reactions). */
  eventMessage(appId: string, messageId: string): Promise<MessageResponse>;
}

interface Mentions {
  ids: string[];
}

function readMentions(value: unknown): Mentions {
  if (value === undefined || value === null) return { ids: [] };
  if (!Array.isArray(value)) throw chatError.input('mentioned_users must be an array');
  const ids = value.map((entry) => {
    if (typeof entry === 'string') return entry;
    if (isPlainObject(entry) && typeof entry.id === 'string') return entry.id;
    throw chatError.input('mentioned_users must be user ids');
  });
  return { ids: [...new Set(ids)] };
}

function readAttachments(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw chatError.input('attachments must be an array');
  if (value.length > ATTACHMENTS_MAX)
    throw chatError.input(`a message can have at most ${ATTACHMENTS_MAX} attachments`);
  for (const item of value)
    if (!isPlainObject(item)) throw chatError.input('attachments must be objects');
  // Composer-only state never belongs on the server.
  return value.map((item) => {
    const { localMetadata: _local, ...rest } = item as JsonObject;
    return rest;
  });
}

export function createMessagesService(
  deps: ChatDeps,
  repo: MessagesRepo,
  threads: ThreadsRepo,
  reads: ReadsRepo,
  channels: ChannelsService,
  users: UsersService,
  assembler: MessageAssembler,
  events: EventPublisher,
): MessagesService {
  const sendHooks: MessageSendHook[] = [];
  const announceInOrder = createAnnounceOrder();
  const hardDeleteListeners: ((
    appId: string,
    authorId: string,
    attachments: unknown[],
  ) => Promise<void>)[] = [];

  function textOf(value: unknown, maxLength: number): string {
    if (value === undefined || value === null) return '';
    if (typeof value !== 'string') throw chatError.input('message.text must be a string');
    if ([...value].length > maxLength) {
      throw chatError.input(
        `message is too long: the text has ${[...value].length} characters, the limit is ${maxLength}`,
      );
    }
    return value;
  }

  function effectiveMax(access: ChannelAccess): number {
    return Math.min(access.type.config.max_message_length, deps.config.limits.maxMessageLength);
  }

  async function accessMessage(actor: Actor, messageId: string) {
    const row = await repo.get(actor.appId, messageId);
    if (!row) throw chatError.notFound(`message with id ${messageId} does not exist`);
    const access = await channels.access(actor, row.cid);
    requirePermission(access.permissions, 'read-channel', `reading channel ${row.cid}`);
    // Truncated or hidden history (hide_history, clear_history) is gone for this viewer.
    const bound = visibleAfter(access.channel, access.membership);
    if (bound && row.created_at <= bound)
      throw chatError.notFound(`message with id ${messageId} does not exist`);
    return { row, access };
  }

  const baseEvent = <T extends ServerEventType, F extends object>(
    type: T,
    channel: ChannelRow,
    fields: F,
  ) => channelEvent(type, channel, deps.clock.now(), fields);

  async function eventMessage(appId: string, messageId: string): Promise<MessageResponse> {
    const row = await repo.get(appId, messageId);
    if (!row) throw chatError.notFound(`message with id ${messageId} does not exist`);
    return assembler.one(appId, row, null);
  }

  async function publishUpdated(
    actor: Actor,
    channel: ChannelRow,
    messageId: string,
    type: ServerEventType = 'message.updated',
  ): Promise<void> {
    const message = await eventMessage(actor.appId, messageId);
    await toWatchersWhoSee(
      actor.appId,
      channel,
      message.created_at,
      baseEvent(type, channel, { message, user: message.user }),
    );
  }

  /** An event about an existing message goes only to the watchers who may still see it. */
  function toWatchersWhoSee(
    appId: string,
    channel: ChannelRow,
    createdAt: string,
    event: object,
  ): Promise<void> {
    return publishToWatchersWhoSee(deps.db, events, appId, channel, createdAt, event);
  }

  /** The hidden-history bound of `userId` in the channel of `access` (loaded when it is not the actor's own). */
  async function authorBound(
    actor: Actor,
    access: ChannelAccess,
    userId: string,
  ): Promise<string | null> {
    if (userId === actor.userId) return visibleAfter(access.channel, access.membership);
    const member = await channels.repo.member(actor.appId, access.channel.cid, userId);
    return visibleAfter(access.channel, member);
  }

  async function insertMessage(
    actor: Actor,
    access: ChannelAccess,
    input: JsonObject,
    options: { system?: boolean; skipEnrichUrl?: boolean } = {},
  ): Promise<{ row: MessageRow; message: MessageResponse; channel: ChannelRow }> {
    const channel = access.channel;
    const userId = actor.isServer
      ? typeof input.user_id === 'string'
        ? input.user_id
        : isPlainObject(input.user) && typeof input.user.id === 'string'
          ? input.user.id
          : actor.userId
      : actor.userId;
    if (!userId)
      throw chatError.input('message.user or message.user_id is required for server-side sends');
    if (actor.isServer && userId !== actor.userId && !(await users.repo.get(actor.appId, userId))) {
      throw chatError.input(`user ${userId} does not exist`);
    }
    const parentId =
      typeof input.parent_id === 'string' && input.parent_id ? input.parent_id : null;
    // The type's config switches replies off for everyone, the server included (gaming channels).
    if (parentId && !access.type.config.replies)
      throw chatError.input(`replies are disabled for channel type ${access.type.name}`);
    if (!options.system) {
      requirePermission(
        access.permissions,
        parentId ? 'send-reply' : 'send-message',
        `sending a message to ${channel.cid}`,
      );
      if (channel.frozen === 1 && !actor.isServer)
        throw chatError.notAllowed(`channel ${channel.cid} is frozen`);
      if (access.membership?.banned === 1)
        throw chatError.notAllowed('you are banned from this channel');
    }
    const now = deps.clock.now();
    const id =
      input.id === undefined || input.id === null || input.id === ''
        ? crypto.randomUUID()
        : input.id;
    if (typeof id !== 'string' || !MESSAGE_ID_PATTERN.test(id))
      throw chatError.input('message.id has an invalid format');
    const text = textOf(input.text, effectiveMax(access));
    const attachments = readAttachments(input.attachments);
    const mentions = readMentions(input.mentioned_users);
    const custom = pickCustom(input, RESERVED, 'message');
    const type = options.system ? 'system' : parentId ? 'reply' : 'regular';
    if (
      input.type !== undefined &&
      input.type !== 'regular' &&
      input.type !== 'system' &&
      input.type !== 'reply' &&
      input.type !== ''
    ) {
      throw chatError.input(`message type ${String(input.type)} cannot be sent`);
    }
    const silent = input.silent === true;
    const showInChannel = parentId !== null && input.show_in_channel === true;
    const quotedId =
      typeof input.quoted_message_id === 'string' && input.quoted_message_id
        ? input.quoted_message_id
        : null;
    if (quotedId && !access.type.config.quotes)
      throw chatError.input(`quotes are disabled for channel type ${access.type.name}`);

    if (
      channel.cooldown > 0 &&
      !actor.isServer &&
      !access.permissions.has('skip-slow-mode') &&
      !options.system
    ) {
      const last = await deps.db
        .selectFrom('messages')
        .select('created_at')
        .where('app_id', '=', actor.appId)
        .where('cid', '=', channel.cid)
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (last && Date.parse(last.created_at) + channel.cooldown * 1000 > Date.now()) {
        throw chatError.cooldown(`slow mode: wait ${channel.cooldown} seconds between messages`);
      }
    }
    // A duplicate id is caught by the primary key at commit (and reported as "already exists" below).
    let parent: MessageRow | undefined;
    // What the author cannot see, they cannot reply under or quote (a server send acts as its author).
    const bound = parentId || quotedId ? await authorBound(actor, access, userId) : null;
    if (parentId) {
      parent = await referencedMessage(repo, actor.appId, parentId, {
        cid: channel.cid,
        bound,
        what: 'parent message',
        allowDeleted: true,
      });
      if (parent.parent_id)
        throw chatError.nesting('a reply cannot be the parent of another reply');
    }
    if (quotedId) {
      await referencedMessage(repo, actor.appId, quotedId, {
        cid: channel.cid,
        bound,
        what: 'quoted message',
      });
    }
    const existingMentions = mentions.ids.length
      ? await users.repo.getMany(actor.appId, mentions.ids)
      : new Map();
    const row: Insertable<MessagesTable> = {
      app_id: actor.appId,
      id,
      cid: channel.cid,
      user_id: userId,
      type,
      text,
      html: '',
      parent_id: parentId,
      show_in_channel: showInChannel ? 1 : 0,
      quoted_message_id: quotedId,
      attachments: JSON.stringify(attachments),
      mentioned_users: JSON.stringify(mentions.ids.filter((m) => existingMentions.has(m))),
      custom: JSON.stringify(custom),
      silent: silent ? 1 : 0,
      shadowed: 0,
      pinned: 0,
      reply_count: 0,
      deleted_reply_count: 0,
      reaction_groups: '{}',
      created_at: now,
      updated_at: now,
    };
    if (input.pinned === true) {
      requirePermission(access.permissions, 'pin-message', 'pinning a message');
      row.pinned = 1;
      row.pinned_at = now;
      row.pinned_by_id = userId;
      row.pin_expires = pinExpiry(input.pin_expires);
    }
    const inTransaction: ((trx: Transaction<Database>) => Promise<void>)[] = [];
    for (const hook of sendHooks) {
      const work = await hook({
        actor,
        access,
        userId,
        row,
        custom,
        system: options.system === true,
        skipEnrichUrl: options.skipEnrichUrl === true,
      });
      if (work) inTransaction.push(work);
    }
    const bumpsChannel =
      (!parentId || showInChannel) &&
      !(options.system && access.type.config.skip_last_msg_update_for_system_msgs);
    const saved: MessageRow = {
      pinned_at: null,
      pinned_by_id: null,
      pin_expires: null,
      deleted_at: null,
      parent_id: null,
      quoted_message_id: null,
      ...row,
    } as MessageRow;
    // Built before the commit, so the event can go out right after it with no further await: sends committed in one
    // batch are then announced in commit order.
    const message = await assembler.fresh(actor.appId, saved);
    // Stamped only now, with no await before the enqueue: timestamp order = enqueue order = commit order.
    const stamped = deps.clock.now();
    for (const target of [row, saved, message] as {
      created_at?: string;
      updated_at?: string;
      pinned_at?: string | null;
    }[]) {
      target.created_at = stamped;
      target.updated_at = stamped;
      if (target.pinned_at) target.pinned_at = stamped;
    }
    try {
      await deps.writes.run(async (trx) => {
        await insertMessageRow(trx, row);
        for (const work of inTransaction) await work(trx);
        if (bumpsChannel) await bumpLastMessageAt.execute(trx, stamped, actor.appId, channel.cid);
        // A new message brings a hidden channel back for every member, as in Stream.
        await unhideMembers.execute(trx, actor.appId, channel.cid);
        if (parent) await recordReply(trx, actor.appId, channel.cid, parent, userId, stamped);
      });
    } catch (error) {
      if (await repo.get(actor.appId, id))
        throw chatError.input(`message with id ${id} already exists`);
      throw error;
    }
    return {
      row: saved,
      message,
      channel: bumpsChannel ? { ...channel, last_message_at: stamped } : channel,
    };
  }

  async function recordReply(
    trx: Transaction<Database>,
    appId: string,
    cid: string,
    parent: MessageRow,
    userId: string,
    at: string,
  ) {
    await trx
      .updateTable('messages')
      .set({ reply_count: sql`reply_count + 1` })
      .where('app_id', '=', appId)
      .where('id', '=', parent.id)
      .execute();
    await threads.recordReply(trx, {
      appId,
      cid,
      parentId: parent.id,
      parentUserId: parent.user_id,
      userId,
      at,
      countsReply: true,
    });
    // Thread read state: the parent's author has read nothing of the thread yet; a replier has read up to their reply.
    await reads.ensure(trx, {
      app_id: appId,
      cid,
      user_id: parent.user_id,
      thread_id: parent.id,
      last_read: parent.created_at,
    });
    await reads.upsert(trx, {
      app_id: appId,
      cid,
      user_id: userId,
      thread_id: parent.id,
      last_read: at,
      last_read_message_id: null,
    });
  }

  async function announceNew(
    actor: Actor,
    fresh: ChannelRow,
    row: MessageRow,
    message: MessageResponse,
  ): Promise<void> {
    const channel = fresh;
    const event = baseEvent('message.new', fresh, {
      message,
      user: message.user,
      message_id: message.id,
      watcher_count: deps.hub.watcherCount(actor.appId, channel.cid),
      channel_last_message_at: fresh.last_message_at ?? undefined,
      ...(row.parent_id ? { parent_id: row.parent_id } : {}),
    });
    const inChannel = !row.parent_id || row.show_in_channel === 1;

    // Members connected here get their own copy with their unread totals (one grouped query, capped), on their
    // user topic and only to their sockets watching the channel; everyone else gets the shared frame.
    await announceInOrder(`${actor.appId}\n${channel.cid}`, async () => {
      const memberIds =
        fresh.member_count <= OWN_TOTALS_MEMBER_CAP
          ? await channels.repo.memberIds(actor.appId, channel.cid)
          : [];
      const own = await ownTotalsOfConnected(deps.hub, reads, actor.appId, memberIds);
      events.toChannel(actor.appId, channel.cid, event, { skipUserIds: [...own.keys()] });
      events.toEachUser(actor.appId, event, own, { onlyWatchersOf: channel.cid });

      // Members not watching learn about it as notification.message_new (the hub skips their watching sockets).
      const others = inChannel ? memberIds.filter((id) => id !== row.user_id) : [];
      if (others.length === 0) return;
      const notification = baseEvent('notification.message_new', fresh, {
        channel: await channels.eventChannel(fresh),
        message,
        user: message.user,
      });
      const options = { skipWatchersOf: channel.cid };
      const otherIds = new Set(others);
      events.toEachUser(
        actor.appId,
        notification,
        new Map([...own].filter(([id]) => otherIds.has(id))),
        options,
      );
      events.toUsers(
        actor.appId,
        others.filter((id) => !own.has(id)),
        notification,
        options,
      );
    });
    if (row.parent_id) {
      const participants =
        (await threads.participants(actor.appId, [row.parent_id])).get(row.parent_id) ?? [];
      const others = participants.map((p) => p.user_id).filter((id) => id !== row.user_id);
      if (others.length > 0) {
        events.toUsers(
          actor.appId,
          others,
          baseEvent('notification.thread_message_new', fresh, {
            message,
            user: message.user,
            parent_id: row.parent_id,
          }),
        );
      }
      // The parent's reply_count and thread_participants changed.
      await publishUpdated(actor, fresh, row.parent_id);
    }
  }

  async function cidAccess(actor: Actor, typeName: string, id: string): Promise<ChannelAccess> {
    assertChannelType(typeName);
    assertChannelId(id);
    return channels.access(actor, `${typeName}:${id}`);
  }

  function canEdit(actor: Actor, access: ChannelAccess, row: MessageRow): void {
    if (actor.isServer) return;
    if (row.user_id === actor.userId)
      requirePermission(access.permissions, 'update-own-message', 'editing this message');
    else
      requirePermission(access.permissions, 'update-any-message', "editing another user's message");
  }

  /**
   * A poll is attached on send only (the polls module checks its owner and that no other message carries it), so an
   * edit may echo the message's own `poll_id` but never set, change or drop it. A full update that leaves it out
   * keeps it, as it keeps every other reference.
   */
  function keepPoll(stored: JsonObject, next: JsonObject, unset: string[]): void {
    const current = stored.poll_id;
    const given = next.poll_id;
    const refuse = () => chatError.input('poll_id cannot be changed by an update');
    if (unset.includes('poll_id') && current !== undefined) throw refuse();
    if (given === undefined || given === null || given === '') {
      if (current === undefined) delete next.poll_id;
      else next.poll_id = current;
      return;
    }
    if (given !== current) throw refuse();
  }

  async function applyPatch(
    actor: Actor,
    access: ChannelAccess,
    row: MessageRow,
    set: JsonObject,
    unset: string[],
    replaceCustom: boolean,
  ) {
    const now = deps.clock.now();
    const patch: Partial<Insertable<MessagesTable>> = { updated_at: now };
    const pinOnly =
      Object.keys(set).every((k) => k === 'pinned' || k === 'pin_expires' || k === 'pinned_at') &&
      unset.length === 0;
    if (!pinOnly) canEdit(actor, access, row);
    if ('text' in set) patch.text = textOf(set.text, effectiveMax(access));
    if ('attachments' in set) patch.attachments = JSON.stringify(readAttachments(set.attachments));
    if ('mentioned_users' in set) {
      const ids = readMentions(set.mentioned_users).ids;
      const existing = ids.length ? await users.repo.getMany(actor.appId, ids) : new Map();
      patch.mentioned_users = JSON.stringify(ids.filter((id) => existing.has(id)));
    }
    if ('quoted_message_id' in set) {
      const quotedId =
        typeof set.quoted_message_id === 'string' && set.quoted_message_id
          ? set.quoted_message_id
          : null;
      // A quote the edit keeps was checked when it was set; a new one is checked as on send, for the editor.
      if (quotedId && quotedId !== row.quoted_message_id) {
        await referencedMessage(repo, actor.appId, quotedId, {
          cid: row.cid,
          bound: visibleAfter(access.channel, access.membership),
          what: 'quoted message',
        });
      }
      patch.quoted_message_id = quotedId;
    }
    if ('silent' in set) patch.silent = set.silent === true ? 1 : 0;
    if ('show_in_channel' in set && row.parent_id)
      patch.show_in_channel = set.show_in_channel === true ? 1 : 0;
    if ('pinned' in set) {
      const pinned = set.pinned === true;
      if (pinned !== (row.pinned === 1) || 'pin_expires' in set) {
        requirePermission(access.permissions, 'pin-message', 'pinning a message');
        patch.pinned = pinned ? 1 : 0;
        patch.pinned_at = pinned ? now : null;
        patch.pinned_by_id = pinned ? (actor.userId ?? row.user_id) : null;
        patch.pin_expires = pinned ? pinExpiry(set.pin_expires) : null;
      }
    }
    for (const key of unset) {
      if (key === 'pinned')
        Object.assign(patch, { pinned: 0, pinned_at: null, pinned_by_id: null, pin_expires: null });
      if (key === 'text') patch.text = '';
      if (key === 'attachments') patch.attachments = '[]';
      if (key === 'quoted_message_id') patch.quoted_message_id = null;
    }
    // Only a change of the text marks the message edited (not pins, attachments or custom data), as in Stream.
    if (patch.text !== undefined && patch.text !== row.text) patch.message_text_updated_at = now;
    const customInput = pickCustom(set, RESERVED, 'message');
    const stored = parseObject(row.custom);
    const custom = replaceCustom ? customInput : { ...stored, ...customInput };
    for (const key of unset) delete custom[key];
    keepPoll(stored, custom, unset);
    patch.custom = JSON.stringify(custom);
    await deps.writes.run((trx) => repo.update(trx, actor.appId, row.id, patch));
  }

  return {
    repo,
    accessMessage,
    eventMessage,
    addSendHook: (hook) => {
      sendHooks.push(hook);
    },
    onHardDeleted: (listener) => {
      hardDeleteListeners.push(listener);
    },

    async send(actor, typeName, id, body) {
      const access = await cidAccess(actor, typeName, id);
      if (!isPlainObject(body.message)) throw chatError.input('message is required');
      // A new message has no reactions yet, so the sender's copy and the watchers' copy are the same object.
      const { row, channel, message } = await insertMessage(actor, access, body.message, {
        skipEnrichUrl: body.skip_enrich_url === true,
      });
      await announceNew(actor, channel, row, message);
      return { message };
    },

    async sendSystem(actor, channel, input) {
      const access = await channels.accessRow({ ...actor, isServer: true }, channel);
      const inserted = await insertMessage({ ...actor, isServer: true }, access, input, {
        system: true,
      });
      await announceNew(actor, inserted.channel, inserted.row, inserted.message);
    },

    async update(actor, messageId, body) {
      const input = body.message;
      if (!isPlainObject(input)) throw chatError.input('message is required');
      if (input.id !== undefined && input.id !== messageId)
        throw chatError.input('message.id does not match the URL');
      const { row, access } = await accessMessage(actor, messageId);
      if (row.deleted_at) throw chatError.input('a deleted message cannot be updated');
      const set: JsonObject = {
        text: input.text ?? '',
        attachments: input.attachments ?? [],
        mentioned_users: input.mentioned_users ?? [],
        ...input,
      };
      if (!('pinned' in input)) delete set.pinned;
      await applyPatch(actor, access, row, set, [], true);
      await publishUpdated(actor, access.channel, messageId);
      return {
        message: await assembler.one(
          actor.appId,
          (await repo.get(actor.appId, messageId))!,
          actor.userId,
        ),
      };
    },

    async partialUpdate(actor, messageId, body) {
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      const { row, access } = await accessMessage(actor, messageId);
      if (row.deleted_at) throw chatError.input('a deleted message cannot be updated');
      await applyPatch(actor, access, row, set, unset as string[], false);
      await publishUpdated(actor, access.channel, messageId);
      return {
        message: await assembler.one(
          actor.appId,
          (await repo.get(actor.appId, messageId))!,
          actor.userId,
        ),
      };
    },

    async remove(actor, messageId, { hard, deleteForMe }) {
      const { row, access } = await accessMessage(actor, messageId);
      if (deleteForMe) {
        // Stream keeps delete-for-me client-side; the server answers with the message unchanged.
        return { message: await assembler.one(actor.appId, row, actor.userId) };
      }
      if (!actor.isServer) {
        if (row.user_id === actor.userId)
          requirePermission(access.permissions, 'delete-own-message', 'deleting this message');
        else
          requirePermission(
            access.permissions,
            'delete-any-message',
            "deleting another user's message",
          );
      }
      const now = deps.clock.now();
      const before = await assembler.one(actor.appId, row, null);
      if (hard) {
        await deps.writes.run(async (trx) => {
          await repo.remove(trx, actor.appId, row.id);
          if (row.parent_id) {
            await trx
              .updateTable('messages')
              .set({ reply_count: sql`case when reply_count > 0 then reply_count - 1 else 0 end` })
              .where('app_id', '=', actor.appId)
              .where('id', '=', row.parent_id)
              .execute();
          }
        });
        for (const listener of hardDeleteListeners)
          await listener(actor.appId, row.user_id, before.attachments);
        const message = toHardDeletedResponse(before, now);
        await toWatchersWhoSee(
          actor.appId,
          access.channel,
          row.created_at,
          baseEvent('message.deleted', access.channel, {
            message,
            hard_delete: true,
            user: before.user,
          }),
        );
        if (row.parent_id && (await repo.get(actor.appId, row.parent_id)))
          await publishUpdated(actor, access.channel, row.parent_id);
        return { message };
      }
      if (!row.deleted_at) {
        await deps.writes.run(async (trx) => {
          await repo.update(trx, actor.appId, row.id, {
            type: 'deleted',
            deleted_at: now,
            updated_at: now,
          });
          if (row.parent_id) {
            await trx
              .updateTable('messages')
              .set({ deleted_reply_count: sql`deleted_reply_count + 1` })
              .where('app_id', '=', actor.appId)
              .where('id', '=', row.parent_id)
              .execute();
          }
        });
      }
      const message = await eventMessage(actor.appId, row.id);
      await toWatchersWhoSee(
        actor.appId,
        access.channel,
        row.created_at,
        baseEvent('message.deleted', access.channel, {
          message,
          hard_delete: false,
          user: message.user,
        }),
      );
      return {
        message: await assembler.one(
          actor.appId,
          (await repo.get(actor.appId, row.id))!,
          actor.userId,
        ),
      };
    },

    async get(actor, messageId) {
      const { row } = await accessMessage(actor, messageId);
      return { message: await assembler.one(actor.appId, row, actor.userId) };
    },

    async getMany(actor, typeName, id, ids) {
      const access = await cidAccess(actor, typeName, id);
      requirePermission(
        access.permissions,
        'read-channel',
        `reading channel ${access.channel.cid}`,
      );
      if (ids.length === 0) throw chatError.input('ids is required');
      if (ids.length > 100) throw chatError.input('at most 100 ids can be requested');
      const bound = visibleAfter(access.channel, access.membership);
      const rows = [...(await repo.getMany(actor.appId, ids)).values()]
        .filter((r) => r.cid === access.channel.cid && (!bound || r.created_at > bound))
        .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },

    async replies(actor, parentId, query) {
      const { row, access } = await accessMessage(actor, parentId);
      const page = parseMessagePage(query, { limit: 100, max: 300 });
      const rows = await repo.page(
        {
          appId: actor.appId,
          parentId: row.id,
          visibleAfter: visibleAfter(access.channel, access.membership),
        },
        page,
      );
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },

    async pinned(actor, typeName, id, payload) {
      const access = await cidAccess(actor, typeName, id);
      requirePermission(
        access.permissions,
        'read-channel',
        `reading channel ${access.channel.cid}`,
      );
      const limit = typeof payload.limit === 'number' ? payload.limit : 30;
      if (!Number.isInteger(limit) || limit < 0 || limit > 300)
        throw chatError.input('limit must be between 0 and 300');
      const rows = await repo.pinned(
        actor.appId,
        access.channel.cid,
        limit,
        deps.clock.now(),
        visibleAfter(access.channel, access.membership),
      );
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },
  };
}
