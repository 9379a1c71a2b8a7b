import type { ChatDeps } from '../deps.ts';

/**
 * Stream's automatic feature throttling: a channel with more than `limits.largeChannelWatchers` watchers (100, all
 * nodes together) gets no typing or read events for its other watchers, and its watching events are merged
 * (watching-events.ts). Each of those events would be one frame to every watcher: in a livestream of 10,000 a few
 * people typing would cost tens of thousands of frames a second, which no viewer's screen can use either.
 */
export function isLargeChannel(
  deps: Pick<ChatDeps, 'presence' | 'config'>,
  appId: string,
  cid: string,
): boolean {
  return deps.presence.watcherCountNow(appId, cid) > deps.config.limits.largeChannelWatchers;
}
