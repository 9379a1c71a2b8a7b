import { applyDottedPaths } from './dotted-paths.ts';
import type { Insertable } from 'kysely';
import type { MessagesTable } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { referencedMessage, historyBound, restrictedTo } from '../access/visibility.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { InMessageTransaction } from '../extension-points.ts';
import { isPlainObject, parseObject, pickCustom, type JsonObject } from '../json.ts';
import type { MessagesContext, MessagesUseCaseContext } from './context.ts';
import { messageHtml } from './html.ts';
import {
  optionalId,
  pinExpiry,
  readAttachments,
  readGroupMentions,
  readMentions,
  readRestrictedVisibility,
  readText,
  RESERVED,
} from './input.ts';
import type { MessageRow } from './repo.ts';
import type { MessagesService } from './service.ts';

type MessagePatch = Partial<Insertable<MessagesTable>>;

/** What one update asks for: the keys to set, the keys to drop, and whether custom data is replaced or merged. */
interface Change {
  set: JsonObject;
  unset: string[];
  replaceCustom: boolean;
}

const PIN_KEYS = new Set(['pinned', 'pin_expires', 'pinned_at']);

function canEdit(actor: Actor, access: ChannelAccess, row: MessageRow): void {
  if (actor.isServer) return;
  if (row.user_id === actor.userId)
    requirePermission(access.permissions, 'update-own-message', 'editing this message');
  else
    requirePermission(access.permissions, 'update-any-message', "editing another user's message");
}

/**
 * A poll is attached on send only (the polls extension checks its owner and that no other message carries it), so an
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

/**
 * Only a change of the pin state needs the pin permission, as on Stream: stream-chat's full update echoes the
 * message's own `pinned` and `pin_expires` back (an unpinned message as `pinned: false, pin_expires: null`), so
 * re-sending what is stored changes nothing and is allowed to anyone who may edit the message.
 */
function patchPin(
  actor: Actor,
  access: ChannelAccess,
  row: MessageRow,
  set: JsonObject,
  patch: MessagePatch,
  now: string,
): void {
  if (!('pinned' in set)) return;
  const pinned = set.pinned === true;
  const expires = pinned ? pinExpiry(set.pin_expires) : null;
  const expiryChanged = pinned && 'pin_expires' in set && !sameInstant(expires, row.pin_expires);
  if (pinned === (row.pinned === 1) && !expiryChanged) return;
  requirePermission(access.permissions, 'pin-message', 'pinning a message');
  if (pinned && row.restricted_visibility !== null)
    throw chatError.input('a message with restricted visibility cannot be pinned');
  patch.pinned = pinned ? 1 : 0;
  patch.pinned_at = pinned ? now : null;
  patch.pinned_by_id = pinned ? (actor.userId ?? row.user_id) : null;
  patch.pin_expires = expires;
}

/**
 * Who a message is for is fixed when it is sent, as on Stream: an update may echo its `restricted_visibility` (the
 * client's full update sends the whole message back) but not change or drop it.
 */
function keepAudience(row: MessageRow, set: JsonObject, unset: string[]): void {
  const stored = restrictedTo(row);
  const refuse = () => chatError.input('restricted_visibility cannot be changed by an update');
  if (unset.includes('restricted_visibility') && stored) throw refuse();
  if (!('restricted_visibility' in set)) return;
  const given = readRestrictedVisibility(set.restricted_visibility);
  const same = (a: string[] | null, b: string[] | null) =>
    JSON.stringify([...(a ?? [])].sort()) === JSON.stringify([...(b ?? [])].sort());
  if (!same(given, stored)) throw refuse();
}

function sameInstant(a: string | null, b: string | null): boolean {
  return a === b || (a !== null && b !== null && Date.parse(a) === Date.parse(b));
}

function patchUnset(unset: string[], patch: MessagePatch): void {
  for (const key of unset) {
    if (key === 'pinned')
      Object.assign(patch, { pinned: 0, pinned_at: null, pinned_by_id: null, pin_expires: null });
    if (key === 'text') patch.text = '';
    if (key === 'attachments') patch.attachments = '[]';
    if (key === 'quoted_message_id') patch.quoted_message_id = null;
  }
}

/** The custom data after the change, serialised; the poll reference survives every edit. */
function patchedCustom(row: MessageRow, { set, unset, replaceCustom }: Change): string {
  const customInput = { ...pickCustom(set, RESERVED, 'message'), ...readGroupMentions(set) };
  const stored = parseObject(row.custom);
  const custom = replaceCustom ? customInput : { ...stored, ...customInput };
  for (const key of unset) delete custom[key];
  if (!replaceCustom) applyDottedPaths(custom, unset, RESERVED);
  keepPoll(stored, custom, unset);
  return JSON.stringify(custom);
}

