import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { ChannelAccess } from '../channels/service.ts';
import { isPlainObject, type JsonObject } from '../json.ts';

/** Message keys that are not custom data (read-only ones the client echoes back are ignored). */
export const RESERVED = new Set([
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

const MESSAGE_ID_PATTERN = /^[\w:.!@-]{1,255}$/;

/** At most 10 files per message (the client's API_MAX_FILES_ALLOWED_PER_MESSAGE). */
const ATTACHMENTS_MAX = 10;

/** The message types a client may send; the server decides between regular, reply and system. */
const SENDABLE_TYPES = new Set([undefined, '', 'regular', 'system', 'reply']);

/** The id a send stores: the client's own (the composer's optimistic message) or a fresh one. */
export function messageId(value: unknown): string {
  const id = value === undefined || value === null || value === '' ? crypto.randomUUID() : value;
  if (typeof id !== 'string' || !MESSAGE_ID_PATTERN.test(id))
    throw chatError.input('message.id has an invalid format');
  return id;
}

export function assertSendableType(value: unknown): void {
  if (!SENDABLE_TYPES.has(value as string | undefined))
    throw chatError.input(`message type ${String(value)} cannot be sent`);
}

/** A non-empty string id (`parent_id`, `quoted_message_id`), or null when absent. */
export function optionalId(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

/** `pin_expires` as stored: absent or null pins for good; anything else must be a date within years 0000–9999. */
export function pinExpiry(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const iso = typeof value === 'string' ? normalizeIso(value) : null;
  if (!iso) throw chatError.input('pin_expires must be a date between the years 0000 and 9999');
  return iso;
}

/** At most this many users in one message's `restricted_visibility`. */
export const MAX_RESTRICTED_VISIBILITY = 100;

/**
 * `restricted_visibility`: the user ids a message is for (its author aside), deduplicated; null when none are given,
 * the message then being for everyone.
 */
export function readRestrictedVisibility(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (
    !Array.isArray(value) ||
    !value.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 255)
  )
    throw chatError.input('restricted_visibility must be a list of user ids');
  if (value.length > MAX_RESTRICTED_VISIBILITY)
    throw chatError.input(
      `restricted_visibility can name at most ${MAX_RESTRICTED_VISIBILITY} users`,
    );
  return value.length === 0 ? null : [...new Set(value as string[])];
}

/** How many users one message may mention: Stream's message docs ("Maximum 25 users"). */
const MAX_MENTIONED_USERS = 25;

/** The mentioned user ids, deduplicated; the client sends ids or user objects. */
export function readMentions(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw chatError.input('mentioned_users must be an array');
  const ids = value.map((entry) => {
    if (typeof entry === 'string') return entry;
    if (isPlainObject(entry) && typeof entry.id === 'string') return entry.id;
    throw chatError.input('mentioned_users must be user ids');
  });
  const unique = [...new Set(ids)];
  if (unique.length > MAX_MENTIONED_USERS)
    throw chatError.input(`mentioned_users can name at most ${MAX_MENTIONED_USERS} users`);
  return unique;
}

const MAX_MENTIONED_ROLES = 10;

/**
 * Stream's group mentions as the message carries them: `mentioned_here` (@here), `mentioned_channel` (@channel) and
 * `mentioned_roles`. They are kept with the message's own data and come back as sent; nothing else reads them.
 */
export function readGroupMentions(input: JsonObject): JsonObject {
  const mentions: JsonObject = {};
  for (const key of ['mentioned_here', 'mentioned_channel'] as const) {
    const value = input[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'boolean') throw chatError.input(`${key} must be a boolean`);
    if (value) mentions[key] = true;
  }
  const roles = input.mentioned_roles;
  if (roles !== undefined && roles !== null) {
    if (
      !Array.isArray(roles) ||
      roles.length > MAX_MENTIONED_ROLES ||
      roles.some((role) => typeof role !== 'string' || role.length === 0 || role.length > 64)
    )
      throw chatError.input(
        `mentioned_roles must be a list of at most ${MAX_MENTIONED_ROLES} role names`,
      );
    if (roles.length > 0) mentions.mentioned_roles = [...new Set(roles as string[])];
  }
  return mentions;
}

export function readAttachments(value: unknown): unknown[] {
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

/** The text as stored, counted in code points against the channel type's and the server's limit. */
export function readText(value: unknown, access: ChannelAccess, serverMax: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw chatError.input('message.text must be a string');
  const maxLength = Math.min(access.type.config.max_message_length, serverMax);
  const length = [...value].length;
  if (length > maxLength) {
    throw chatError.input(
      `message is too long: the text has ${length} characters, the limit is ${maxLength}`,
    );
  }
  return value;
}
