import { chatError } from '../../../errors.ts';
import {
  banHolds,
  ownerFacts,
  requirePermission,
  requireServerSide,
  type Actor,
  type MembershipFacts,
} from '../access/access.ts';
import { MAX_MEMBERS_PER_REQUEST } from '../field-rules.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../json.ts';
import type { ChannelAccess, ChannelUseCaseContext } from './context.ts';
import type { MemberRow } from './repo.ts';

/** One entry of a members list in a request (`members`, `add_members`, `invites`, ...). */
export interface MemberInput {
  user_id: string;
  channel_role?: string;
  /** The member's own custom data given with the entry (`{user_id, code_name: '007'}`), kept on the membership. */
  custom?: JsonObject;
}

/** Keys of a membership that are not custom data. */
export const MEMBER_RESERVED: ReadonlySet<string> = new Set([
  'pinned',
  'archived',
  'channel_role',
  'role',
  'is_moderator',
  'user_id',
  'user',
  'created_at',
  'updated_at',
  'banned',
  'shadow_banned',
  'ban_expires',
  'notifications_muted',
  'hidden',
  'invited',
  'invite_accepted_at',
  'invite_rejected_at',
  'pinned_at',
  'archived_at',
  'status',
]);

export function readMemberInputs(value: unknown, what: string): MemberInput[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw chatError.input(`${what} must be an array`);
  if (value.length > MAX_MEMBERS_PER_REQUEST)
    throw chatError.input(
      `${what} can hold at most ${MAX_MEMBERS_PER_REQUEST} members per request`,
    );
  return value.map((entry) => readMemberInput(entry, what));
}

function readMemberInput(entry: unknown, what: string): MemberInput {
  if (typeof entry === 'string') return { user_id: entry };
  if (isPlainObject(entry)) {
    const id = entry.user_id ?? (isPlainObject(entry.user) ? entry.user.id : undefined);
    if (typeof id !== 'string' || !id) throw chatError.input(`${what} entries need a user_id`);
    const role = entry.channel_role;
    if (
      role !== undefined &&
      role !== 'channel_member' &&
      role !== 'channel_moderator' &&
      role !== 'owner'
    ) {
      throw chatError.input(`unknown channel_role ${String(role)}`);
    }
    const custom = pickCustom(entry, MEMBER_RESERVED, 'member');
    return {
      user_id: id,
      ...(role ? { channel_role: role as string } : {}),
      ...(Object.keys(custom).length > 0 ? { custom } : {}),
    };
  }
  throw chatError.input(`${what} entries must be user ids or {user_id}`);
}

/** Whether any entry asks for more than plain membership (a moderator or owner role). */
export function grantsRole(inputs: MemberInput[]): boolean {
  return inputs.some((m) => m.channel_role !== undefined && m.channel_role !== 'channel_member');
}

/**
 * Giving a role to people as they are added or invited to an existing channel. The server may give any; a client, as
 * Stream's docs show a channel's owner doing, only `channel_moderator`, and only from a rank above it (the owner, or
 * the app's moderators and admins). Promoting someone who is already a member stays server-side (`add_moderators`,
 * `assign_roles`), and so do roles in a channel being created.
 */
export function requireRightToGiveRoles(
  actor: Actor,
  current: { createdById: string | null; membership: MemberRow | undefined },
  inputs: MemberInput[],
): void {
  if (actor.isServer || !grantsRole(inputs)) return;
  if (inputs.some((m) => m.channel_role === 'owner'))
    throw chatError.notAllowed('the owner role can only be given server-side');
  // Standing as the access rule sees it: the creator owns the channel, member or not.
  const standing = ownerFacts(actor, current.createdById, memberFacts(current.membership));
  if (rankOf(actor.role, standing) <= CHANNEL_RANK.get('channel_moderator')!)
    throw chatError.notAllowed(
      'giving the channel_moderator role needs a higher role in the channel',
    );
}

/** Stream documents promoting and demoting as server-side only; no client role, not even an admin's, grants it. */
export function requireServerForRoles(actor: Actor, what: string): void {
  requireServerSide(actor, `${what} is only allowed server-side`);
}

const GLOBAL_RANK = new Map([
  ['moderator', 3],
  ['admin', 4],
]);
const CHANNEL_RANK = new Map([
  ['channel_member', 0],
  ['channel_moderator', 1],
  ['owner', 2],
]);

/**
 * How far up someone stands in a channel: owner above channel moderators above members, and the app's moderators and
 * admins above them all. Removing someone else takes a strictly higher rank, so no one removes their equal or the
 * owner of a group, except staff.
 */
function rankOf(globalRole: string, standing: MembershipFacts | null): number {
  const role = standing && !standing.banned ? standing.channelRole : null;
  const channelRank = role ? (CHANNEL_RANK.get(role) ?? 0) : 0;
  return Math.max(GLOBAL_RANK.get(globalRole) ?? 0, channelRank);
}

function memberFacts(member: MemberRow | undefined): MembershipFacts | null {
  return member
    ? { channelRole: member.channel_role, banned: banHolds(member.banned, member.ban_expires) }
    : null;
}

/**
 * Adding or inviting people: the member-update permission, or `join-channel` for adding only oneself (a user
 * joining a livestream, as on Stream); never into a distinct conversation (as Stream).
 */
export function requireAddRights(actor: Actor, current: ChannelAccess, added: string[]): void {
  const joiningAlone =
    actor.userId !== null && added.length > 0 && added.every((id) => id === actor.userId);
  if (!(joiningAlone && current.permissions.has('join-channel')))
    requirePermission(current.permissions, 'update-channel-members', 'adding channel members');
  if (current.channel.distinct_key !== null && !actor.isServer)
    throw chatError.notAllowed(
      'members cannot be added to a distinct channel: create a new channel with the desired members',
    );
}

/** Leaving is a member's own right; removing anyone else takes the member-update permission and a higher rank. */
export async function requireRemoveRights(
  ctx: Pick<ChannelUseCaseContext, 'repo' | 'users'>,
  actor: Actor,
  current: ChannelAccess,
  removes: string[],
): Promise<void> {
  if (actor.userId && removes.includes(actor.userId))
    requirePermission(current.permissions, 'leave-channel', 'leaving the channel');
  const others = removes.filter((userId) => userId !== actor.userId);
  if (others.length === 0 || actor.isServer) return;
  requirePermission(current.permissions, 'update-channel-members', 'removing channel members');
  const actorRank = rankOf(actor.role, memberFacts(current.membership));
  for (const userId of others) {
    const member = await ctx.repo.member(actor.appId, current.channel.cid, userId);
    if (!member) continue;
    if (rankOf(await ctx.users.roleOf(actor.appId, userId), memberFacts(member)) >= actorRank)
      throw chatError.notAllowed(
        `removing ${userId} needs a higher role in the channel than theirs`,
      );
  }
}
