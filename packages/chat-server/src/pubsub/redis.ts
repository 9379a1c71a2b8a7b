import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BusEntry, BusHandler, BusMessage, PubSub, Unsubscribe } from './pubsub.ts';
import { decodeBatch, decodeMessage, encodeBatch, encodeMessage } from './wire.ts';

// The one Redis channel of `publishEach` batches (pubsub/wire.ts). Topic names always start with a colon-separated
// kind, so this name cannot collide with one.
const BATCH_CHANNEL = '*batch';

export interface RedisPubSubOptions {
  url: string;
  /** Prepended to every Redis channel name (tests use a random one per run). */
  keyPrefix?: string;
  log?: PubSubLogger;
}

export interface PubSubLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Publishes waiting for Redis beyond this many are dropped: a long outage must not grow memory without bound. */
const MAX_WAITING_PUBLISHES = 10_000;

/** How long `close` waits for queued commands to reach Redis before it drops the connections. */
const QUIT_TIMEOUT_MS = 1000;

/**
 * PubSub over Redis PUBLISH/SUBSCRIBE: at-most-once delivery to every node subscribed at publish time, in publish
 * order per topic and publisher connection. One connection publishes, one subscribes; a node subscribes to a Redis
 * channel only while it has local handlers for the topic, and always to the one that carries `publishEach`'s
 * batches. Handlers on the publishing node are called synchronously
 * inside `publish`, as with the memory PubSub, so a REST reply still follows the events its call caused on the
 * caller's own node; the copy Redis echoes back is skipped.
 *
 * Both connections reconnect by themselves. Publishes made while the publisher is away wait in ioredis' offline
 * queue and go out in order once it is back. Messages published by other nodes while the subscriber is away are
 * lost for good, so `receiving` turns false from the moment it drops until it is subscribed again to every topic.
 */
export async function createRedisPubSub(options: RedisPubSubOptions): Promise<PubSub> {
  const bus = await connectBus(options);
  watchSubscription(bus);
  await bus.subscriber.subscribe(bus.prefix + BATCH_CHANNEL);
  return {
    publish: (topic, message) => publish(bus, topic, message),
    publishEach: (entries) => publishEach(bus, entries),
    subscribe: (topic, handler) => subscribe(bus, topic, handler),
    get receiving() {
      return bus.receiving;
    },
    onReceivingChange(listener) {
      bus.receivingListeners.add(listener);
    },
    close: () => closeBus(bus),
  };
}

/** One node's bus: its two connections, its local handlers and the state of its subscription. */
interface RedisBus {
  prefix: string;
  log: PubSubLogger | undefined;
  /** This node's id in every header it publishes. */
  node: string;
  publisher: Redis;
  subscriber: Redis;
  handlers: Map<string, Set<BusHandler>>;
  receivingListeners: Set<(receiving: boolean) => void>;
  receiving: boolean;
  closing: boolean;
  waitingPublishes: number;
  dropping: boolean;
}

