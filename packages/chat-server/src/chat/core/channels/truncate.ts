import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { isPlainObject } from '../json.ts';
import type { ChannelAccess, ChannelUseCaseContext } from './context.ts';
import { announceHardDeleted, attachmentsOf } from './hard-delete.ts';
import { cidOf } from './ids.ts';
import type { ChannelsService } from './service.ts';

const MAX_MEMBER_IDS = 100;

/** `member_ids`: whose view alone is truncated; undefined for the whole channel. */
function readMemberIds(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_MEMBER_IDS ||
    !value.every((id) => typeof id === 'string' && id.length > 0)
  )
    throw chatError.input(`member_ids must be a list of 1 to ${MAX_MEMBER_IDS} user ids`);
  return [...new Set(value as string[])];
}

export function createTruncateChannel(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'truncate'> {
  const { deps, repo, events, users } = ctx;

  /**
   * Stream's truncate for specific members: their history ends at `truncatedAt`, set for them (an earlier time brings
   * older messages back), as their own hidden-history bound; the channel and everyone else keep theirs.
   */
  async function truncateFor(
    actor: Actor,
    current: ChannelAccess,
    memberIds: string[],
    truncatedAt: string,
  ): Promise<void> {
    const { cid } = current.channel;
    const members = await repo.membersAmong(actor.appId, cid, memberIds);
    const missing = memberIds.filter((userId) => !members.has(userId));
    if (missing.length > 0)
      throw chatError.input(`member_ids are not members of ${cid}: ${missing.join(', ')}`);
    const now = deps.clock.now();
    await deps.writes.run(async (trx) => {
      for (const userId of memberIds)
        await repo.updateMember(trx, actor.appId, cid, userId, {
          hide_messages_before: truncatedAt,
          updated_at: now,
        });
    });
    const payload = {
      channel: await ctx.eventChannel(current.channel),
      ...(actor.userId ? { user: await users.response(actor.appId, actor.userId) } : {}),
    };
    // Only their own connections drop the history; the other watchers' views are unchanged.
    events.toUsers(
      actor.appId,
      memberIds,
      ctx.baseEvent('channel.truncated', current.channel, payload),
    );
  }

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
      const only = readMemberIds(body.member_ids);
      if (only) {
        if (hard) throw chatError.input('hard_delete cannot be combined with member_ids');
        await truncateFor(actor, current, only, truncatedAt);
        return { channel: await ctx.requesterChannel(actor, cid) };
      }
      const withFiles = await deps.writes.run(async (trx) => {
        const target = { appId: actor.appId, cid, until: truncatedAt };
        const rows = hard ? await attachmentsOf(ctx, trx, target) : [];
        await repo.update(trx, actor.appId, cid, {
          truncated_at: truncatedAt,
          truncated_by_id: actor.userId,
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
