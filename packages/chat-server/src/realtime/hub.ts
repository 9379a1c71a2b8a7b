import type { BusMessage, PubSub, Unsubscribe } from '../pubsub/pubsub.ts';
import { topics } from '../pubsub/pubsub.ts';
import type { Connection } from './connection.ts';
import { Frame } from './frame.ts';

interface TopicEntry {
  members: Set<Connection>;
  unsubscribe: Promise<Unsubscribe> | null;
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
  private readonly dirty = new Set<Connection>();
  private flushScheduled = false;
  private flushWaiters: (() => void)[] = [];
  /** One Frame per bus message, even when the message is published to many topics (notification fan-out). */
  private readonly frames = new WeakMap<BusMessage, Frame>();

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

  /** Distinct users watching a channel through this node. */
  watcherUserIds(appId: string, cid: string): string[] {
    const entry = this.byTopic.get(topics.channel(appId, cid));
    if (!entry) return [];
    const ids = new Set<string>();
    for (const connection of entry.members) if (!connection.anonymous) ids.add(connection.userId);
    return [...ids];
  }

  watcherCount(appId: string, cid: string): number {
    const entry = this.byTopic.get(topics.channel(appId, cid));
    if (!entry) return 0;
    const ids = new Set<string>();
    for (const connection of entry.members) ids.add(connection.userId);
    return ids.size;
  }

  isWatching(appId: string, cid: string, userId: string): boolean {
    const entry = this.byTopic.get(topics.channel(appId, cid));
    if (!entry) return false;
    for (const connection of entry.members) if (connection.userId === userId) return true;
    return false;
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

  closeAll(code: number, reason: string): void {
    for (const connection of [...this.connections.values()]) {
      connection.close(code, reason);
      this.remove(connection);
    }
  }

  private deliver(topic: string, message: BusMessage): void {
    const entry = this.byTopic.get(topic);
    if (!entry || entry.members.size === 0) return;
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
    const batch = [...this.dirty];
    this.dirty.clear();
    for (const connection of batch) connection.flush();
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
      entry = { members: new Set(), unsubscribe: null };
      this.byTopic.set(topic, entry);
      entry.unsubscribe = this.pubsub.subscribe(topic, (message) => this.deliver(topic, message));
      entry.unsubscribe.catch((error: unknown) =>
        this.log.warn({ err: error, topic }, 'pubsub subscribe failed'),
      );
    }
    entry.members.add(connection);
  }

  private leave(topic: string, connection: Connection): void {
    const entry = this.byTopic.get(topic);
    if (!entry) return;
    entry.members.delete(connection);
    if (entry.members.size > 0) return;
    this.byTopic.delete(topic);
    entry.unsubscribe
      ?.then((unsubscribe) => unsubscribe())
      .catch((error: unknown) => this.log.warn({ err: error, topic }, 'pubsub unsubscribe failed'));
  }
}
