import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';

/** A ban to record: app-wide, or in one channel when `channelCid` is set. */
export interface BanRequest {
  appId: string;
  /** The user banned. */
  targetId: string;
  /** Who acts: their rights are checked (a moderator may ban, a user may not; nobody bans an admin or themselves). */
  actor: Actor;
  channelCid?: string;
  reason?: string;
  /** Minutes until the ban lapses by itself; absent = until lifted. */
  timeoutMinutes?: number;
  /** A shadow ban: the user's messages are stored and shown to them as sent, to nobody else. */
  shadow?: boolean;
  /** Also refuse connections from the user's last known address (Stream's `ip_ban`). */
  ipBan?: boolean;
  /** Who the ban is recorded as given by, for server-side calls (Stream's `banned_by_id`); users ban as themselves. */
  bannedById?: string;
}

/** A ban to lift: the app-wide one, or the one in `channelCid`. */
export interface UnbanRequest {
  appId: string;
  targetId: string;
  actor: Actor;
  channelCid?: string;
  /** Lift a shadow ban (`removeShadowBan`) rather than a ban. */
  shadow?: boolean;
}

/**
 * Bans as the rest of the server acts on them: the moderation review queue bans and unbans through this port, so it
 * needs nothing of how bans are stored. The bans module (core/bans) implements it.
 */
export interface BanPort {
  ban(request: BanRequest): Promise<void>;
  unban(request: UnbanRequest): Promise<void>;
}

/** Until the bans module is installed, every ban is refused with a clear error instead of silently ignored. */
export function unavailableBans(): BanPort {
  const refuse = () =>
    Promise.reject(chatError.notAllowed('bans are not available on this server'));
  return { ban: refuse, unban: refuse };
}
