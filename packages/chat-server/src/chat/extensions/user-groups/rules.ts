import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';

/** docs/product-rules.md "User groups" lists these limits; a request past one gets code 4 naming it. */
export const GROUP_LIMITS = {
  idLength: 255,
  nameLength: 255,
  descriptionLength: 1024,
  membersPerRequest: 100,
  membersPerGroup: 1000,
  groupsPerApp: 1000,
  /** Groups one user may create from a client, so no one fills the app's share alone. */
  groupsPerCreator: 20,
  /** Groups one message may mention. */
  mentionsPerMessage: 10,
} as const;

const GROUP_ID = /^[\w@.-]+$/;

export function checkGroupId(id: string, field = 'id'): string {
  if (id.length === 0 || id.length > GROUP_LIMITS.idLength || !GROUP_ID.test(id))
    throw chatError.input(
      `${field} must be 1 to ${GROUP_LIMITS.idLength} letters, digits, _, -, @ or .`,
    );
  return id;
}

export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > GROUP_LIMITS.nameLength)
    throw chatError.input(`name must be 1 to ${GROUP_LIMITS.nameLength} characters`);
  return trimmed;
}

export function checkDescription(description: string | null | undefined): string | null {
  if (description === undefined || description === null || description === '') return null;
  if (description.length > GROUP_LIMITS.descriptionLength)
    throw chatError.input(
      `description must be at most ${GROUP_LIMITS.descriptionLength} characters`,
    );
  return description;
}

/** The member ids of one request, deduplicated; at most 100, as on Stream. */
export function checkMemberIds(ids: readonly string[], required: boolean): string[] {
  const unique = [...new Set(ids)];
  if (required && unique.length === 0) throw chatError.input('member_ids must not be empty');
  if (unique.length > GROUP_LIMITS.membersPerRequest)
    throw chatError.input(
      `member_ids must list at most ${GROUP_LIMITS.membersPerRequest} users per request`,
    );
  if (unique.some((id) => id.length === 0)) throw chatError.input('member_ids must be user ids');
  return unique;
}

/** Stream's query limits: a number string in the query, 1 to `max`. */
export function pageLimit(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    throw chatError.input(`limit must be an integer between 1 and ${max}`);
  return limit;
}

/** Any user may create a group from a client, as Stream's docs do; guests and anonymous visitors may not. */
export function requireCreator(actor: Actor): void {
  if (actor.isServer) return;
  if (!actor.userId || actor.role === 'anonymous' || actor.role === 'guest')
    throw chatError.notAllowed('guests and anonymous users cannot create user groups');
}

/**
 * Changing a group, its members or deleting it: the server, the app's moderators and admins, the group's creator and
 * the members it made admins.
 */
export function requireManager(
  actor: Actor,
  group: { id: string; created_by: string | null },
  admins: readonly string[],
): void {
  if (actor.isServer || actor.role === 'admin' || actor.role === 'moderator') return;
  const userId = actor.userId;
  if (userId && (group.created_by === userId || admins.includes(userId))) return;
  throw chatError.notAllowed(
    `only the creator or an admin of user group ${group.id} may change it`,
  );
}

/** Any signed-in user (guests too) may read groups: the composer's `@` autocomplete searches them. */
export function requireReader(actor: Actor): void {
  if (!actor.isServer && (!actor.userId || actor.role === 'anonymous'))
    throw chatError.notAllowed('anonymous users may not read user groups');
}
