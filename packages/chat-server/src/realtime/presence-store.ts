import type { Hub } from './hub.ts';

/** What a dead node left behind, found by the reaper that removed it (each dead node is reaped exactly once). */
export interface Reaped {
  /** Users whose last connection anywhere was on the dead node. */
  offline: { appId: string; userId: string }[];
  /** Users who no longer watch a channel anywhere because their only watching sockets were on the dead node. */
  stoppedWatching: { appId: string; cid: string; userId: string }[];
}

/**
 * Who is online and who watches which channel, across every node of the deployment. Each node reports its own
 * sockets' changes; the answers count every live node. Embedded mode (one process) reads the hub directly
 * (`createMemoryPresenceStore`); a cluster shares the counts in Redis (presence-redis.ts) with a per-node expiry, so
 * the sockets of a node that died without cleaning up stop counting once its heartbeat lapses.
 */
export interface PresenceStore {
  /** A socket of `userId` opened on this node (after `hub.add`); true when it is the user's first anywhere. */
  connected(appId: string, userId: string): Promise<boolean>;
  /** A socket of `userId` closed on this node (after `hub.remove`); true when it was the user's last anywhere. */
  disconnected(appId: string, userId: string): Promise<boolean>;
  /** Which of `userIds` have a connection on any live node: one round trip, whatever the number of users. */
  onlineAmong(appId: string, userIds: readonly string[]): Promise<Set<string>>;
  /** Every online user of an app (the `online` filter of queryUsers). */
  onlineUserIds(appId: string): Promise<string[]>;
  /** One socket of `userId` on this node started (+1) or stopped (-1) watching `cid`. */
  watching(
    appId: string,
    cid: string,
    userId: string,
    delta: 1 | -1,
    anonymous?: boolean,
  ): Promise<void>;
  /** Distinct users watching each channel on any live node (anonymous watchers count too, as on one node). */
  watcherCounts(appId: string, cids: readonly string[]): Promise<Map<string, number>>;
  /**
   * The channel's watcher count without a round trip, for events made on every send (`message.new`): exact in one
   * process; in a cluster the latest cluster-wide count this node heard of or asked for, refreshed in the
   * background when older than a second.
   */
  watcherCountNow(appId: string, cid: string): number;
  /** One page of the distinct signed-in users watching a channel on any live node. */
  watcherUserIds(appId: string, cid: string, offset: number, limit: number): Promise<string[]>;
  /** Called with what each reap on this node found; a dead node's users are announced once, by one node. */
  onReaped(listener: (reaped: Reaped) => void): void;
  close(): Promise<void>;
}

/** One process: the hub already knows every socket, so presence is what the hub says. */
export function createMemoryPresenceStore(hub: Hub): PresenceStore {
  return {
    connected: (appId, userId) => Promise.resolve(hub.userConnectionCount(appId, userId) === 1),
    disconnected: (appId, userId) => Promise.resolve(hub.userConnectionCount(appId, userId) === 0),
    onlineAmong: (appId, userIds) =>
      Promise.resolve(new Set(userIds.filter((id) => hub.userConnectionCount(appId, id) > 0))),
    onlineUserIds: (appId) => Promise.resolve(hub.connectedUserIds(appId)),
    watching: () => Promise.resolve(),
    watcherCounts: (appId, cids) =>
      Promise.resolve(new Map(cids.map((cid) => [cid, hub.watcherCount(appId, cid)]))),
    watcherCountNow: (appId, cid) => hub.watcherCount(appId, cid),
    watcherUserIds: (appId, cid, offset, limit) =>
      Promise.resolve(hub.watcherUserIds(appId, cid, offset, limit)),
    onReaped: () => undefined,
    close: () => Promise.resolve(),
  };
}
