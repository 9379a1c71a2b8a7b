import {
  CLIENT_CAPABILITIES,
  type ChannelType,
  type ClientCapability,
  type Permission,
  type Role,
} from '../channel-types.ts';
import { isoFromMicros } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';

/** Who is acting. Server-side calls (token `{server:true}`) may act for a user but bypass every permission check. */
export interface Actor {
  appId: string;
  /** The acting user; null for a server call that names nobody. */
  userId: string | null;
  /** Global role: anonymous, guest, user, moderator, admin. */
  role: string;
  isServer: boolean;
  connectionId: string | null;
}

/** What access checks need to know about the actor's membership in one channel. */
export interface MembershipFacts {
  channelRole: string | null;
  banned: boolean;
}

/**
 * Whether a stored ban flag holds at `now`. Timed bans lapse by themselves: the flag stays set and is read against
 * its expiry, so no job has to lift it on time.
 */
export function banHolds(
  flag: number | null | undefined,
  expires: string | null | undefined,
  now: string = isoFromMicros(Date.now() * 1000),
): boolean {
  return flag === 1 && (!expires || expires > now);
}

/** What an app-wide ban leaves a user: reading and leaving, never writing or inviting themselves anywhere. */
const KEPT_WHEN_BANNED: ReadonlySet<Permission> = new Set<Permission>([
  'read-channel',
  'watch-channel',
  'read-events',
  'connect-events',
  'typing-events',
  'leave-channel',
  'mute-channel',
  'search-messages',
]);

const GLOBAL_ROLES: readonly Role[] = ['anonymous', 'guest', 'user', 'moderator', 'admin'];

/** The roles whose grants apply to `actor` in a channel: global role plus channel role when a member. */
export function effectiveRoles(actor: Actor, membership: MembershipFacts | null): Role[] {
  const roles: Role[] = [];
  const global = (GLOBAL_ROLES as readonly string[]).includes(actor.role)
    ? (actor.role as Role)
    : 'user';
  roles.push(global);
  // Admins and moderators are also "users": they get what any user gets.
  if (global === 'admin' || global === 'moderator') roles.push('user');
  if (membership) {
    // As in Stream, a member banned from the channel still reads it (permissionsFor keeps only reading); they
    // lose every moderating role there.
    roles.push('channel_member');
    if (membership.banned) return roles;
    // A guest owns the support channel it opens but never moderates it: it could invite anyone into it.
    const moderates =
      membership.channelRole === 'channel_moderator' || membership.channelRole === 'owner';
    if (moderates && global !== 'guest') roles.push('channel_moderator');
    if (membership.channelRole === 'owner' && global !== 'guest') roles.push('channel_owner');
  }
  return roles;
}

/**
 * Stream's owner grants, for a type that names none of its own: the channel's owner may update it, manage its
 * members and delete (so also truncate) it.
 */
const OWNER_GRANTS: readonly Permission[] = [
  'update-channel',
  'update-channel-members',
  'delete-channel',
];

function grantsOf(type: ChannelType, role: Role): readonly Permission[] {
  if (role === 'channel_owner') return type.grants.channel_owner ?? OWNER_GRANTS;
  return type.grants[role] ?? [];
}

/**
 * The creator of a channel (`created_by`) owns it even when they did not list themselves among its members, as in
 * Stream: they get what a member with the channel role `owner` gets (read, watch, update, truncate, delete). A member
 * keeps their own membership's facts; a server call needs none.
 */
export function ownerFacts(
  actor: Actor,
  createdById: string | null,
  membership: MembershipFacts | null,
): MembershipFacts | null {
  if (membership || actor.isServer || !actor.userId) return membership;
  return createdById === actor.userId ? { channelRole: 'owner', banned: false } : null;
}

/**
 * The permissions `actor` holds in a channel of `type`. `standing.banned` is an app-wide ban, `membership.banned` a
 * ban from this channel: either way the user keeps only what KEPT_WHEN_BANNED lists.
 */
export function permissionsFor(
  type: ChannelType,
  actor: Actor,
  membership: MembershipFacts | null,
  standing?: { banned: boolean },
): Set<Permission> {
  const permissions = new Set<Permission>();
  if (actor.isServer) {
    for (const grants of Object.values(type.grants))
      for (const p of grants ?? []) permissions.add(p);
    return permissions;
  }
  for (const role of effectiveRoles(actor, membership))
    for (const p of grantsOf(type, role)) permissions.add(p);
  // Guests are anyone who asks: letting them upload would let anyone host files on our origin.
  if (actor.role === 'guest') permissions.delete('upload-file');
  if (standing?.banned || membership?.banned)
    for (const permission of permissions)
      if (!KEPT_WHEN_BANNED.has(permission)) permissions.delete(permission);
  return permissions;
}

/** `own_capabilities` for the channel object: the client capabilities the actor holds, in a stable order. */
export function ownCapabilities(
  permissions: Set<Permission>,
  config: ChannelType['config'],
): ClientCapability[] {
  return CLIENT_CAPABILITIES.filter((capability) => {
    if (!permissions.has(capability)) return false;
    if (capability === 'typing-events' || capability === 'send-typing-events')
      return config.typing_events;
    if (capability === 'read-events') return config.read_events;
    if (capability === 'connect-events') return config.connect_events;
    if (capability === 'send-reaction') return config.reactions;
    if (capability === 'send-reply') return config.replies;
    if (capability === 'quote-message') return config.quotes;
    if (capability === 'upload-file') return config.uploads;
    if (
      capability === 'send-poll' ||
      capability === 'cast-poll-vote' ||
      capability === 'query-poll-votes'
    ) {
      return config.polls;
    }
    if (capability === 'share-location') return config.shared_locations;
    if (capability === 'search-messages') return config.search;
    if (capability === 'mute-channel') return config.mutes;
    if (capability === 'send-custom-events') return config.custom_events;
    return true;
  });
}

/** Throws code 17 unless `permissions` holds `permission`. */
export function requirePermission(
  permissions: Set<Permission>,
  permission: Permission,
  what: string,
): void {
  if (!permissions.has(permission))
    throw chatError.notAllowed(`${what} is not allowed (missing ${permission})`);
}

/**
 * Stream's server-side-only actions (app settings, channel types, roles, batch deletes, block lists): only a call
 * signed with the app secret may make them; every user token, an admin's included, gets code 17 with `message`.
 */
export function requireServerSide(actor: Actor, message: string): void {
  if (!actor.isServer) throw chatError.notAllowed(message);
}
