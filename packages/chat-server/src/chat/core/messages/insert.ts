import type { Insertable } from 'kysely';
import type { MessagesTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { referencedMessage, historyBound } from '../access/visibility.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { BeforeMessageStoredContext, InMessageTransaction } from '../extension-points.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../json.ts';
import type { MessagesContext } from './context.ts';
import {
  assertSendableType,
  messageId,
  optionalId,
  pinExpiry,
  readAttachments,
  readGroupMentions,
  readMentions,
  readRestrictedVisibility,
  readText,
  RESERVED,
} from './input.ts';
import { createBansRepo } from '../bans/repo.ts';
import type { MessageRow } from './repo.ts';
import { writesWhenFrozen } from './frozen.ts';
import { createMessageStore, type StoredMessage } from './store.ts';

export interface InsertOptions {
  /** A system message of a channel update or truncate: no send permission, frozen or slow-mode checks. */
  system?: boolean;
  /** The request's top-level options beside `message` (`skip_enrich_url`, `pending`, …). */
  sendOptions?: JsonObject;
}

/** Checks a message to send, lets the `beforeMessageStored` points see it, and stores it (not yet announced). */
export type InsertMessage = (
  actor: Actor,
  access: ChannelAccess,
  input: JsonObject,
  options?: InsertOptions,
) => Promise<StoredMessage>;

/** What a send's body says, checked, before the references and the row. */
interface SendFields {
  id: string;
  text: string;
  attachments: unknown[];
  mentionIds: string[];
  custom: JsonObject;
  type: 'system' | 'reply' | 'regular';
  parentId: string | null;
  quotedId: string | null;
  /** The users the message is restricted to besides its author (Stream's private messaging), or null. */
  restrictedTo: string[] | null;
}

/** The author of a send: the actor, or the user a server-side send names (who must exist). */
async function resolveAuthor(
  context: Pick<MessagesContext, 'users'>,
  actor: Actor,
  input: JsonObject,
): Promise<string> {
  const named =
    typeof input.user_id === 'string'
      ? input.user_id
      : isPlainObject(input.user) && typeof input.user.id === 'string'
        ? input.user.id
        : actor.userId;
  const userId = actor.isServer ? named : actor.userId;
  if (!userId)
    throw chatError.input('message.user or message.user_id is required for server-side sends');
  if (
    actor.isServer &&
    userId !== actor.userId &&
    !(await context.users.repo.get(actor.appId, userId))
  )
    throw chatError.input(`user ${userId} does not exist`);
  return userId;
}

/** Whether the actor may post here at all (a system message skips it). */
function checkMayPost(actor: Actor, access: ChannelAccess, parentId: string | null): void {
  const channel = access.channel;
  // Said before the missing permission a ban causes, so the client shows why.
  if (access.banned) throw chatError.notAllowed(`user ${actor.userId} is banned`);
  requirePermission(
    access.permissions,
    parentId ? 'send-reply' : 'send-message',
    `sending a message to ${channel.cid}`,
  );
  if (channel.frozen === 1 && !writesWhenFrozen(actor, access))
    throw chatError.notAllowed(`channel ${channel.cid} is frozen`);
}

function readFields(
  access: ChannelAccess,
  input: JsonObject,
  parentId: string | null,
  options: { system: boolean; maxMessageLength: number },
): SendFields {
  const id = messageId(input.id);
  const text = readText(input.text, access, options.maxMessageLength);
  const attachments = readAttachments(input.attachments);
  const mentionIds = readMentions(input.mentioned_users);
  const custom = { ...pickCustom(input, RESERVED, 'message'), ...readGroupMentions(input) };
  assertSendableType(input.type);
  const quotedId = optionalId(input.quoted_message_id);
  if (quotedId && !access.type.config.quotes)
    throw chatError.input(`quotes are disabled for channel type ${access.type.name}`);
  const type =
    options.system || input.type === 'system' ? 'system' : parentId ? 'reply' : 'regular';
  const restrictedTo = readRestrictedVisibility(input.restricted_visibility);
  return { id, text, attachments, mentionIds, custom, type, parentId, quotedId, restrictedTo };
}

/** One send being checked: who acts, in which channel, and as which author. */
interface SendScope {
  actor: Actor;
  access: ChannelAccess;
  userId: string;
}

/** Slow mode: a user waits `cooldown` seconds between messages unless allowed to skip it. */
async function checkCooldown(
  context: Pick<MessagesContext, 'deps'>,
  { actor, access, userId }: SendScope,
): Promise<void> {
  const channel = access.channel;
  if (channel.cooldown <= 0 || actor.isServer || access.permissions.has('skip-slow-mode')) return;
  const last = await context.deps.db
    .selectFrom('messages')
    .select('created_at')
    .where('app_id', '=', actor.appId)
    .where('cid', '=', channel.cid)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (last && Date.parse(last.created_at) + channel.cooldown * 1000 > Date.now())
    throw chatError.cooldown(`slow mode: wait ${channel.cooldown} seconds between messages`);
}

/** The author's hidden-history bound: a server send acts as its author, who may not see what the actor sees. */
async function authorBound(
  context: Pick<MessagesContext, 'channels'>,
  { actor, access, userId }: SendScope,
): Promise<string | null> {
  if (userId === actor.userId) return historyBound(access.channel, access.membership);
  const member = await context.channels.repo.member(actor.appId, access.channel.cid, userId);
  return historyBound(access.channel, member);
}

/** The parent a reply goes under; the quote is only checked. What the author cannot see, they cannot refer to. */
async function resolveReferences(
  context: Pick<MessagesContext, 'repo' | 'channels'>,
  scope: SendScope,
  { parentId, quotedId }: SendFields,
): Promise<MessageRow | undefined> {
  if (!parentId && !quotedId) return undefined;
  const bound = await authorBound(context, scope);
  const { appId } = scope.actor;
  const cid = scope.access.channel.cid;
  let parent: MessageRow | undefined;
  if (parentId) {
    parent = await referencedMessage(context.repo, appId, parentId, {
      cid,
      bound,
      writerId: scope.userId,
      what: 'parent message',
      allowDeleted: true,
    });
    if (parent.parent_id) throw chatError.nesting('a reply cannot be the parent of another reply');
  }
  if (quotedId)
    await referencedMessage(context.repo, appId, quotedId, {
      cid,
      bound,
      what: 'quoted message',
      writerId: scope.userId,
    });
  return parent;
}

async function buildRow(
  context: Pick<MessagesContext, 'deps' | 'users'>,
  { actor, access, userId }: SendScope,
  fields: SendFields,
  input: JsonObject,
): Promise<Insertable<MessagesTable>> {
  const now = context.deps.clock.now();
  // Mentions of users that do not exist are dropped, not refused.
  const existing = fields.mentionIds.length
    ? await context.users.repo.getMany(actor.appId, fields.mentionIds)
    : new Map();
  const row: Insertable<MessagesTable> = {
    app_id: actor.appId,
    id: fields.id,
    cid: access.channel.cid,
    user_id: userId,
    type: fields.type,
    text: fields.text,
    html: '',
    parent_id: fields.parentId,
    show_in_channel: fields.parentId !== null && input.show_in_channel === true ? 1 : 0,
    quoted_message_id: fields.quotedId,
    attachments: JSON.stringify(fields.attachments),
    mentioned_users: JSON.stringify(fields.mentionIds.filter((id) => existing.has(id))),
    custom: JSON.stringify(fields.custom),
    silent: input.silent === true ? 1 : 0,
    restricted_visibility: fields.restrictedTo ? JSON.stringify(fields.restrictedTo) : null,
    shadowed: 0,
    pending: 0,
    pinned: 0,
    reply_count: 0,
    deleted_reply_count: 0,
    reaction_groups: '{}',
    created_at: now,
    updated_at: now,
  };
  if (input.pinned === true) {
    requirePermission(access.permissions, 'pin-message', 'pinning a message');
    // A pin calls everyone's attention to a message, which a restricted one is not for (as on Stream).
    if (fields.restrictedTo)
      throw chatError.input('a message with restricted visibility cannot be pinned');
    Object.assign(row, {
      pinned: 1,
      pinned_at: now,
      pinned_by_id: userId,
      pin_expires: pinExpiry(input.pin_expires),
    });
  }
  return row;
}

/** The rows the visibility rule's SQL looks a restricted message's readers up in (migration 0027). */
function recordAudience(row: Insertable<MessagesTable>, userIds: string[]): InMessageTransaction {
  return async (trx) => {
    await trx
      .insertInto('message_visibility')
      .values(
        userIds.map((userId) => ({ app_id: row.app_id, message_id: row.id, user_id: userId })),
      )
      .execute();
  };
}

/** Runs the `beforeMessageStored` points in order; the work they hand back runs in the insert's transaction. */
async function runChecks(
  context: Pick<MessagesContext, 'points'>,
  check: BeforeMessageStoredContext,
): Promise<InMessageTransaction[]> {
  const inTransaction: InMessageTransaction[] = [];
  for (const point of context.points.beforeMessageStored) {
    const work = await point(check);
    if (work) inTransaction.push(work);
  }
  return inTransaction;
}

export function createMessageInsert(context: MessagesContext): InsertMessage {
  const store = createMessageStore(context);
  const bans = createBansRepo(context.deps.db);
  return async (actor, access, input, options = {}) => {
    const system = options.system === true;
    const userId = await resolveAuthor(context, actor, input);
    const scope = { actor, access, userId };
    const parentId = optionalId(input.parent_id);
    // The type's config switches replies off for everyone, the server included (gaming channels).
    if (parentId && !access.type.config.replies)
      throw chatError.input(`replies are disabled for channel type ${access.type.name}`);
    if (!system) checkMayPost(actor, access, parentId);
    if (input.type === 'system' && !actor.isServer)
      requirePermission(access.permissions, 'create-system-message', 'sending a system message');
    const { maxMessageLength } = context.deps.config.limits;
    const fields = readFields(access, input, parentId, { system, maxMessageLength });
    if (fields.restrictedTo && !actor.isServer)
      requirePermission(
        access.permissions,
        'create-restricted-visibility-message',
        'sending a message with restricted visibility',
      );
    if (!system) await checkCooldown(context, scope);
    const parent = await resolveReferences(context, scope, fields);
    const row = await buildRow(context, scope, fields, input);
    // A shadow-banned author's message is stored as sent and shown to them alone (visibility.ts).
    if (!system && (await bans.shadowed(actor.appId, userId, access.channel.cid, row.created_at)))
      row.shadowed = 1;
    const sendOptions = options.sendOptions ?? {};
    const settled: (() => void)[] = [];
    try {
      const inTransaction = await runChecks(context, {
        ...scope,
        row,
        custom: fields.custom,
        system,
        skipEnrichUrl: sendOptions.skip_enrich_url === true,
        input,
        sendOptions,
        onSettled: (cleanup) => settled.push(cleanup),
      });
      if (fields.restrictedTo) inTransaction.push(recordAudience(row, fields.restrictedTo));
      return await store({ actor, access, row, parent, inTransaction, system });
    } finally {
      for (const cleanup of settled) cleanup();
    }
  };
}
