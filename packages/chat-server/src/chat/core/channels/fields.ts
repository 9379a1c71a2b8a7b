import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { readImageUrl, readLabel } from '../field-rules.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../json.ts';
import { readConfigOverrides } from '../channel-types/overrides.ts';
import type { ChannelAccess } from './context.ts';

/** Keys of channel data that are not custom. */
export const RESERVED_CHANNEL_KEYS: ReadonlySet<string> = new Set([
  'id',
  'type',
  'cid',
  'name',
  'image',
  'team',
  'members',
  'invites',
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
  'config_overrides',
]);

/** The channel data of a create or update request, checked; a key is present only when the request set it. */
export interface ChannelFields {
  name?: string | null;
  image?: string | null;
  team?: string | null;
  frozen?: boolean;
  disabled?: boolean;
  cooldown?: number;
  /** Checked and serialized; null clears them. */
  configOverrides?: string | null;
  custom: JsonObject;
}

const MAX_COOLDOWN_SECONDS = 120;

/** A slow-mode value; undefined when absent. Stream accepts 0 (off) to 120 seconds. */
export function readCooldown(value: unknown): number | undefined {
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

export function channelFields(data: JsonObject): ChannelFields {
  const fields: ChannelFields = { custom: pickCustom(data, RESERVED_CHANNEL_KEYS, 'channel') };
  if ('name' in data) fields.name = readLabel(data.name, 'channel name');
  if ('image' in data) fields.image = readImageUrl(data.image, 'channel image');
  if (typeof data.team === 'string') fields.team = readLabel(data.team, 'channel team');
  const frozen = readFlag(data, 'frozen');
  if (frozen !== undefined) fields.frozen = frozen;
  const disabled = readFlag(data, 'disabled');
  if (disabled !== undefined) fields.disabled = disabled;
  const cooldown = readCooldown(data.cooldown);
  if (cooldown !== undefined) fields.cooldown = cooldown;
  if (data.config_overrides !== undefined)
    fields.configOverrides = readConfigOverrides(data.config_overrides);
  return fields;
}

/** The creator (`created_by` / `created_by_id`) a create request names, if any. */
export function namedCreator(data: JsonObject): string | null {
  if (typeof data.created_by_id === 'string') return data.created_by_id;
  if (isPlainObject(data.created_by) && typeof data.created_by.id === 'string')
    return data.created_by.id;
  return null;
}

/**
 * Fields beyond a plain channel update: freezing and slow mode are moderation (Stream's UpdateChannelFrozen and
 * UpdateChannelCooldown), and disabling a channel or moving it to a team is the server's decision. Only an actual
 * change is checked, so a client re-sending the channel's current data is not refused.
 */
export function guardChannelFields(
  actor: Actor,
  current: ChannelAccess,
  fields: ChannelFields,
  via: 'update' | 'partial',
): void {
  const { channel, permissions } = current;
  if (fields.frozen !== undefined && fields.frozen !== (channel.frozen === 1))
    requirePermission(permissions, 'freeze-channel', 'freezing the channel');
  if (fields.cooldown !== undefined && fields.cooldown !== channel.cooldown)
    requirePermission(permissions, 'set-channel-cooldown', 'setting slow mode');
  if (actor.isServer) return;
  // Stream's own words for each path, which its docs' examples match.
  const serverOnly = (field: string) =>
    chatError.notAllowed(
      via === 'partial'
        ? `field \`${field}\` can only be updated using server-side auth`
        : `changing channel ${field} is not allowed client-side`,
    );
  if (fields.disabled !== undefined && fields.disabled !== (channel.disabled === 1))
    throw serverOnly('disabled');
  if (fields.team !== undefined && (fields.team ?? null) !== channel.team) throw serverOnly('team');
  // Stream: changing channel-level settings can only be done server-side.
  if (fields.configOverrides !== undefined) throw serverOnly('config_overrides');
}
