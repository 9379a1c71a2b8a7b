import { channelEvent } from '../wire/events.ts';
import type { PresenceStore } from '../../../realtime/presence-store.ts';
import type { ChannelTypeLookup } from '../channel-types.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { UsersService } from '../users/service.ts';
import type { ChannelRow } from './repo.ts';

type WatchingKind = 'user.watching.start' | 'user.watching.stop';

/**
 * Sends `user.watching.start` / `user.watching.stop` the way a channel of any size can afford.
 *
 * Announcing every watch to every watcher costs N²/2 frames while N people arrive (50 million for a 10,000-person
 * livestream), which starves message delivery for minutes. So a channel with more than `largeChannelWatchers`
 * watchers (on every node together) gets at most one event of each kind per `batchMs`: the latest arrival or departure, with
 * the watcher count at flush time. The client only uses these events to keep `watcher_count` and its `watchers`
 * map; the count stays exact, and a big channel's watcher list is paged from the API anyway.
 *
 * A channel type with `connect_events: false` gets none, as on Stream.
 */
export interface WatchingEvents {
  announce(appId: string, channel: ChannelRow, kind: WatchingKind, userId: string): Promise<void>;
  /** Drops pending batches and sends nothing more (server shutdown). */
  stop(): void;
}

export interface WatchingEventsOptions {
  presence: Pick<PresenceStore, 'watcherCounts'>;
  users: Pick<UsersService, 'response'>;
  events: Pick<EventPublisher, 'toChannel'>;
  clock: { now(): string };
  channelTypes: ChannelTypeLookup;
  largeChannelWatchers: number;
  batchMs: number;
  log: { warn(obj: object, msg?: string): void };
}

interface PendingBatch {
  channel: ChannelRow;
  /** At most one entry per kind, in the order they last happened. */
  latest: { kind: WatchingKind; userId: string }[];
  timer: NodeJS.Timeout;
}

export function createWatchingEvents(options: WatchingEventsOptions): WatchingEvents {
  const { presence, users, events, clock } = options;
  const watcherCount = async (appId: string, cid: string) =>
    (await presence.watcherCounts(appId, [cid])).get(cid) ?? 0;
  const pending = new Map<string, PendingBatch>();
  let stopped = false;

  async function publish(appId: string, channel: ChannelRow, kind: WatchingKind, userId: string) {
    const [user, count] = await Promise.all([
      users.response(appId, userId),
      watcherCount(appId, channel.cid),
    ]);
    events.toChannel(
      appId,
      channel.cid,
      channelEvent(kind, channel, clock.now(), {
        user,
        watcher_count: count,
      }),
      { watcherCount: count },
    );
  }

  async function flush(key: string, appId: string): Promise<void> {
    const batch = pending.get(key);
    if (!batch) return;
    pending.delete(key);
    for (const { kind, userId } of batch.latest) await publish(appId, batch.channel, kind, userId);
  }

  return {
    async announce(appId, channel, kind, userId) {
      if (stopped || options.channelTypes.get(appId, channel.type)?.config.connect_events === false)
        return;
      const key = `${appId}\0${channel.cid}`;
      const batch = pending.get(key);
      if ((await watcherCount(appId, channel.cid)) <= options.largeChannelWatchers) {
        // Shrunk back under the threshold: what is still batched goes first, so events stay in order.
        if (batch) {
          clearTimeout(batch.timer);
          await flush(key, appId);
        }
        await publish(appId, channel, kind, userId);
        return;
      }
      if (batch) {
        batch.channel = channel;
        batch.latest = batch.latest.filter((entry) => entry.kind !== kind);
        batch.latest.push({ kind, userId });
        return;
      }
      const timer = setTimeout(() => {
        flush(key, appId).catch((error: unknown) =>
          options.log.warn({ err: error, cid: channel.cid }, 'watching events flush failed'),
        );
      }, options.batchMs);
      timer.unref();
      pending.set(key, { channel, latest: [{ kind, userId }], timer });
    },

    stop() {
      stopped = true;
      for (const batch of pending.values()) clearTimeout(batch.timer);
      pending.clear();
    },
  };
}
