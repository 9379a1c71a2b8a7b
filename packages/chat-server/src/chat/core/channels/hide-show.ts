import { chatError } from '../../../errors.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { cidOf, resolveUserId } from './ids.ts';
import type { ChannelsService } from './service.ts';

/** Hiding and showing a channel: the member's own choice, told to their own connections only. */
export function createHideShow(ctx: ChannelUseCaseContext): Pick<ChannelsService, 'hide' | 'show'> {
  const { deps, repo, events, users } = ctx;
  return {
    async hide(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const userId = resolveUserId(actor, body.user_id);
      const current = await ctx.access({ ...actor, userId }, cid);
      if (!current.membership) throw chatError.input('only members can hide a channel');
      const now = deps.clock.now();
      const clear = body.clear_history === true;
      // Read again inside the write, so two hides racing still announce the channel hidden once.
      const wasHidden = await deps.writes.run(async (trx) => {
        const before = await repo.member(actor.appId, cid, userId, trx);
        await repo.updateMember(trx, actor.appId, cid, userId, {
          hidden: 1,
          updated_at: now,
          ...(clear ? { hide_messages_before: now } : {}),
        });
        return before?.hidden === 1;
      });
      // Stream announces a hide once: hiding an already hidden channel changes nothing the client shows.
      if (wasHidden) return;
      events.toUser(
        actor.appId,
        userId,
        ctx.baseEvent('channel.hidden', current.channel, {
          clear_history: clear,
          channel: await ctx.eventChannel(current.channel),
          user: await users.response(actor.appId, userId),
        }),
      );
    },

    async show(actor, typeName, id, body) {
      const cid = cidOf(typeName, id);
      const userId = resolveUserId(actor, body.user_id);
      const current = await ctx.access({ ...actor, userId }, cid);
      if (!current.membership) throw chatError.input('only members can show a channel');
      await deps.writes.run((trx) =>
        repo.updateMember(trx, actor.appId, cid, userId, {
          hidden: 0,
          updated_at: deps.clock.now(),
        }),
      );
      events.toUser(
        actor.appId,
        userId,
        ctx.baseEvent('channel.visible', current.channel, {
          channel: await ctx.eventChannel(current.channel),
          user: await users.response(actor.appId, userId),
        }),
      );
    },
  };
}
