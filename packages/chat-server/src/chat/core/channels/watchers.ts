import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelUseCaseContext } from './context.ts';
import { cidOf } from './ids.ts';
import type { ChannelRow } from './repo.ts';
import type { ChannelsService } from './service.ts';

/** Makes the caller's connection watch `channels`, telling the other watchers of each it newly watches. */
export async function watch(
  ctx: Pick<ChannelUseCaseContext, 'deps' | 'watchingEvents'>,
  actor: Actor,
  channels: ChannelRow[],
): Promise<void> {
  if (channels.length === 0) return;
  const change = await ctx.deps.connections.apply(actor, {
    op: 'watch',
    cids: channels.map((channel) => channel.cid),
  });
  if (!change) return;
  for (const channel of channels)
    if (change.changed.includes(channel.cid))
      await ctx.watchingEvents.announce(actor.appId, channel, 'user.watching.start', change.userId);
}

/** `presence: true`: the caller's connection hears when these users come and go. */
export async function followPresence(
  ctx: Pick<ChannelUseCaseContext, 'deps'>,
  actor: Actor,
  userIds: string[],
): Promise<void> {
  await ctx.deps.connections.apply(actor, { op: 'presence', userIds });
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
      const change = await ctx.deps.connections.apply(actor, { op: 'unwatch', cids: [cid] });
      if (!change?.changed.length) return;
      await watchingEvents.announce(actor.appId, channel, 'user.watching.stop', change.userId);
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
