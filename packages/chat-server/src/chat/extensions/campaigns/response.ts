import type { UserResponse } from '../../core/users/serialize.ts';
import type { CampaignData } from './data.ts';
import type { CampaignRow } from './repo.ts';
import type { CampaignsContext } from './campaigns.ts';
import type { SegmentResponse } from './segments.ts';

/**
 * Stream's CampaignResponse, with our `stats_targets`, `stats_users_failed` and `stats_channels_sent` / `_failed`
 * (channel targets) beside Stream's counters.
 */
export interface CampaignResponse extends Omit<CampaignData, 'user_ids'> {
  id: string;
  user_ids: string[];
  segment_ids: string[];
  status: string;
  scheduled_for?: string;
  stop_at?: string;
  created_at: string;
  updated_at: string;
  segments: SegmentResponse[];
  sender: UserResponse;
  users: UserResponse[];
  stats: {
    progress: number;
    stats_targets: number;
    stats_messages_sent: number;
    stats_users_sent: number;
    stats_users_failed: number;
    stats_channels_sent: number;
    stats_channels_failed: number;
    stats_channels_created: number;
    stats_users_read: number;
    stats_started_at?: string;
    stats_completed_at?: string;
  };
}

/** `channels` are the channel targets' outcomes: the row counters hold users and channels together. */
function statsOf(
  row: CampaignRow,
  channels: { sent: number; failed: number },
  usersRead: number,
): CampaignResponse['stats'] {
  const done = row.stats_messages_sent + row.stats_users_failed;
  return {
    progress: row.stats_targets > 0 ? Math.min(1, done / row.stats_targets) : 0,
    stats_targets: row.stats_targets,
    stats_messages_sent: row.stats_messages_sent,
    stats_users_sent: row.stats_messages_sent - channels.sent,
    stats_users_failed: row.stats_users_failed - channels.failed,
    stats_channels_sent: channels.sent,
    stats_channels_failed: channels.failed,
    stats_channels_created: row.stats_channels_created,
    stats_users_read: usersRead,
    ...(row.stats_started_at ? { stats_started_at: row.stats_started_at } : {}),
    ...(row.stats_completed_at ? { stats_completed_at: row.stats_completed_at } : {}),
  };
}

/** Builds `{campaign, users: {next?, prev?}}`; `users` lists the first `userLimit` of user_ids. */
export function campaignResponder(
  ctx: Pick<CampaignsContext, 'users' | 'segments' | 'deliveries'>,
) {
  return async (row: CampaignRow, userLimit = 25) => {
    const data = JSON.parse(row.data) as CampaignData;
    const userIds = data.user_ids ?? [];
    const segments: SegmentResponse[] = [];
    for (const id of data.segment_ids ?? []) {
      const segment = await ctx.segments.row(row.app_id, id).catch(() => undefined);
      if (segment) segments.push(await ctx.segments.toResponse(segment));
    }
    const shown = userIds.slice(0, userLimit);
    const users = await ctx.users.responses(row.app_id, shown);
    const campaign: CampaignResponse = {
      ...data,
      id: row.id,
      user_ids: userIds,
      segment_ids: data.segment_ids ?? [],
      status: row.status,
      ...(row.scheduled_for ? { scheduled_for: row.scheduled_for } : {}),
      ...(row.stop_at ? { stop_at: row.stop_at } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
      segments,
      sender: await ctx.users.response(row.app_id, data.sender_id),
      users: shown.map((id) => users.get(id)).filter((u): u is UserResponse => u !== undefined),
      stats: statsOf(
        row,
        await ctx.deliveries.channelCounts(row.app_id, row.id),
        await ctx.deliveries.usersRead(row.app_id, row.id),
      ),
    };
    return { campaign, users: {} as { next?: string; prev?: string } };
  };
}
