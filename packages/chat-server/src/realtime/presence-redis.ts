import { randomUUID } from 'node:crypto';
import { createOutageTracker } from '../pubsub/outage.ts';
import type { Redis } from 'ioredis';
import type { HeardCount, Hub } from './hub.ts';
import { createMemoryPresenceStore, type PresenceStore, type Reaped } from './presence-store.ts';
import {
  DELTA_SCRIPT,
  REAP_SCRIPT,
  RESYNC_SCRIPT,
  WATCHER_COUNTS_SCRIPT,
} from './presence-scripts.ts';

export interface RedisPresenceOptions {
  redis: Redis;
  /** Prefix of every key (isolates deployments and test runs sharing a Redis). */
  keyPrefix: string;
  /** How long a node's sockets keep counting after its last heartbeat; heartbeats go out every third of it. */
  ttlMs: number;
  /** The local sockets, for answers while Redis cannot be reached. */
  hub: Hub;
  log: { warn(obj: object, msg: string): void };
}

const ANONYMOUS_MARK = '\u0001';

/** How old a cluster-wide watcher count may be before `watcherCountNow` asks Redis again (in the background). */
const WATCHER_COUNT_FRESH_MS = 1000;
/** Channels whose asked-for count is remembered; beyond it the memory starts over (a cache, not a record). */
const ASKED_COUNTS_LIMIT = 50_000;

type RedisWithScripts = Redis & {
  presenceDelta(
    cluster: string,
    node: string,
    field: string,
    nodeField: string,
    delta: number,
  ): Promise<[number, number]>;
  presenceReap(prefix: string, node: string): Promise<[string[], string[]]>;
  presenceWatcherCounts(count: number, ...keys: string[]): Promise<number[]>;
  presenceResync(...args: (string | number)[]): Promise<number>;
};

function withScripts(redis: Redis): RedisWithScripts {
  const scripted = redis as RedisWithScripts;
  if (typeof scripted.presenceDelta !== 'function') {
    redis.defineCommand('presenceDelta', { numberOfKeys: 2, lua: DELTA_SCRIPT });
    redis.defineCommand('presenceReap', { numberOfKeys: 0, lua: REAP_SCRIPT });
    redis.defineCommand('presenceWatcherCounts', { lua: WATCHER_COUNTS_SCRIPT });
    redis.defineCommand('presenceResync', { numberOfKeys: 0, lua: RESYNC_SCRIPT });
  }
  return scripted;
}

/** What this node's sockets hold, as the node hashes count it: connections per user, watching sockets per watcher. */
function heldBy(hub: Hub): { users: Map<string, number>; watchers: Map<string, number> } {
  const users = new Map<string, number>();
  const watchers = new Map<string, number>();
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const connection of hub.openConnections()) {
    const { appId, userId, anonymous } = connection;
    if (!anonymous) add(users, `${appId}\n${userId}`);
    const watcher = anonymous ? `${ANONYMOUS_MARK}${userId}` : userId;
    for (const cid of connection.watching) add(watchers, `${appId}\n${cid}\n${watcher}`);
  }
  return { users, watchers };
}

function splitLines(value: string): string[] {
  return value.split('\n');
}

/**
 * Presence and watcher counts shared by every node in Redis (key layout in presence-scripts.ts). Each change is one
 * atomic script that reports the cluster-wide count before and after, so "first connection anywhere" and "last one
 * gone" are decided once. A node's contribution lives as long as its heartbeat key; each node's reaper takes back
 * the counts of nodes whose heartbeat lapsed and reports the users that went offline with them. While Redis cannot
 * be reached, answers fall back to this node's own sockets and the failure is logged once per outage.
 */
