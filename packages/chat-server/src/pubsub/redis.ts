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
}

/**
 * PubSub over Redis PUBLISH/SUBSCRIBE: at-most-once delivery to every node subscribed at publish time, in publish
 * order per topic and publisher connection. One connection publishes, one subscribes; a node subscribes to a Redis
 * channel only while it has local handlers for the topic. Handlers on the publishing node are called synchronously
 * inside `publish`, as with the memory PubSub, so a REST reply still follows the events its call caused on the
 * caller's own node; the copy Redis echoes back is skipped.
 */
export async function createRedisPubSub(options: RedisPubSubOptions): Promise<PubSub> {
  const prefix = options.keyPrefix ?? 'chat:';
  const publisher = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const subscriber = new Redis(options.url, { lazyConnect: true });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const handlers = new Map<string, Set<BusHandler>>();
  const node = randomUUID();

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
      await publisher.publish(prefix + topic, encode(message, node));
    },
    async subscribe(topic, handler): Promise<Unsubscribe> {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
        await subscriber.subscribe(prefix + topic);
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(topic);
        if (!current?.delete(handler) || current.size > 0) return;
        handlers.delete(topic);
        await subscriber.unsubscribe(prefix + topic);
      };
    },
    async close() {
      handlers.clear();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
