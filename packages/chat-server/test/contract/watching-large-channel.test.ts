import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

const BATCH_MS = 1000;

describe('watching events in a large channel', { timeout: 20_000 }, () => {
  // A "large" channel here is anything above 2 watchers, so four real clients exercise the batched path.
  const env = useContractEnv({
    config: { limits: { largeChannelWatchers: 2, largeChannelWatchingEventsMs: BATCH_MS } },
  });

  it('merges arrivals above the threshold into one user.watching.start with the exact watcher count', async () => {
    const ownerId = uniqueId('chuong-mon');
    const viewerIds = [uniqueId('de-tu-a'), uniqueId('de-tu-b'), uniqueId('de-tu-c')];
    const owner = await connectUser(env(), ownerId);
    const viewers = await Promise.all(viewerIds.map((id) => connectUser(env(), id)));
    const channelId = uniqueId('dai-hoi');
    await createChannelAsServer(env(), 'livestream', channelId, ownerId, { members: [ownerId] });
    const ownerChannel = await watchChannel(owner, 'livestream', channelId);

    const seen: Event[] = [];
    ownerChannel.on('user.watching.start', (event) => void seen.push(event));

    // The second watcher is still under the threshold: announced at once.
    const first = waitForEvent(
      ownerChannel,
      'user.watching.start',
      (e) => e.user?.id === viewerIds[0],
    );
    await watchChannel(viewers[0]!, 'livestream', channelId);
    await first;
    expect(seen.map((e) => [e.user?.id, e.watcher_count])).toEqual([[viewerIds[0], 2]]);

    // The third and fourth arrive within one batch window: one event, naming the latest, counting all four.
    const merged = waitForEvent(ownerChannel, 'user.watching.start', (e) => e.watcher_count === 4);
    await watchChannel(viewers[1]!, 'livestream', channelId);
    await watchChannel(viewers[2]!, 'livestream', channelId);
    const event = await merged;

    expect(event.user?.id).toBe(viewerIds[2]);
    // Wait one more window: nothing else may follow for the merged arrivals.
    await new Promise((resolve) => setTimeout(resolve, BATCH_MS + 200));
    expect(seen.map((e) => [e.user?.id, e.watcher_count])).toEqual([
      [viewerIds[0], 2],
      [viewerIds[2], 4],
    ]);
    expect(ownerChannel.state.watcher_count).toBe(4);
  });

  it('merges departures too, flushes them first when the channel shrinks back, and keeps the count exact', async () => {
    const ownerId = uniqueId('chuong-mon');
    const viewerIds = ['d', 'e', 'f', 'g', 'h'].map((suffix) => uniqueId(`de-tu-${suffix}`));
    const owner = await connectUser(env(), ownerId);
    const viewers = await Promise.all(viewerIds.map((id) => connectUser(env(), id)));
    const channelId = uniqueId('tan-hoi');
    await createChannelAsServer(env(), 'livestream', channelId, ownerId, { members: [ownerId] });
    const ownerChannel = await watchChannel(owner, 'livestream', channelId);
    const viewerChannels = [];
    for (const viewer of viewers) {
      viewerChannels.push(await watchChannel(viewer, 'livestream', channelId));
    }
    await waitForEvent(ownerChannel, 'user.watching.start', (e) => e.watcher_count === 6);

    const stops: Event[] = [];
    ownerChannel.on('user.watching.stop', (event) => void stops.push(event));
    // 6 → 5 → 4 → 3 watchers, all above the threshold of 2: one event for the three departures.
    const merged = waitForEvent(ownerChannel, 'user.watching.stop', (e) => e.watcher_count === 3);
    for (const channel of viewerChannels.slice(0, 3)) await channel.stopWatching();
    expect((await merged).user?.id).toBe(viewerIds[2]);
    expect(ownerChannel.state.watcher_count).toBe(3);

    // 3 → 2: back at the threshold, announced at once.
    const single = waitForEvent(ownerChannel, 'user.watching.stop', (e) => e.watcher_count === 2);
    await viewerChannels[3]!.stopWatching();
    expect((await single).user?.id).toBe(viewerIds[3]);

    expect(stops.map((e) => [e.user?.id, e.watcher_count])).toEqual([
      [viewerIds[2], 3],
      [viewerIds[3], 2],
    ]);

    // A batch still pending when the channel shrinks back is sent first, with the count at that moment.
    const order: [string, string | undefined, number | undefined][] = [];
    const record = (event: Event) =>
      void order.push([event.type, event.user?.id, event.watcher_count]);
    ownerChannel.on('user.watching.start', record);
    ownerChannel.on('user.watching.stop', record);
    const left = waitForEvent(
      ownerChannel,
      'user.watching.stop',
      (e) => e.user?.id === viewerIds[0],
    );
    await viewerChannels[0]!.watch();
    await viewerChannels[0]!.stopWatching();
    await left;
    expect(order).toEqual([
      ['user.watching.start', viewerIds[0], 2],
      ['user.watching.stop', viewerIds[0], 2],
    ]);
    expect(ownerChannel.state.watcher_count).toBe(2);
    expect(ownerChannel.state.watchers[viewerIds[0]!]).toBeUndefined();
  });
});
