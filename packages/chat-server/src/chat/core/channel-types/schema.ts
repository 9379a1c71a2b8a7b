import { z } from 'zod';
import { PERMISSIONS, ROLES, type Permission } from '../channel-types.ts';
import { CHANNEL_TYPE_PATTERN } from '../channels/ids.ts';

/*
 * The body of createChannelType / updateChannelType. Every key is checked: a switch this server does not know is
 * refused with code 4 naming it, rather than accepted and silently ignored.
 */

const SWITCHES = [
  'typing_events',
  'read_events',
  'connect_events',
  'custom_events',
  'delivery_events',
  'reactions',
  'replies',
  'quotes',
  'search',
  'mutes',
  'uploads',
  'url_enrichment',
  'push_notifications',
  'polls',
  'shared_locations',
  'reminders',
  'user_message_reminders',
  'mark_messages_pending',
  'skip_last_msg_update_for_system_msgs',
  'count_messages',
] as const;

export type SwitchName = (typeof SWITCHES)[number];

/** Stream's upper bound on max_message_length. */
export const MAX_MESSAGE_LENGTH_LIMIT = 20_000;

/** Stream's v2 permission ids that name one of ours differently. */
const PERMISSION_ALIASES: Record<string, Permission> = {
  'create-message': 'send-message',
  'create-attachment': 'upload-file',
  'create-reaction': 'send-reaction',
  'upload-attachment': 'upload-file',
  'add-links': 'send-links',
  'update-message-owner': 'update-own-message',
  'delete-message-owner': 'delete-own-message',
  'update-message': 'update-any-message',
  'delete-message': 'delete-any-message',
  'send-custom-event': 'send-custom-events',
  'ban-channel-member': 'ban-channel-members',
  'read-message-receipts': 'read-events',
};

/** Stream's built-in slash commands and the sets that name several at once. */
export const COMMAND_SETS: Record<string, readonly string[]> = {
  all: ['giphy', 'ban', 'unban', 'mute', 'unmute'],
  fun_set: ['giphy'],
  moderation_set: ['ban', 'unban', 'mute', 'unmute'],
  giphy: ['giphy'],
  ban: ['ban'],
  unban: ['unban'],
  mute: ['mute'],
  unmute: ['unmute'],
};

/** A permission id, ours or Stream's name for it. */
export const permission = z.string().transform((name, ctx) => {
  const known = (PERMISSIONS as readonly string[]).includes(name)
    ? (name as Permission)
    : PERMISSION_ALIASES[name];
  if (!known) ctx.addIssue({ code: 'custom', message: `"${name}" is not a known permission` });
  return known ?? ('read-channel' as Permission);
});

/** Grants keyed by role, each role a known one, each entry checked by `item` (a permission, or a change to one). */
export function grantsOf<T extends z.ZodType<string, string>>(item: T) {
  return z.record(z.string(), z.array(item).max(100)).superRefine((value, ctx) => {
    for (const role of Object.keys(value))
      if (!(ROLES as readonly string[]).includes(role))
        ctx.addIssue({ code: 'custom', path: [role], message: `"${role}" is not a known role` });
  });
}

const grants = grantsOf(permission);

/** Each setting's schema, as createChannelType and updateChannelType check it. */
export const fields = {
  name: z
    .string()
    .regex(
      CHANNEL_TYPE_PATTERN,
      'may only contain lower-case letters, numbers, "_" and "-" (max 64)',
    ),
  ...Object.fromEntries(SWITCHES.map((key) => [key, z.boolean()])),
  max_message_length: z.number().int().min(1).max(MAX_MESSAGE_LENGTH_LIMIT),
  message_retention: z
    .string()
    .regex(/^(infinite|[1-9][0-9]{0,5})$/, 'must be "infinite" or a number of days'),
  automod: z.enum(['disabled', 'simple', 'AI']),
  automod_behavior: z.enum(['flag', 'block']),
  // A block list's name (extensions/moderation/blocklists.ts), or "" for none. A name with no list yet is kept:
  // it matches nothing until a list of that name is created.
  blocklist: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,64}$/, 'must be a block list name (letters, digits, "-", "_") or ""'),
  blocklist_behavior: z.enum(['flag', 'block']),
  commands: z.array(z.enum(Object.keys(COMMAND_SETS) as [string, ...string[]])).max(20),
  grants,
  // Permissions v1 policies: only an empty list is accepted (this server implements v2 grants).
  permissions: z.array(z.never({ error: 'v1 policies are not supported, use grants' })).max(0),
  // Sent by some clients along with any request; carries nothing for the type.
  client_id: z.string(),
  connection_id: z.string(),
} as const;

type Fields = typeof fields;
export type ChannelTypeInput = Partial<{
  [K in keyof Fields]: z.output<Fields[K]>;
}> &
  Partial<Record<SwitchName, boolean>>;

const KNOWN = new Set(Object.keys(fields));

function strictBody(required: readonly 'name'[]) {
  const shape = Object.fromEntries(
    Object.entries(fields).map(([key, schema]) => [
      key,
      (required as readonly string[]).includes(key) ? schema : schema.optional(),
    ]),
  );
  return z.looseObject(shape).superRefine((value, ctx) => {
    for (const key of Object.keys(value))
      if (!KNOWN.has(key))
        ctx.addIssue({ code: 'custom', path: [key], message: 'is not a channel type setting' });
  }) as unknown as z.ZodType<ChannelTypeInput>;
}

export const createChannelTypeBody = strictBody(['name']);
export const updateChannelTypeBody = strictBody([]);
export const channelTypeParams = z.object({ name: z.string() });