/** Text, attachments, mentions, quote and flags as the change sets them, checked as on send. */
async function patchContent(
  context: Pick<MessagesContext, 'deps' | 'repo' | 'users'>,
  actor: Actor,
  access: ChannelAccess,
  row: MessageRow,
  set: JsonObject,
  patch: MessagePatch,
): Promise<void> {
  if ('text' in set)
    patch.text = readText(set.text, access, context.deps.config.limits.maxMessageLength);
  if ('attachments' in set) patch.attachments = JSON.stringify(readAttachments(set.attachments));
  if ('mentioned_users' in set) {
    const ids = readMentions(set.mentioned_users);
    const existing = ids.length ? await context.users.repo.getMany(actor.appId, ids) : new Map();
    patch.mentioned_users = JSON.stringify(ids.filter((id) => existing.has(id)));
  }
  if ('quoted_message_id' in set) {
    const quotedId = optionalId(set.quoted_message_id);
    // A quote the edit keeps was checked when it was set; a new one is checked as on send, for the editor.
    if (quotedId && quotedId !== row.quoted_message_id) {
      await referencedMessage(context.repo, actor.appId, quotedId, {
        cid: row.cid,
        bound: historyBound(access.channel, access.membership),
        writerId: actor.userId,
        what: 'quoted message',
      });
    }
    patch.quoted_message_id = quotedId;
  }
  if ('silent' in set) patch.silent = set.silent === true ? 1 : 0;
  if ('show_in_channel' in set && row.parent_id)
    patch.show_in_channel = set.show_in_channel === true ? 1 : 0;
}

async function applyChange(
  context: Pick<MessagesContext, 'deps' | 'repo' | 'users' | 'points'>,
  actor: Actor,
  access: ChannelAccess,
  row: MessageRow,
  change: Change,
): Promise<void> {
  const { set, unset } = change;
  const now = context.deps.clock.now();
  const patch: MessagePatch = { updated_at: now };
  keepAudience(row, set, unset);
  const pinOnly = Object.keys(set).every((key) => PIN_KEYS.has(key)) && unset.length === 0;
  if (!pinOnly) canEdit(actor, access, row);
  await patchContent(context, actor, access, row, set, patch);
  patchPin(actor, access, row, set, patch, now);
  patchUnset(unset, patch);
  // Only a change of the text marks the message edited (not pins, attachments or custom data), as in Stream.
  if (patch.text !== undefined && patch.text !== row.text) patch.message_text_updated_at = now;
  if (patch.text !== undefined) patch.html = messageHtml(patch.text);
  patch.custom = patchedCustom(row, change);
  const inTransaction: InMessageTransaction[] = [];
  if (patch.text !== undefined && patch.text !== row.text)
    for (const check of context.points.beforeMessageTextChanged) {
      const work = await check({ actor, access, row, text: patch.text });
      if (work) inTransaction.push(work);
    }
  await context.deps.writes.run(async (trx) => {
    await context.repo.update(trx, actor.appId, row.id, patch);
    for (const work of inTransaction) await work(trx);
  });
}

/** Full (`PUT`-like) and partial (`set`/`unset`) message updates. */
export function createUpdateUseCases(
  context: MessagesUseCaseContext,
): Pick<MessagesService, 'update' | 'partialUpdate'> {
  const { lookup } = context;

  /** Loads the message to change, applies the change, announces it and answers with the actor's view. */
  async function change(actor: Actor, messageId: string, requested: Change) {
    // The server edits any message, one only its author (or its restricted audience) sees included, as it deletes.
    const { row, access } = await lookup.accessMessage(actor, messageId, { serverAsAuthor: true });
    if (row.deleted_at) throw chatError.input('a deleted message cannot be updated');
    // Stream: a pending message is committed or deleted as sent, never edited.
    if (row.pending === 1) throw chatError.input('a pending message cannot be updated');
    const userId = actor.userId ?? row.user_id;
    for (const check of context.points.beforeChannelWrite)
      await check({ actor, access, userId, action: 'update-message' });
    await applyChange(context, actor, access, row, requested);
    await lookup.publishUpdated(actor, access.channel, messageId);
    return { message: await lookup.viewedBy(actor, messageId) };
  }

  return {
    async update(actor, messageId, body) {
      const input = body.message;
      if (!isPlainObject(input)) throw chatError.input('message is required');
      if (input.id !== undefined && input.id !== messageId)
        throw chatError.input('message.id does not match the URL');
      // A full update replaces what it leaves out with the empty value (but never the pin state).
      const set: JsonObject = {
        text: input.text ?? '',
        attachments: input.attachments ?? [],
        mentioned_users: input.mentioned_users ?? [],
        ...input,
      };
      if (!('pinned' in input)) delete set.pinned;
      return change(actor, messageId, { set, unset: [], replaceCustom: true });
    },

    async partialUpdate(actor, messageId, body) {
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      return change(actor, messageId, { set, unset: unset as string[], replaceCustom: false });
    },
  };
}
