import type { BusMessage, PubSub, Unsubscribe } from '../pubsub/pubsub.ts';
import { topics } from '../pubsub/pubsub.ts';
import type { Connection } from './connection.ts';
import { Frame } from './frame.ts';

interface TopicEntry {
  members: Set<Connection>;
  /**
   * Connections per distinct user: watcher counts and "is watching" are asked on every watch and every message, so
   * they must not scan a channel's 10,000 sockets each time.
   */
  users: Map<string, { connections: number; anonymous: boolean }>;
  unsubscribe: Promise<Unsubscribe> | null;
  /** The latest cluster-wide watcher count heard on this channel topic (BusMessage.watcherCount), and when. */
  heardWatchers?: HeardCount;
  /** See Hub.channelStamp; 0 until the subscription is in place. */
  stamp: number;
}

/** A count and when it was learnt (`Date.now()`). */
export interface HeardCount {
  count: number;
  at: number;
}

export interface HubLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Tracks the client connections on this node: by connection id, by user, by watched channel and by users whose
 * presence they follow. It subscribes this node to a PubSub topic when the first local connection needs it and
 * unsubscribes after the last one left, and writes every bus frame to the matching local sockets, flushing each
 * socket once per event-loop turn.
 */
export class Hub {
  private readonly connections = new Map<string, Connection>();
  private readonly byTopic = new Map<string, TopicEntry>();
  private dirty = new Set<Connection>();
  /** The other of two dirty sets that take turns, so a flush copies nothing. */
  private flushing = new Set<Connection>();
  private flushScheduled = false;
  private flushWaiters: (() => void)[] = [];
  /** One Frame per bus message, even when the message is published to many topics (notification fan-out). */
  private readonly frames = new WeakMap<BusMessage, Frame>();
  /** Source of TopicEntry.stamp: never repeats, so a topic left and joined again never shows an old stamp. */
  private stamps = 0;

  constructor(
    private readonly pubsub: PubSub,
    private readonly log: HubLogger,
  ) {}

  get size(): number {
    return this.connections.size;
  }

  get(connectionId: string): Connection | undefined {
    return this.connections.get(connectionId);
  }

  /**
   * The caller's own socket, for a REST call that names a `connection_id` (watch, presence): a signed-in user's
   * socket for that user, an anonymous socket for an anonymous caller (userId null), never someone else's.
   */
  ownConnection(
    connectionId: string | null,
    appId: string,
    userId: string | null,
  ): Connection | undefined {
    const connection = connectionId ? this.connections.get(connectionId) : undefined;
    if (!connection || connection.appId !== appId) return undefined;
    if (userId === null) return connection.anonymous ? connection : undefined;
    return !connection.anonymous && connection.userId === userId ? connection : undefined;
  }

  add(connection: Connection): void {
    this.connections.set(connection.id, connection);
    this.join(topics.user(connection.appId, connection.userId), connection);
  }

  /** Forgets a connection and everything it watched; returns the cids it was watching. */
  remove(connection: Connection): string[] {
    if (!this.connections.delete(connection.id)) return [];
    connection.markClosed();
    this.dirty.delete(connection);
    this.leave(topics.user(connection.appId, connection.userId), connection);
    const watched = [...connection.watching];
    for (const cid of watched) this.leave(topics.channel(connection.appId, cid), connection);
    for (const userId of connection.presenceOf)
      this.leave(topics.presence(connection.appId, userId), connection);
    connection.watching.clear();
    connection.presenceOf.clear();
    return watched;
  }

  /** Returns true when the connection was not already watching the channel. */
  watch(connection: Connection, cid: string): boolean {
    if (connection.watching.has(cid)) return false;
    connection.watching.add(cid);
    this.join(topics.channel(connection.appId, cid), connection);
    return true;
  }

  /** Returns true when the connection was watching the channel. */
  unwatch(connection: Connection, cid: string): boolean {
    if (!connection.watching.delete(cid)) return false;
    this.leave(topics.channel(connection.appId, cid), connection);
    return true;
  }

  followPresence(connection: Connection, userIds: Iterable<string>): void {
    for (const userId of userIds) {
      if (userId === connection.userId || connection.presenceOf.has(userId)) continue;
      connection.presenceOf.add(userId);
      this.join(topics.presence(connection.appId, userId), connection);
    }
  }

  /** One page of the distinct signed-in users watching a channel through this node. */
  watcherUserIds(appId: string, cid: string, offset = 0, limit = Infinity): string[] {
    const entry = this.byTopic.get(topics.channel(appId, cid));
    const page: string[] = [];
    if (!entry || limit <= 0) return page;
    let skipped = 0;
    for (const [userId, watcher] of entry.users) {
      if (watcher.anonymous) continue;
      if (skipped < offset) {
        skipped += 1;
        continue;
      }
      page.push(userId);
      if (page.length >= limit) break;
    }
    return page;
  }

  watcherCount(appId: string, cid: string): number {
    return this.byTopic.get(topics.channel(appId, cid))?.users.size ?? 0;
  }

  /**
   * Changes whenever a channel event that is not ephemeral (BusMessage.ephemeral) reaches this node on the channel's
   * topic, from any node. Undefined while this node is not subscribed to the topic (no local watcher, or the
   * subscription not in place yet): it then hears nothing, so the stamp would prove nothing.
   */
  channelStamp(appId: string, cid: string): number | undefined {
    const stamp = this.byTopic.get(topics.channel(appId, cid))?.stamp;
    return stamp ? stamp : undefined;
  }

