import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { cidOf } from './ids.ts';
import type { ChannelRow } from './repo.ts';
import type { ChannelsService } from './service.ts';

/** Makes the caller's connection watch `channel`, telling the other watchers when it is new. */
export async function watch(
  ctx: Pick<ChannelUseCaseContext, 'deps' | 'watchingEvents' | 'actorConnection'>,
  actor: Actor,
  channel: ChannelRow,
): Promise<void> {
  const connection = ctx.actorConnection(actor);
  if (!connection) return;
  if (!ctx.deps.hub.watch(connection, channel.cid)) return;
  await ctx.deps.presence.watching(
    actor.appId,
    channel.cid,
    connection.userId,
    1,
    connection.anonymous,
  );
  await ctx.watchingEvents.announce(actor.appId, channel, 'user.watching.start', connection.userId);
}

/** `presence: true`: the caller's connection hears when these users come and go. */
export function followPresence(
  ctx: Pick<ChannelUseCaseContext, 'deps' | 'actorConnection'>,
  actor: Actor,
  userIds: string[],
): void {
  const connection = ctx.actorConnection(actor);
  if (connection) ctx.deps.hub.followPresence(connection, userIds);
}

export function createWatcherUseCases(
  ctx: ChannelUseCaseContext,
): Pick<ChannelsService, 'stopWatching' | 'connectionClosed' | 'stop'> {
  const { repo, watchingEvents } = ctx;
  return {
    async stopWatching(actor, typeName, id) {
      const cid = cidOf(typeName, id);
      const channel = await repo.get(actor.appId, cid);
      if (!channel) throw chatError.notFound(`channel "${cid}" does not exist`);
      const connection = ctx.actorConnection(actor);
      if (!connection || !ctx.deps.hub.unwatch(connection, cid)) return;
      await ctx.deps.presence.watching(
        actor.appId,
        cid,
        connection.userId,
        -1,
        connection.anonymous,
      );
      await watchingEvents.announce(actor.appId, channel, 'user.watching.stop', connection.userId);
    },

    async connectionClosed(connection, watched) {
      for (const cid of watched) {
        const { appId, userId, anonymous } = connection;
        await ctx.deps.presence.watching(appId, cid, userId, -1, anonymous);
        const channel = await repo.get(connection.appId, cid);
        if (channel) {
          await watchingEvents.announce(
            connection.appId,
            channel,
            'user.watching.stop',
            connection.userId,
          );
        }
      }
    },

    stop() {
      watchingEvents.stop();
    },
  };
}
