import { createHash } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelType, ChannelTypeLookup } from '../channel-types.ts';

export const CHANNEL_TYPE_PATTERN = /^[a-z0-9_-]{1,64}$/;
export const CHANNEL_ID_PATTERN = /^[a-zA-Z0-9_!-]{1,64}$/;

/**
 * Checks a type name's form only: whether the type exists is the app's business (`existingChannelType`); a channel
 * that exists always has an existing type, since a type in use cannot be deleted.
 */
export function assertChannelType(name: unknown): string {
  if (typeof name !== 'string' || !CHANNEL_TYPE_PATTERN.test(name)) {
    throw chatError.input(
      'channel type may only contain lower-case letters, numbers, "_" and "-" (max 64)',
    );
  }
  return name;
}

/** The app's live type of this name, or Stream's code 4 when it has none. */
export function existingChannelType(
  types: ChannelTypeLookup,
  appId: string,
  name: unknown,
): ChannelType {
  const type = types.get(appId, assertChannelType(name));
  if (!type) throw chatError.input(`channel type "${String(name)}" does not exist`);
  return type;
}

export function assertChannelId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !CHANNEL_ID_PATTERN.test(id)) {
    throw chatError.input(
      'channel id may only contain letters, numbers, "_", "-" and "!" (max 64)',
    );
  }
}

/** The cid of a route's type and id, both checked. */
export function cidOf(typeName: string, id: string): string {
  assertChannelType(typeName);
  assertChannelId(id);
  return `${typeName}:${id}`;
}

/** The id and key of the distinct conversation between exactly these members, whatever their order. */
export function distinctId(memberIds: string[]): { id: string; key: string } {
  const key = [...new Set(memberIds)].sort().join(',');
  const hash = createHash('sha256').update(key).digest('base64url').slice(0, 40);
  return { id: `!members-${hash}`, key };
}

export function intOption(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    throw chatError.input(`${name} must be an integer between 0 and ${max}`);
  }
  return value;
}

/** The user a hide or show is for: the caller, or whoever a server call names. */
export function resolveUserId(actor: Actor, bodyUserId: unknown): string {
  if (typeof bodyUserId === 'string' && bodyUserId) {
    if (!actor.isServer && bodyUserId !== actor.userId)
      throw chatError.notAllowed('cannot act for another user');
    return bodyUserId;
  }
  if (!actor.userId) throw chatError.input('user_id is required');
  return actor.userId;
}