async function connectBus(options: RedisPubSubOptions): Promise<RedisBus> {
  const publisher = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
  // Resubscribing is ours (see `restore`): only then do we know when the subscription is complete again.
  const subscriber = new Redis(options.url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    autoResubscribe: false,
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  return {
    prefix: options.keyPrefix ?? 'chat:',
    log: options.log,
    node: randomUUID(),
    publisher,
    subscriber,
    handlers: new Map(),
    receivingListeners: new Set(),
    receiving: true,
    closing: false,
    waitingPublishes: 0,
    dropping: false,
  };
}

/** Follows the subscriber connection: lost and restored subscriptions, and messages from other nodes. */
function watchSubscription(bus: RedisBus): void {
  const { publisher, subscriber, log } = bus;
  logErrorsOnce(publisher, 'publisher', log);
  logErrorsOnce(subscriber, 'subscriber', log);
  subscriber.on('close', () => {
    if (!bus.closing) setReceiving(bus, false);
  });
  subscriber.on('ready', () => {
    if (!bus.receiving && !bus.closing) void restore(bus);
  });
  subscriber.on('message', (channel: string, payload: string) => {
    if (channel === bus.prefix + BATCH_CHANNEL) {
      const batch = decodeBatch(payload);
      if (batch && batch.node !== bus.node)
        for (const { topic, message } of batch.entries) deliver(bus, topic, message);
      return;
    }
    const decoded = decodeMessage(payload);
    if (decoded && decoded.node !== bus.node)
      deliver(bus, channel.slice(bus.prefix.length), decoded.message);
  });
}

function setReceiving(bus: RedisBus, value: boolean): void {
  if (bus.receiving === value) return;
  bus.receiving = value;
  if (value) bus.log?.info({}, 'redis subscription restored');
  else
    bus.log?.warn(
      {},
      'redis subscription lost: messages from other nodes are missed until it is back',
    );
  for (const listener of bus.receivingListeners) listener(value);
}

async function restore(bus: RedisBus): Promise<void> {
  const channels = [BATCH_CHANNEL, ...bus.handlers.keys()].map((topic) => bus.prefix + topic);
  try {
    await bus.subscriber.subscribe(...channels);
  } catch (error) {
    // Lost again while resubscribing: the next 'ready' tries again.
    bus.log?.warn({ err: error }, 'redis resubscribe failed');
    return;
  }
  if (bus.subscriber.status === 'ready') setReceiving(bus, true);
}

function deliver(bus: RedisBus, topic: string, message: BusMessage): void {
  const set = bus.handlers.get(topic);
  if (set) for (const handler of [...set]) handler(message);
}

async function publish(bus: RedisBus, topic: string, message: BusMessage): Promise<void> {
  deliver(bus, topic, message);
  await send(bus, topic, encodeMessage(message, bus.node));
}

async function publishEach(bus: RedisBus, entries: readonly BusEntry[]): Promise<void> {
  const [only] = entries;
  if (entries.length <= 1) return only ? publish(bus, only.topic, only.message) : undefined;
  for (const { topic, message } of entries) deliver(bus, topic, message);
  // One connection publishes everything, so Redis hands this to other nodes in order with single publishes.
  await send(bus, BATCH_CHANNEL, encodeBatch(entries, bus.node));
}

/** One PUBLISH, queued while Redis is away unless too many are waiting already. */
async function send(bus: RedisBus, channel: string, payload: string): Promise<void> {
  if (bus.waitingPublishes >= MAX_WAITING_PUBLISHES) {
    // Other nodes' clients reconnect and re-query once their own subscription comes back.
    if (!bus.dropping)
      bus.log?.warn(
        { waitingPublishes: bus.waitingPublishes },
        'redis unreachable: dropping publishes',
      );
    bus.dropping = true;
    return;
  }
  bus.waitingPublishes += 1;
  try {
    await bus.publisher.publish(bus.prefix + channel, payload);
  } finally {
    bus.waitingPublishes -= 1;
    if (bus.waitingPublishes === 0) bus.dropping = false;
  }
}

async function subscribe(bus: RedisBus, topic: string, handler: BusHandler): Promise<Unsubscribe> {
  let set = bus.handlers.get(topic);
  if (!set) {
    set = new Set([handler]);
    bus.handlers.set(topic, set);
    // If this fails (the connection dropped), the topic stays known and `restore` subscribes it again.
    await bus.subscriber.subscribe(bus.prefix + topic);
  } else {
    set.add(handler);
  }
  return async () => {
    const current = bus.handlers.get(topic);
    if (!current?.delete(handler) || current.size > 0) return;
    bus.handlers.delete(topic);
    await bus.subscriber.unsubscribe(bus.prefix + topic);
  };
}

async function closeBus(bus: RedisBus): Promise<void> {
  bus.closing = true;
  bus.handlers.clear();
  bus.receivingListeners.clear();
  await Promise.all([quit(bus.publisher), quit(bus.subscriber)]);
}

/**
 * ioredis emits 'error' on every failed reconnect attempt (and prints it when nobody listens): one warning per
 * outage is enough.
 */
function logErrorsOnce(client: Redis, role: string, log: PubSubLogger | undefined): void {
  let reported = false;
  client.on('error', (error: Error) => {
    if (!reported) log?.warn({ err: error, role }, 'redis connection error; reconnecting');
    reported = true;
  });
  client.on('ready', () => {
    reported = false;
  });
}

/** QUIT waits behind queued commands, which never leave while Redis is down: bound it, then just disconnect. */
async function quit(client: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    client.quit().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, QUIT_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  client.disconnect();
}
