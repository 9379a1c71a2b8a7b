import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelAccess, ChannelsService } from '../channels/service.ts';
import type { UserRow } from '../users/repo.ts';
import type { UsersService } from '../users/service.ts';
import type { BanRequest, UnbanRequest } from './port.ts';

/** Stream takes `timeout` in minutes; ten years bounds it well inside the dates both databases sort as text. */
export const MAX_TIMEOUT_MINUTES = 525_600 * 10;
export const MAX_REASON_LENGTH = 500;

/** App roles that may ban app-wide (a channel ban needs `ban-channel-members` in that channel instead). */
const STAFF = new Set(['admin', 'moderator']);

/** What a checked ban or unban acts on. */
export interface BanScope {
  target: UserRow;
  /** The channel of a channel ban; undefined for an app-wide one. */
  access: ChannelAccess | undefined;
}

/** Refuses malformed values that reach the port without a route's schema (the moderation queue calls it too). */
export function checkBanValues(request: BanRequest): void {
  const { timeoutMinutes, reason } = request;
  if (
    timeoutMinutes !== undefined &&
    (!Number.isInteger(timeoutMinutes) ||
      timeoutMinutes < 1 ||
      timeoutMinutes > MAX_TIMEOUT_MINUTES)
  )
    throw chatError.input(
      `timeout must be an integer number of minutes between 1 and ${MAX_TIMEOUT_MINUTES}`,
    );
  if (reason !== undefined && reason.length > MAX_REASON_LENGTH)
    throw chatError.input(`reason must be at most ${MAX_REASON_LENGTH} characters`);
}

/**
 * Who may ban or unban whom: the server, the app's moderators and admins anywhere, and in one channel whoever holds
 * `ban-channel-members` there (its owner and moderators). Nobody bans themselves or an admin, and the user must exist.
 */
export async function authorizeBan(
  deps: { users: UsersService; channels: ChannelsService },
  request: BanRequest | UnbanRequest,
  verb: 'ban' | 'unban',
): Promise<BanScope> {
  const { actor, targetId } = request;
  if (!targetId) throw chatError.input('target_user_id is required');
  if (actor.userId !== null && actor.userId === targetId)
    throw chatError.notAllowed(`you cannot ${verb} yourself`);
  const target = await deps.users.getRow(actor.appId, targetId);
  if (!target) throw chatError.notFound(`user ${targetId} does not exist`);
  if (target.role === 'admin') throw chatError.notAllowed(`an admin cannot be ${verb}ned`);
  if (request.channelCid === undefined) {
    if (!actor.isServer && !STAFF.has(actor.role))
      throw chatError.notAllowed(`only moderators and admins can ${verb} users app-wide`);
    return { target, access: undefined };
  }
  const access = await deps.channels.access(actor, request.channelCid);
  if (!actor.isServer && !access.permissions.has('ban-channel-members'))
    throw chatError.notAllowed(
      `${verb}ning members of ${request.channelCid} is not allowed (missing ban-channel-members)`,
    );
  return { target, access };
}

/** Who the ban is recorded as given by: the acting user, or the user a server-side call names. */
export async function bannedByOf(
  users: UsersService,
  actor: Actor,
  bannedById: string | undefined,
): Promise<string | null> {
  if (!actor.isServer || bannedById === undefined) return actor.userId;
  if (!(await users.getRow(actor.appId, bannedById)))
    throw chatError.notFound(`banned_by_id user ${bannedById} does not exist`);
  return bannedById;
}
