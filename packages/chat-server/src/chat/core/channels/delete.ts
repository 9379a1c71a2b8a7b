import { requirePermission } from '../access/access.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { announceHardDeleted, attachmentsOf } from './hard-delete.ts';
import { cidOf } from './ids.ts';
import type { ChannelsService } from './service.ts';

export function createDeleteChannel(ctx: ChannelUseCaseContext): Pick<ChannelsService, 'remove'> {
  const { deps, repo, events } = ctx;
  return {
    async remove(actor, typeName, id, hard, keepHistory = false) {
      const cid = cidOf(typeName, id);
      const current = await ctx.access(actor, cid);
      requirePermission(current.permissions, 'delete-channel', 'deleting the channel');
      const now = deps.clock.now();
      const memberIds = await repo.memberIds(actor.appId, cid);
      const before = await ctx.eventChannel(current.channel);
      if (hard) {
        const withFiles = await deps.writes.run(async (trx) => {
          const rows = await attachmentsOf(ctx, trx, { appId: actor.appId, cid });
          await repo.remove(trx, actor.appId, cid);
          return rows;
        });
        await announceHardDeleted(ctx, actor.appId, withFiles);
      } else
        // Stream truncates a channel it deletes softly, unless told to keep its history; creating the channel
        // again then starts empty, or brings the messages back (create.ts tells the two apart by this).
        await deps.writes.run((trx) =>
          repo.update(trx, actor.appId, cid, {
            deleted_at: now,
            updated_at: now,
            ...(keepHistory ? {} : { truncated_at: now }),
          }),
        );
      const channelObject = { ...before, deleted_at: now };
      events.together(actor.appId, (out) => {
        out.toChannel(
          cid,
          ctx.baseEvent('channel.deleted', current.channel, { channel: channelObject }),
        );
        out.toUsers(
          memberIds,
          ctx.baseEvent('notification.channel_deleted', current.channel, {
            channel: channelObject,
          }),
          { skipWatchersOf: cid },
        );
      });
      return { channel: channelObject };
    },
  };
}
