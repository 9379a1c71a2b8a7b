import type { ChatDeps } from '../deps.ts';
import { createLocationsRepo } from '../locations/repo.ts';
import { toLocationResponse, type SharedLocationResponse } from '../locations/serialize.ts';
import { createModerationRepo } from '../moderation/repo.ts';
import { createMutesRepo } from '../mutes/repo.ts';
import { createReadsRepo } from '../reads/repo.ts';
import type { UserRow } from './repo.ts';
import type { UsersService } from './service.ts';
import type { UserResponse } from './serialize.ts';

/** OwnUserResponse: the `me` of the first health.check. `mutes` and `channel_mutes` must be arrays (client crash). */
export interface OwnUserResponse extends UserResponse {
  devices: unknown[];
  mutes: unknown[];
  channel_mutes: unknown[];
  total_unread_count: number;
  unread_count: number;
  unread_channels: number;
  unread_threads: number;
  active_live_locations: SharedLocationResponse[];
}

export async function buildMe(
  deps: ChatDeps,
  users: UsersService,
  row: UserRow,
): Promise<OwnUserResponse> {
  const appId = row.app_id;
  const mutes = createMutesRepo(deps.db);
  const now = deps.clock.now();
  const [userMutes, channelMutes, unread, liveLocations, blocks] = await Promise.all([
    mutes.userMutes(appId, row.id, now),
    mutes.channelMutes(appId, row.id, now),
    unreadSummary(deps, appId, row.id),
    createLocationsRepo(deps.db).activeFor(appId, row.id, now),
    createModerationRepo(deps.db).blocks(appId, row.id),
  ]);
  const targets = await users.responses(
    appId,
    userMutes.map((m) => m.target_id),
  );
  const self = users.toResponse(row);
  return {
    ...self,
    online: true,
    // The client's blockedUsers starts from this list.
    blocked_user_ids: blocks.map((block) => block.blocked_user_id),
    devices: [],
    mutes: userMutes.map((m) => ({
      user: self,
      target: targets.get(m.target_id),
      created_at: m.created_at,
      updated_at: m.updated_at,
      ...(m.expires ? { expires: m.expires } : {}),
    })),
    channel_mutes: channelMutes.map((m) => ({
      user: self,
      channel: { cid: m.cid },
      created_at: m.created_at,
      updated_at: m.updated_at,
      ...(m.expires ? { expires: m.expires } : {}),
    })),
    total_unread_count: unread.total,
    unread_count: unread.total,
    unread_channels: unread.channels,
    unread_threads: unread.threads,
    active_live_locations: liveLocations.map(toLocationResponse),
  };
}

export async function unreadSummary(deps: ChatDeps, appId: string, userId: string) {
  const reads = createReadsRepo(deps.db);
  const [channels, threads] = await Promise.all([
    reads.channelUnreads(appId, userId),
    reads.threadUnreads(appId, userId),
  ]);
  return {
    total: channels.reduce((sum, r) => sum + r.unread, 0),
    channels: channels.filter((r) => r.unread > 0).length,
    threads: threads.filter((r) => r.unread > 0).length,
  };
}
