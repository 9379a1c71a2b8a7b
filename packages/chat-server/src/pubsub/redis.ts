import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { BusHandler, BusMessage, PubSub, Unsubscribe } from './pubsub.ts';

/*
 * Wire format of one bus message: a JSON header with the routing hints, a newline, then the frame text untouched
 * (it is already JSON; embedding it as a string would escape every quote). JSON.stringify never emits a raw newline,
 * so the first newline always ends the header.
 */
interface Header extends Omit<BusMessage, 'frame'> {
  /** The publishing node: it delivered locally already and skips the copy Redis sends back. */
  node: string;
}

function encode(message: BusMessage, node: string): string {
  const { frame, ...hints } = message;
  return `${JSON.stringify({ ...hints, node })}\n${frame}`;
}

function decode(payload: string): { node: string; message: BusMessage } | undefined {
  const cut = payload.indexOf('\n');
  if (cut < 0) return undefined;
  try {
    const { node, ...hints } = JSON.parse(payload.slice(0, cut)) as Header;
    return { node, message: { ...hints, frame: payload.slice(cut + 1) } };
  } catch {
    return undefined;
  }
}

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
 * channel only while it has local handlers for the topic. Handlers on the publishing node are called synchronously
 * inside `publish`, as with the memory PubSub, so a REST reply still follows the events its call caused on the
 * caller's own node; the copy Redis echoes back is skipped.
 *
 * Both connections reconnect by themselves. Publishes made while the publisher is away wait in ioredis' offline
 * queue and go out in order once it is back. Messages published by other nodes while the subscriber is away are
 * lost for good, so `receiving` turns false from the moment it drops until it is subscribed again to every topic.
 */
export async function createRedisPubSub(options: RedisPubSubOptions): Promise<PubSub> {
  const prefix = options.keyPrefix ?? 'chat:';
  const log = options.log;
  const publisher = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: null });
  // Resubscribing is ours (see `restore`): only then do we know when the subscription is complete again.
  const subscriber = new Redis(options.url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    autoResubscribe: false,
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<BusHandler>>();
  const node = randomUUID();
  const receivingListeners = new Set<(receiving: boolean) => void>();
  let receiving = true;
  let closing = false;
  let waitingPublishes = 0;
  let dropping = false;

  logErrorsOnce(publisher, 'publisher', log);
  logErrorsOnce(subscriber, 'subscriber', log);

  const setReceiving = (value: boolean) => {
    if (receiving === value) return;
    receiving = value;
    if (value) log?.info({}, 'redis subscription restored');
    else
      log?.warn(
        {},
        'redis subscription lost: messages from other nodes are missed until it is back',
      );
    for (const listener of receivingListeners) listener(value);
  };

  async function restore(): Promise<void> {
    const channels = [...handlers.keys()].map((topic) => prefix + topic);
    try {
      if (channels.length > 0) await subscriber.subscribe(...channels);
    } catch (error) {
      // Lost again while resubscribing: the next 'ready' tries again.
      log?.warn({ err: error }, 'redis resubscribe failed');
      return;
    }
    if (subscriber.status === 'ready') setReceiving(true);
  }

  subscriber.on('close', () => {
    if (!closing) setReceiving(false);
  });
  subscriber.on('ready', () => {
    if (!receiving && !closing) void restore();
  });

  const deliver = (topic: string, message: BusMessage) => {
    const set = handlers.get(topic);
    if (set) for (const handler of [...set]) handler(message);
  };

  subscriber.on('message', (channel: string, payload: string) => {
    const decoded = decode(payload);
    if (decoded && decoded.node !== node) deliver(channel.slice(prefix.length), decoded.message);
  });

  return {
    async publish(topic, message) {
      deliver(topic, message);
      if (waitingPublishes >= MAX_WAITING_PUBLISHES) {
        // Other nodes' clients reconnect and re-query once their own subscription comes back.
        if (!dropping) log?.warn({ waitingPublishes }, 'redis unreachable: dropping publishes');
        dropping = true;
        return;
      }
      waitingPublishes += 1;
      try {
        await publisher.publish(prefix + topic, encode(message, node));
      } finally {
        waitingPublishes -= 1;
        if (waitingPublishes === 0) dropping = false;
      }
    },
    async subscribe(topic, handler): Promise<Unsubscribe> {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set([handler]);
        handlers.set(topic, set);
        // If this fails (the connection dropped), the topic stays known and `restore` subscribes it again.
        await subscriber.subscribe(prefix + topic);
      } else {
        set.add(handler);
      }
      return async () => {
        const current = handlers.get(topic);
        if (!current?.delete(handler) || current.size > 0) return;
        handlers.delete(topic);
        await subscriber.unsubscribe(prefix + topic);
      };
    },
    get receiving() {
      return receiving;
    },
    onReceivingChange(listener) {
      receivingListeners.add(listener);
    },
    async close() {
      closing = true;
      handlers.clear();
      receivingListeners.clear();
      await Promise.all([quit(publisher), quit(subscriber)]);
    },
  };
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
