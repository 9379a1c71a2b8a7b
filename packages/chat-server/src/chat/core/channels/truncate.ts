import { normalizeIso } from '../../../db/clock.ts';
import { requirePermission } from '../access/access.ts';
import { isPlainObject } from '../json.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { announceHardDeleted, attachmentsOf } from './hard-delete.ts';
import { cidOf } from './ids.ts';
import type { ChannelsService } from './service.ts';

export function createTruncateChannel(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'truncate'> {
  const { deps, repo, events, users } = ctx;
  return {
    async truncate(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const current = await ctx.access(actor, cid);
      requirePermission(current.permissions, 'delete-channel', 'truncating the channel');
      let truncatedAt = deps.clock.now();
      if (typeof body.truncated_at === 'string') {
        truncatedAt = normalizeIso(body.truncated_at) ?? truncatedAt;
      }
      const hard = body.hard_delete === true;
      const withFiles = await deps.writes.run(async (trx) => {
        const target = { appId: actor.appId, cid, until: truncatedAt };
        const rows = hard ? await attachmentsOf(ctx, trx, target) : [];
        await repo.update(trx, actor.appId, cid, {
          truncated_at: truncatedAt,
          updated_at: truncatedAt,
        });
        if (hard)
          await trx
            .deleteFrom('messages')
            .where('app_id', '=', actor.appId)
            .where('cid', '=', cid)
            .where('created_at', '<=', truncatedAt)
            .execute();
        return rows;
      });
      await announceHardDeleted(ctx, actor.appId, withFiles);
      const fresh = (await repo.get(actor.appId, cid))!;
      const channelObject = await ctx.eventChannel(fresh);
      const payload = {
        channel: channelObject,
        ...(actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {}),
      };
      const memberIds = await repo.memberIds(actor.appId, cid);
      // Members not watching learn it on their own connections, as with new messages.
      events.together(actor.appId, (out) => {
        out.toChannel(cid, ctx.baseEvent('channel.truncated', fresh, payload));
        out.toUsers(memberIds, ctx.baseEvent('notification.channel_truncated', fresh, payload), {
          skipWatchersOf: cid,
        });
      });
      const message =
        isPlainObject(body.message) && ctx.hooks.systemMessage
          ? await ctx.hooks.systemMessage(actor, fresh, body.message)
          : undefined;
      return { channel: await ctx.requesterChannel(actor, cid), ...(message ? { message } : {}) };
    },
  };
}