export function createRedisPresenceStore(
  options: RedisPresenceOptions,
): PresenceStore & { abandon(): void; tickNow(): Promise<void> } {
  const { keyPrefix, ttlMs, hub, log } = options;
  const redis = withScripts(options.redis);
  const local = createMemoryPresenceStore(hub);
  const node = randomUUID();
  const p = `${keyPrefix}presence:`;
  const listeners: ((reaped: Reaped) => void)[] = [];
  const outage = createOutageTracker();
  let closed = false;

  async function guarded<T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    const call = outage.begin();
    try {
      const result = await work();
      // Only a success that went through Redis ends an outage: answers without a round trip (an empty list asked)
      // would otherwise reset the flag and the next failure would be logged again, every second or so. Right after
      // the connection drops, ioredis still says 'ready' until it handles the socket's close, so the socket itself
      // must still be writable too.
      if (redis.status === 'ready' && socketWritable(redis)) outage.succeeded(call);
      return result;
    } catch (error) {
      if (outage.failed())
        log.warn({ err: error }, 'presence in Redis unavailable: using this node only');
      return fallback();
    }
  }

  /**
   * Joining the set of nodes again means Redis had forgotten this node (first beat, a restart, or a reaper that
   * took it back while it was cut off): what it counts is then replaced by what its sockets hold now.
   */
  async function heartbeat(): Promise<void> {
    const replies = await redis
      .multi()
      .set(`${p}alive:${node}`, '1', 'PX', ttlMs)
      .sadd(`${p}nodes`, node)
      .exec();
    const joined = replies?.[1]?.[1];
    if (joined !== 1) return;
    const { users, watchers } = heldBy(hub);
    const pairs = [...users, ...watchers].flat();
    await redis.presenceResync(p, node, users.size, ...pairs);
  }

  function report(raw: [string[], string[]]): void {
    const [offline, stopped] = raw;
    if (offline.length === 0 && stopped.length === 0) return;
    const reaped: Reaped = {
      offline: offline
        .map(splitLines)
        .map(([appId, userId]) => ({ appId: appId!, userId: userId! })),
      stoppedWatching: stopped
        .map(splitLines)
        .filter(([, , watcher]) => !watcher!.startsWith(ANONYMOUS_MARK))
        .map(([appId, cid, userId]) => ({ appId: appId!, cid: cid!, userId: userId! })),
    };
    for (const listener of listeners) listener(reaped);
  }

  async function reapDeadNodes(): Promise<void> {
    const nodes = await redis.smembers(`${p}nodes`);
    for (const other of nodes) {
      if (other === node) continue;
      report(await redis.presenceReap(p, other));
    }
  }

  const tick = (): void => {
    guarded(
      async () => {
        await heartbeat();
        await reapDeadNodes();
      },
      () => Promise.resolve(),
    ).catch(() => undefined);
  };
  const timer = setInterval(tick, Math.max(50, Math.floor(ttlMs / 3)));
  timer.unref();
  tick();

  async function delta(cluster: string, field: string, nodeField: string, by: 1 | -1) {
    const [before, after] = await redis.presenceDelta(
      cluster,
      `${p}nu:${node}`,
      field,
      nodeField,
      by,
    );
    return { before, after };
  }

  const watcherKey = (appId: string, cid: string) => `${p}w:${appId}\n${cid}`;

  // Counts this node asked Redis for (channel states, watching events), by watcher key.
  const asked = new Map<string, HeardCount>();
  const refreshing = new Set<string>();

  async function watcherCounts(appId: string, cids: readonly string[]) {
    return guarded(
      async () => {
        if (cids.length === 0) return new Map<string, number>();
        const keys = cids.map((cid) => watcherKey(appId, cid));
        const counts = (await redis.presenceWatcherCounts(keys.length, ...keys)).map(Number);
        const at = Date.now();
        if (asked.size > ASKED_COUNTS_LIMIT) asked.clear();
        keys.forEach((key, i) => asked.set(key, { count: counts[i] ?? 0, at }));
        return new Map(cids.map((cid, i) => [cid, counts[i] ?? 0]));
      },
      () => local.watcherCounts(appId, cids),
    );
  }

  /** Asks for one channel's count unless a question about it is already on its way; the answer lands in `asked`. */
  function refreshWatcherCount(appId: string, cid: string, key: string): void {
    if (refreshing.has(key)) return;
    refreshing.add(key);
    void watcherCounts(appId, [cid]).finally(() => refreshing.delete(key));
  }

  return {
    connected: (appId, userId) =>
      guarded(
        async () => (await delta(`${p}u:${appId}`, userId, `${appId}\n${userId}`, 1)).before === 0,
        () => local.connected(appId, userId),
      ),
    disconnected: (appId, userId) =>
      guarded(
        async () => {
          const { before, after } = await delta(
            `${p}u:${appId}`,
            userId,
            `${appId}\n${userId}`,
            -1,
          );
          return before > 0 && after === 0;
        },
        () => local.disconnected(appId, userId),
      ),
    onlineAmong: (appId, userIds) =>
      guarded(
        async () => {
          if (userIds.length === 0) return new Set<string>();
          const counts = await redis.hmget(`${p}u:${appId}`, ...userIds);
          return new Set(userIds.filter((_, i) => Number(counts[i] ?? 0) > 0));
        },
        () => local.onlineAmong(appId, userIds),
      ),
    onlineUserIds: (appId) =>
      guarded(
        () => redis.hkeys(`${p}u:${appId}`),
        () => local.onlineUserIds(appId),
      ),
    watching: (appId, cid, userId, by, anonymous = false) =>
      guarded(
        async () => {
          const watcher = anonymous ? `${ANONYMOUS_MARK}${userId}` : userId;
          await redis.presenceDelta(
            watcherKey(appId, cid),
            `${p}nw:${node}`,
            watcher,
            `${appId}\n${cid}\n${watcher}`,
            by,
          );
        },
        () => Promise.resolve(),
      ),
    watcherCounts,
    watcherCountNow(appId, cid) {
      const key = watcherKey(appId, cid);
      const heard = hub.heardWatcherCount(appId, cid);
      const own = asked.get(key);
      const latest = !own || (heard && heard.at >= own.at) ? heard : own;
      if (!latest || Date.now() - latest.at > WATCHER_COUNT_FRESH_MS)
        refreshWatcherCount(appId, cid, key);
      return latest?.count ?? hub.watcherCount(appId, cid);
    },
    watcherUserIds: (appId, cid, offset, limit) =>
      guarded(
        async () => {
          if (limit <= 0) return [];
          const watchers = await redis.hkeys(watcherKey(appId, cid));
          const named = watchers.filter((w) => !w.startsWith(ANONYMOUS_MARK)).sort();
          return named.slice(offset, Number.isFinite(limit) ? offset + limit : undefined);
        },
        () => local.watcherUserIds(appId, cid, offset, limit),
      ),
    /** One heartbeat and reaper round now instead of at the next tick (tests). */
    async tickNow() {
      await heartbeat();
      await reapDeadNodes();
    },
    /** Stops the heartbeat without cleaning up, as a crashed node would (tests). */
    abandon() {
      closed = true;
      clearInterval(timer);
    },
    onReaped(listener) {
      listeners.push(listener);
    },
    /** A node that shuts down reaps itself, so its users go offline at once instead of after the TTL. */
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await guarded(
        async () => {
          await redis.del(`${p}alive:${node}`);
          report(await redis.presenceReap(p, node));
        },
        () => Promise.resolve(),
      );
    },
  };
}

function socketWritable(redis: Redis): boolean {
  const stream = redis.stream as Redis['stream'] | undefined;
  return stream?.writable === true;
}
