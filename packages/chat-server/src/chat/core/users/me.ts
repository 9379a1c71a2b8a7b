import type { ChatDeps } from '../deps.ts';
import type { ExtensionPoints } from '../extension-points.ts';
import type { ReadsRepo } from '../reads/repo.ts';
import type { Mute } from 'stream-chat';
import type { ChannelMuteResponse, SharedLocationResponse } from '../wire/types.ts';
import type { UserRow } from './repo.ts';
import type { UsersService } from './service.ts';
import type { UserResponse } from './serialize.ts';

/** OwnUserResponse: the `me` of the first health.check. `mutes` and `channel_mutes` must be arrays (client crash). */
export interface OwnUserResponse extends UserResponse {
  devices: unknown[];
  mutes: Mute[];
  channel_mutes: ChannelMuteResponse[];
  total_unread_count: number;
  unread_count: number;
  unread_channels: number;
  unread_threads: number;
  active_live_locations: SharedLocationResponse[];
}

/** `created`: the row was inserted by this very handshake, so nothing of the user's exists to read yet. */
export type OwnUserBuilder = (row: UserRow, created?: boolean) => Promise<OwnUserResponse>;

/** What the own-user builder reads: the clock, users, the unread counts and the extensions' parts. */
export interface OwnUserContext {
  deps: ChatDeps;
  users: UsersService;
  reads: ReadsRepo;
  points: Pick<ExtensionPoints, 'ownUser'>;
}

/** The unread totals of a user who has nothing to read yet (a new or an anonymous user). */
export const NOTHING_UNREAD = { total: 0, channels: 0, threads: 0 };

/** The core fills identity and unread totals; extensions add their parts (mutes, blocks, live locations). */
export function createOwnUserBuilder({
  deps,
  users,
  reads,
  points,
}: OwnUserContext): OwnUserBuilder {
  function readAll(row: UserRow, self: UserResponse) {
    const context = { appId: row.app_id, row, self, now: deps.clock.now() };
    return Promise.all([
      unreadSummary(reads, row.app_id, row.id),
      ...points.ownUser.map((part) => part.read(context)),
    ]);
  }
  return async (row, created = false) => {
    const self = users.toResponse(row);
    const [unread, ...parts] = created
      ? [NOTHING_UNREAD, ...points.ownUser.map((part) => part.empty())]
      : await readAll(row, self);
    return Object.assign({ ...ownUserBase(self, unread), active_live_locations: [] }, ...parts);
  };
}

/**
 * The fields every `me` has, signed-in or anonymous: online, no devices, empty mute lists (arrays, or the client
 * crashes) and the unread totals.
 */
export function ownUserBase(
  self: UserResponse,
  unread: { total: number; channels: number; threads: number },
) {
  return {
    ...self,
    online: true,
    devices: [],
    mutes: [],
    channel_mutes: [],
    total_unread_count: unread.total,
    unread_count: unread.total,
    unread_channels: unread.channels,
    unread_threads: unread.threads,
  };
}

export type OwnUserBase = ReturnType<typeof ownUserBase>;

export async function unreadSummary(reads: ReadsRepo, appId: string, userId: string) {
  const [channels, threads] = await Promise.all([
    reads.channelUnreads(appId, [userId]),
    reads.threadUnreads(appId, [userId]),
  ]);
  return {
    total: channels.reduce((sum, r) => sum + r.unread, 0),
    channels: channels.filter((r) => r.unread > 0).length,
    threads: threads.filter((r) => r.unread > 0).length,
  };
}