  /**
   * The channel's watchers on every node, as the latest `user.watching.*` event heard on its topic said; undefined
   * when this node has no watcher of it (it hears nothing then) or heard none yet. Every change of the count is
   * announced on the topic (for a large channel at most once per `limits.largeChannelWatchingEventsMs`), so while
   * subscribed it stays current.
   */
  heardWatcherCount(appId: string, cid: string): HeardCount | undefined {
    return this.byTopic.get(topics.channel(appId, cid))?.heardWatchers;
  }

  isWatching(appId: string, cid: string, userId: string): boolean {
    return this.byTopic.get(topics.channel(appId, cid))?.users.has(userId) ?? false;
  }

  /** Every open connection on this node (presence-redis.ts re-announces them after Redis forgot this node). */
  openConnections(): IterableIterator<Connection> {
    return this.connections.values();
  }

  /** Users of an app with at least one connection on this node. */
  connectedUserIds(appId: string): string[] {
    const ids = new Set<string>();
    for (const connection of this.connections.values()) {
      if (connection.appId === appId && !connection.anonymous) ids.add(connection.userId);
    }
    return [...ids];
  }

  userConnectionCount(appId: string, userId: string): number {
    return this.byTopic.get(topics.user(appId, userId))?.members.size ?? 0;
  }

  /** Sends one frame to one local connection (the handshake reply, pong health checks). */
  sendTo(connection: Connection, frame: Frame): void {
    if (connection.enqueue(frame)) this.markDirty(connection);
  }

  /**
   * Closes every socket; each then leaves the hub through the gateway's close handler, with the usual watch and
   * presence clean-up (unlike `closeAll`, for a node that keeps running).
   */
  closeSockets(code: number, reason: string): void {
    for (const connection of this.connections.values()) connection.close(code, reason);
  }

  closeAll(code: number, reason: string): void {
    for (const connection of [...this.connections.values()]) {
      connection.close(code, reason);
      this.remove(connection);
    }
  }

  private deliver(topic: string, message: BusMessage): void {
    const entry = this.byTopic.get(topic);
    if (!entry || entry.members.size === 0) return;
    if (typeof message.watcherCount === 'number')
      entry.heardWatchers = { count: message.watcherCount, at: Date.now() };
    if (!message.ephemeral && entry.stamp) entry.stamp = ++this.stamps;
    let frame = this.frames.get(message);
    if (!frame) {
      frame = new Frame(message.frame);
      this.frames.set(message, frame);
    }
    const skipConnections = message.skipConnectionIds;
    // Up to a few hundred members get their own copy of a channel event, so the skip list can be long.
    const skipUsers = message.skipUserIds?.length ? new Set(message.skipUserIds) : undefined;
    const skipWatchersOf = message.skipWatchersOf;
    const onlyWatchersOf = message.onlyWatchersOf;
    for (const connection of entry.members) {
      if (skipConnections?.includes(connection.id)) continue;
      if (skipUsers?.has(connection.userId)) continue;
      if (skipWatchersOf !== undefined && connection.watching.has(skipWatchersOf)) continue;
      if (onlyWatchersOf !== undefined && !connection.watching.has(onlyWatchersOf)) continue;
      if (connection.enqueue(frame)) this.markDirty(connection);
    }
  }

  private markDirty(connection: Connection): void {
    this.dirty.add(connection);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const batch = this.dirty;
    this.dirty = this.flushing;
    this.flushing = batch;
    for (const connection of batch) connection.flush();
    batch.clear();
    for (const wake of this.flushWaiters.splice(0)) wake();
  };

  /**
   * Resolves once every frame queued so far has been written to its socket. REST replies wait for it, so a client
   * sees the events its own call caused (message.new for its send) before the reply, as with Stream.
   */
  settled(): Promise<void> {
    if (!this.flushScheduled) return Promise.resolve();
    return new Promise((resolve) => this.flushWaiters.push(resolve));
  }

  private join(topic: string, connection: Connection): void {
    let entry = this.byTopic.get(topic);
    if (!entry) {
      const created: TopicEntry = {
        members: new Set(),
        users: new Map(),
        unsubscribe: null,
        stamp: 0,
      };
      entry = created;
      this.byTopic.set(topic, created);
      created.unsubscribe = this.pubsub.subscribe(topic, (message) => this.deliver(topic, message));
      created.unsubscribe.then(
        () => {
          created.stamp = ++this.stamps;
        },
        (error: unknown) => this.log.warn({ err: error, topic }, 'pubsub subscribe failed'),
      );
    }
    if (entry.members.has(connection)) return;
    entry.members.add(connection);
    const watcher = entry.users.get(connection.userId);
    if (watcher) watcher.connections += 1;
    else entry.users.set(connection.userId, { connections: 1, anonymous: connection.anonymous });
  }

  private leave(topic: string, connection: Connection): void {
    const entry = this.byTopic.get(topic);
    if (!entry || !entry.members.delete(connection)) return;
    const watcher = entry.users.get(connection.userId);
    if (watcher && --watcher.connections === 0) entry.users.delete(connection.userId);
    if (entry.members.size > 0) return;
    this.byTopic.delete(topic);
    entry.unsubscribe
      ?.then((unsubscribe) => unsubscribe())
      .catch((error: unknown) => this.log.warn({ err: error, topic }, 'pubsub unsubscribe failed'));
  }
}
