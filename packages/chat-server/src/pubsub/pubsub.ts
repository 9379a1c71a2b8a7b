/**
 * What travels on the bus: the event already encoded as the JSON text of one websocket frame (encoded once by the
 * publisher, shared by every socket that receives the same bytes) plus routing hints that are not sent to clients.
 */
export interface BusMessage {
  frame: string;
  /** Connections that must not receive this frame (e.g. the sender's own connection for some events). */
  skipConnectionIds?: string[];
  /** Users that must not receive this frame. */
  skipUserIds?: string[];
  /** Skip connections watching this cid (notification.* events go only to members not watching the channel). */
  skipWatchersOf?: string;
  /** Only connections watching this cid (a member's own copy of a channel event, sent on their user topic). */
  onlyWatchersOf?: string;
  /**
   * On a channel topic: the channel's watchers on every node when the frame was made (`user.watching.*` carry it).
   * Each node keeps the latest it heard, so the events it makes later (`message.new`) carry the cluster's count
   * without asking Redis.
   */
  watcherCount?: number;
  /**
   * The event changes nothing stored (typing, watching): a channel state a node shares between viewers
   * (Hub.channelStamp) stays valid across it.
   */
  ephemeral?: boolean;
}

export type BusHandler = (message: BusMessage) => void;
export type Unsubscribe = () => Promise<void>;

/**
 * PUB/SUB between nodes. Delivery is at-most-once to every handler subscribed to the topic at the moment of
 * publishing, on any node; ordering is kept per topic and publisher. Clients recover missed events by re-querying
 * after a reconnect, which is why at-most-once is enough.
 *
 * Topics: `channel:<appId>:<cid>` for everything watchers of a channel see, `user:<appId>:<userId>` for a user's
 * own events (notification.*, mutes), `presence:<appId>:<userId>` for followers of a user's presence.
 */
/** One message for one topic, in a `publishEach` call. */
export interface BusEntry {
  topic: string;
  message: BusMessage;
}

export interface PubSub {
  publish(topic: string, message: BusMessage): Promise<void>;
  /**
   * The same as publishing each entry in turn (same delivery, same order), for one event to many users: a bus
   * between nodes sends them as one message instead of one per topic. Every node hands all the entries to its
   * handlers in one synchronous pass, so nothing else runs there between two of them (a watch, say): the
   * publisher's `together` relies on it.
   */
  publishEach(entries: readonly BusEntry[]): Promise<void>;
  subscribe(topic: string, handler: BusHandler): Promise<Unsubscribe>;
  /**
   * False while this node may miss messages from other nodes because its subscription to the bus is lost (Redis
   * restarting, a network cut). Whatever was published meanwhile never reaches it: its clients must reconnect and
   * re-query once the subscription is back (runtime.ts, realtime/gateway.ts).
   */
  readonly receiving: boolean;
  /** Calls `listener(false)` when the subscription is lost and `listener(true)` once it is restored. */
  onReceivingChange(listener: (receiving: boolean) => void): void;
  close(): Promise<void>;
}

export const topics = {
  channel: (appId: string, cid: string) => `channel:${appId}:${cid}`,
  user: (appId: string, userId: string) => `user:${appId}:${userId}`,
  /** `user.presence.changed` for connections that asked for presence of this user. */
  presence: (appId: string, userId: string) => `presence:${appId}:${userId}`,
};
